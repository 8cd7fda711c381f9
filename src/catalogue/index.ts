// The shipped catalogue of release 6.4.14: every table's summary and definition (fields, key,
// operations), read from the compiled files on first use, and the rules every layer asks of a table.
import { readFileSync } from 'node:fs';
import { deviceNameOf, normalizeTablePath, specNameOf, tableFileName } from './names.js';
import type { FieldSchema, OperationCode, TableDef, TableSummary } from './types.js';

export type { FieldSchema, KeyType, OperationCode, TableDef, TableSummary } from './types.js';
export { areaOf, deviceNameOf, isWellFormedTablePath, normalizeTablePath, specNameOf } from './names.js';

export const OPERATION_NAMES: Record<OperationCode, string> = {
  L: 'list',
  C: 'create',
  R: 'read',
  U: 'update',
  D: 'delete',
  G: 'read',
  P: 'update',
};

export const RELEASE = '6.4.14';

/** The compiled catalogue (scripts/catalogue.js), beside this module in the tree and the bundle alike. */
const DATA = new URL('../catalogue/data/', import.meta.url);

/** One file of the compiled catalogue, parsed. */
export function readData<T>(name: string): T {
  return JSON.parse(readFileSync(new URL(name, DATA), 'utf8')) as T;
}

let summaries: TableSummary[] | undefined;
let tables: TableDef[] | undefined;
const byPath = new Map<string, TableDef | null>();

/** Every table's summary (no fields): what listing tables and suggesting names need. */
export function tableSummaries(): TableSummary[] {
  summaries ??= readData<{ tables: TableSummary[] }>('index.json').tables;
  return summaries;
}

/** Every table whole, read once (a full export, the emulator's backup). */
export function allTables(): TableDef[] {
  if (!tables) {
    tables = readData<{ tables: TableDef[] }>('all.json').tables.map((t) => ({ ...t, known: true }));
    for (const t of tables) byPath.set(t.path, t);
  }
  return tables;
}

/** One catalogued table, reading only its own file; null when the catalogue has no such path. */
function catalogued(path: string): TableDef | null {
  let table = byPath.get(path);
  if (table === undefined) {
    try {
      table = { ...readData<TableDef>(`t/${tableFileName(path)}`), known: true };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      table = null;
    }
    byPath.set(path, table);
  }
  return table;
}

/**
 * The catalogue entry for a path, or undefined when it is not catalogued. The device's name of a table
 * SPEC.md renamed gets that table's definition under the path as written (requests use the name typed).
 */
export function findTable(path: string): TableDef | undefined {
  const normalized = normalizeTablePath(path);
  const table = catalogued(normalized);
  if (table) return table;
  const target = specNameOf(normalized);
  const aliased = target === undefined ? null : catalogued(target);
  return aliased ? { ...aliased, path: normalized, aliasOf: aliased.path } : undefined;
}

/**
 * The names a table may be asked under on a device: its own, then the other name of a table SPEC.md
 * renamed (the device's for SPEC.md's name, SPEC.md's for the device's).
 */
export function namesOf(table: TableSummary): string[] {
  const other = deviceNameOf(table.path) ?? specNameOf(table.path);
  return other ? [table.path, other] : [table.path];
}

/** An integer key of 0 in a create: the device picks the next free key (`edit 0`), so it names no object. */
export function devicePicksKey(table: TableSummary, key: unknown): boolean {
  return table.keyType === 'integer' && (key === 0 || key === '0');
}

/** A table whose objects exist once for the whole device (scope `global`); every other scope is per VDOM. */
export function isGlobal(table: TableSummary | undefined): boolean {
  return table?.scope === 'global';
}

/** A stand-in definition for a well-formed path outside the catalogue. */
export function uncataloguedTable(path: string): TableDef {
  return {
    path,
    group: 'unknown',
    operations: ['L', 'C', 'R', 'U', 'D'],
    singleton: false,
    key: 'mkey',
    keyType: 'string',
    fields: {},
    known: false,
  };
}

function editDistance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0];
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j];
      row[j] = Math.min(row[j] + 1, row[j - 1] + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length];
}

/** Catalogued paths close to `path`, closest first, plus same-named tables of other areas (for "did you mean"). */
export function suggestTables(path: string, max = 3, summaries: TableSummary[] = tableSummaries()): string[] {
  const p = normalizeTablePath(path);
  const paths = summaries.map((t) => t.path);
  const name = (p.split('/').pop() ?? p).toLowerCase();
  const sameName = name.length >= 3 ? paths.filter((c) => c.toLowerCase().endsWith(`/${name}`) && c !== p) : [];
  return [...new Set([...nearestNames(p, paths, max), ...sameName])].slice(0, max);
}

/**
 * The candidates within a small edit distance of `name`, closest first (for "did you mean"). Case is
 * not counted: `FIREWALL/address` is nearest to `firewall/address`, though only that spelling is a table.
 */
export function nearestNames(name: string, candidates: string[], max = 1): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  const folded = name.toLowerCase();
  return candidates
    .map((c) => ({ c, d: editDistance(folded, c.toLowerCase()) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.c);
}

/** Whether the catalogue lists an operation for the table (uncatalogued tables allow everything). */
export function allows(table: TableSummary, op: OperationCode): boolean {
  return table.operations.includes(op);
}

/** Human names of a table's operations, for error messages: `list, create, read`. */
export function describeOperations(table: TableSummary): string {
  return table.operations.map((op) => OPERATION_NAMES[op]).join(', ');
}

/** The key of a sub-table's entries (list fields): `id`, else `name`, else its first field that is not an option. */
export function entryKeyOf(items: Record<string, FieldSchema>): string | undefined {
  if (items.id) return 'id';
  if (items.name) return 'name';
  const names = Object.keys(items);
  return names.find((name) => !items[name].enum) ?? names[0];
}

/**
 * Whether the device keeps the order of a list field's entries: lists of named members
 * (addresses, interfaces) are sets to it; numbered entries (rules) are evaluated in order.
 */
export function entryOrderMatters(items: Record<string, FieldSchema>): boolean {
  return entryKeyOf(items) !== 'name';
}

/**
 * Whether the order of a keyed table's objects matters to the device and a client can set it:
 * numbered objects (an integer key: policies, rules, sequence entries) are evaluated in their list
 * order, as numbered list entries are (entryOrderMatters), and `move` is an update (E4), so the table
 * must allow one. Named objects are a set to the device; their order is never compared.
 */
export function keepsOrder(table: TableSummary): boolean {
  return !table.singleton && table.key !== null && table.keyType === 'integer' && table.operations.includes('U');
}
