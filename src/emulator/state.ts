// The state file of `--state` and `--demo`: every table made so far, per VDOM and global, with what
// must survive a restart (credentials, certificate, port), written atomically after each change.
import { readFileSync } from 'node:fs';
import type { TableDef } from '../catalogue/index.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { writePrivateFile } from '../files.js';
import type { CertificatePair } from './cert.js';
import type { Obj } from './schema.js';
import { flavorOf, seedTable } from './seed.js';
import { Database, KeyedTable, SingletonTable, type Owner, type TableState } from './store.js';

const FORMAT = 'cmdb-emulator-state';

interface SavedTable {
  revision: number;
  objects?: Obj[];
  settings?: Obj;
}

/** The state file: every table of every VDOM, plus what must survive a restart for clients to keep working. */
export interface SavedState {
  format: typeof FORMAT;
  version: 1;
  /** Generated default credentials, reused so that saved profiles keep working. */
  credentials?: { password: string; token: string };
  /** A generated certificate, reused so that pinned fingerprints keep matching. */
  tls?: CertificatePair;
  /** The port it listened on, reused so that saved profiles keep their address. */
  port?: number;
  /** The seed of the tables the file does not hold (made from it on first use, as at the first start). */
  seed?: 'demo' | 'empty';
  vdoms: Record<string, Record<string, SavedTable>>;
  /**
   * The device's global tables (scope `global`), held once. A file written before they were lists them
   * under each VDOM: the root VDOM's copy is taken, else the first VDOM's that has one.
   */
  global?: Record<string, SavedTable>;
}

/** A state file that cannot be used: its name and why. */
export class StateFileError extends Error {
  readonly code = 'ESTATEFILE';
  constructor(
    readonly file: string,
    reason: string,
  ) {
    super(`${file}: ${reason}`);
    this.name = 'StateFileError';
  }
}

export function loadState(file: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return undefined;
    throw new StateFileError(
      file,
      code === 'EISDIR' ? 'is a directory' : code === 'EACCES' ? 'permission denied' : (error as Error).message,
    );
  }
  let state: Partial<SavedState> | null;
  try {
    state = JSON.parse(text) as Partial<SavedState> | null;
  } catch (error) {
    throw new StateFileError(file, `is not valid JSON (${(error as Error).message})`);
  }
  if (
    !state ||
    state.format !== FORMAT ||
    state.version !== 1 ||
    !state.vdoms ||
    typeof state.vdoms !== 'object' ||
    Array.isArray(state.vdoms)
  ) {
    throw new StateFileError(file, 'is not a cmdb emulator state file');
  }
  if (Object.keys(state.vdoms).length === 0) throw new StateFileError(file, 'has no VDOMs');
  if (state.port !== undefined && !(Number.isInteger(state.port) && state.port > 0 && state.port < 65536))
    throw new StateFileError(file, `has an invalid port ${JSON.stringify(state.port)}`);
  return state as SavedState;
}

/** Written atomically and private (it holds the credentials and the TLS key); not flushed, as before: a test device. */
export function saveState(file: string, state: SavedState): void {
  writePrivateFile(file, JSON.stringify(state), { durable: false });
}

function saveTable(state: TableState): SavedTable {
  return state instanceof KeyedTable
    ? { revision: state.revision, objects: [...state.all()] }
    : { revision: state.revision, settings: state.object };
}

function restoreTable(table: TableDef, saved: SavedTable | undefined): TableState | undefined {
  if (!saved) return undefined;
  if (table.singleton) return saved.settings ? new SingletonTable(saved.settings, saved.revision) : undefined;
  return Array.isArray(saved.objects) ? new KeyedTable(table.key!, saved.objects, saved.revision) : undefined;
}

export function snapshot(db: Database, extras: Pick<SavedState, 'credentials' | 'tls' | 'port' | 'seed'>): SavedState {
  // Every VDOM, also one whose tables were not made yet: the file keeps the device's VDOMs.
  const vdoms: SavedState['vdoms'] = Object.fromEntries(db.vdoms.map((vdom) => [vdom, {}]));
  const global: Record<string, SavedTable> = {};
  for (const [owner, tablePath, state] of db.entries())
    (owner === null ? global : (vdoms[owner] ??= {}))[tablePath] = saveTable(state);
  return { format: FORMAT, version: 1, ...extras, vdoms, global };
}

/** A global table as saved: in the file's global tables, else (an older file) the root VDOM's copy, else the first. */
function savedGlobal(saved: SavedState, tablePath: string): SavedTable | undefined {
  const copies = Object.entries(saved.vdoms).filter(([, tables]) => tables?.[tablePath]);
  return saved.global?.[tablePath] ?? (copies.find(([vdom]) => vdom === 'root') ?? copies[0])?.[1][tablePath];
}

function savedTable(saved: SavedState | undefined, owner: Owner, tablePath: string): SavedTable | undefined {
  if (!saved) return undefined;
  return owner === null ? savedGlobal(saved, tablePath) : saved.vdoms[owner]?.[tablePath];
}

/**
 * Tables come from the saved state where it has them, else from the seed (a table not used yet, a new
 * VDOM, a newer catalogue): the one the file was started with, else `option`.
 */
export function buildDatabase(
  vdoms: readonly string[],
  option: 'demo' | 'empty',
  saved?: SavedState,
  catalogue: Catalogue = SHIPPED_CATALOGUE,
): Database {
  const seed = saved?.seed ?? option;
  const db = new Database(
    vdoms,
    (owner, tablePath) => {
      const table = catalogue.find(tablePath);
      if (!table) throw new Error(`no table ${tablePath}`);
      return restoreTable(table, savedTable(saved, owner, tablePath)) ?? seedTable(table, flavorOf(vdoms, owner), seed);
    },
    (tablePath) => catalogue.find(tablePath)?.scope === 'global',
  );
  // Saved tables the seed would not make again are made now, so that a snapshot keeps them.
  for (const [vdom, tables] of Object.entries(saved?.vdoms ?? {})) {
    if (db.hasVdom(vdom))
      for (const tablePath of Object.keys(tables)) if (catalogue.find(tablePath)) db.table(vdom, tablePath);
  }
  for (const tablePath of Object.keys(saved?.global ?? {})) if (catalogue.find(tablePath)) db.tableAt(null, tablePath);
  return db;
}
