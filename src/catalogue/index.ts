import { readFileSync } from 'node:fs';

/** Operation codes of SPEC.md: L list, C create, R read, U update, D delete, G get singleton, P put singleton. */
export type OperationCode = 'L' | 'C' | 'R' | 'U' | 'D' | 'G' | 'P';
export type KeyType = 'string' | 'integer';

export interface FieldSchema {
  type: 'string' | 'integer' | 'array';
  format?: string;
  enum?: string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  /** A multi-value option field: one string of space-separated values from `enum` (order not kept by the device). */
  multiple?: boolean;
  items?: Record<string, FieldSchema>;
}

export interface TableDef {
  /** Path without the leading slash, as users write it: `firewall.ipmacbinding/table`. */
  path: string;
  group: string;
  operations: OperationCode[];
  singleton: boolean;
  /** The key field the device uses in item paths (also where SPEC.md is silent); null for singletons. */
  key: string | null;
  keyType: KeyType | null;
  fields: Record<string, FieldSchema>;
  /** False for a well-formed path outside the catalogue, sent as a keyed table with a string key. */
  known: boolean;
  /** For a vendor name of a catalogued table (`vpn.ipsec/forticlient`): the catalogue's path it stands for. */
  aliasOf?: string;
}

export const OPERATION_NAMES: Record<OperationCode, string> = {
  L: 'list',
  C: 'create',
  R: 'read',
  U: 'update',
  D: 'delete',
  G: 'read',
  P: 'update',
};

interface RawTable {
  path: string;
  group: string;
  operations: OperationCode[];
  key: { name: string; type: KeyType } | null;
  singleton: boolean;
  deviceKey: string | null;
  fields: Record<string, FieldSchema>;
}

let tables: TableDef[] | undefined;
let byPath: Map<string, TableDef> | undefined;

/**
 * The vendor's own names of catalogued areas and tables, which devices and scripts use: an area
 * prefix (`log.fortianalyzer2/` stands for every `log.vendoranalyzer2/` table) or a whole path.
 */
const ALIASES: Record<string, string> = {
  'log.fortianalyzer2/': 'log.vendoranalyzer2/',
  'log.fortianalyzer-cloud/': 'log.vendoranalyzer-cloud/',
  'vpn.ipsec/forticlient': 'vpn.ipsec/vendorclient',
};

/** The catalogue's path an alias stands for, or undefined when `path` is no alias. */
function aliasTarget(path: string): string | undefined {
  for (const [alias, target] of Object.entries(ALIASES)) {
    if (alias.endsWith('/') ? path.startsWith(alias) : path === alias) return target + path.slice(alias.length);
  }
  return undefined;
}

export const RELEASE = '6.4.14';

/** Every table of the catalogue, read once. */
export function allTables(): TableDef[] {
  if (!tables) {
    const file = new URL('../../../src/catalogue/tables-6.4.14.json', import.meta.url);
    const raw = JSON.parse(readFileSync(file, 'utf8')) as { tables: RawTable[] };
    tables = raw.tables.map((t) => {
      const key = t.key?.name ?? t.deviceKey;
      const keyField = key ? t.fields[key] : undefined;
      return {
        path: t.path.replace(/^\//, ''),
        group: t.group,
        operations: t.operations,
        singleton: t.singleton,
        key,
        keyType: key ? (t.key?.type ?? (keyField?.type === 'integer' ? 'integer' : 'string')) : null,
        fields: t.fields,
        known: true,
      };
    });
    byPath = new Map(tables.map((t) => [t.path, t]));
  }
  return tables;
}

const TABLE_PATH = /^[a-z0-9][a-z0-9-]*(\.[a-z0-9][a-z0-9-]*)*\/[a-z0-9][a-z0-9-]*$/;

/** `area` of a table path: what stands before the first `.` or `/`. */
export function areaOf(path: string): string {
  return path.split(/[./]/, 1)[0];
}

export function normalizeTablePath(input: string): string {
  return input.replace(/^\/+/, '').replace(/\/+$/, '');
}

export function isWellFormedTablePath(path: string): boolean {
  return TABLE_PATH.test(path);
}

/**
 * The catalogue entry for a path, or undefined when it is not catalogued. An alias gets its
 * table's definition under the path as written (requests use the name the user typed).
 */
export function findTable(path: string): TableDef | undefined {
  allTables();
  const normalized = normalizeTablePath(path);
  const table = byPath!.get(normalized);
  if (table) return table;
  const target = aliasTarget(normalized);
  const aliased = target === undefined ? undefined : byPath!.get(target);
  return aliased && { ...aliased, path: normalized, aliasOf: aliased.path };
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
export function suggestTables(path: string, max = 3): string[] {
  const p = normalizeTablePath(path);
  const paths = allTables().map((t) => t.path);
  const name = p.split('/').pop() ?? p;
  const sameName = name.length >= 3 ? paths.filter((c) => c.endsWith(`/${name}`) && c !== p) : [];
  return [...new Set([...nearestNames(p, paths, max), ...sameName])].slice(0, max);
}

/** The candidates within a small edit distance of `name`, closest first (for "did you mean"). */
export function nearestNames(name: string, candidates: string[], max = 1): string[] {
  const limit = Math.max(2, Math.floor(name.length / 3));
  return candidates
    .map((c) => ({ c, d: editDistance(name, c) }))
    .filter((x) => x.d <= limit)
    .sort((a, b) => a.d - b.d)
    .slice(0, max)
    .map((x) => x.c);
}

/** Whether the catalogue lists an operation for the table (uncatalogued tables allow everything). */
export function allows(table: TableDef, op: OperationCode): boolean {
  return table.operations.includes(op);
}

/** Human names of a table's operations, for error messages: `list, create, read`. */
export function describeOperations(table: TableDef): string {
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
export function keepsOrder(table: TableDef): boolean {
  return !table.singleton && table.key !== null && table.keyType === 'integer' && table.operations.includes('U');
}
