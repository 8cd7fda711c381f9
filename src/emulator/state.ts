import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { allTables, type TableDef } from '../catalogue/index.js';
import type { CertificatePair } from './cert.js';
import type { Obj } from './schema.js';
import { seedTable } from './seed.js';
import { Database, KeyedTable, SingletonTable, type TableState } from './store.js';

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
  vdoms: Record<string, Record<string, SavedTable>>;
}

export function loadState(file: string): SavedState | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const state = JSON.parse(text) as Partial<SavedState>;
  if (state.format !== FORMAT || state.version !== 1 || typeof state.vdoms !== 'object') throw new Error(`${file} is not a cmdb emulator state file`);
  return state as SavedState;
}

/** Writes beside the file, then renames over it, so a reader never sees half a state. */
export function saveState(file: string, state: SavedState): void {
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
  writeFileSync(temp, JSON.stringify(state), { mode: 0o600 });
  renameSync(temp, file);
}

function saveTable(state: TableState): SavedTable {
  return state instanceof KeyedTable ? { revision: state.revision, objects: [...state.all()] } : { revision: state.revision, settings: state.object };
}

function restoreTable(table: TableDef, saved: SavedTable | undefined): TableState | undefined {
  if (!saved) return undefined;
  if (table.singleton) return saved.settings ? new SingletonTable(saved.settings, saved.revision) : undefined;
  return Array.isArray(saved.objects) ? new KeyedTable(table.key!, saved.objects, saved.revision) : undefined;
}

export function snapshot(db: Database, extras: Pick<SavedState, 'credentials' | 'tls'>): SavedState {
  const vdoms: SavedState['vdoms'] = {};
  for (const [vdom, tablePath, state] of db.entries()) (vdoms[vdom] ??= {})[tablePath] = saveTable(state);
  return { format: FORMAT, version: 1, ...extras, vdoms };
}

/** Tables come from the saved state where it has them, else from the seed (a new VDOM, a newer catalogue). */
export function buildDatabase(vdoms: readonly string[], seed: 'demo' | 'empty', saved?: SavedState): Database {
  const db = new Database(vdoms);
  vdoms.forEach((vdom, index) => {
    for (const table of allTables()) {
      db.install(vdom, table.path, restoreTable(table, saved?.vdoms[vdom]?.[table.path]) ?? seedTable(table, index, seed));
    }
  });
  return db;
}
