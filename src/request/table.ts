// A table and key as the line gives them: resolved in the device's catalogue, the operation checked,
// a key typed, and what a user can type to see the keys.
import type { QueryParams } from '../api/url.js';
import {
  allows,
  describeOperations,
  findTable,
  isWellFormedTablePath,
  normalizeTablePath,
  OPERATION_NAMES,
  suggestTables,
  uncataloguedTable,
  type OperationCode,
  type TableDef,
} from '../catalogue/index.js';
import type { Catalogue } from '../catalogue/provider.js';
import { UsageError } from '../errors.js';
import { shellWord, vdomFlag } from './shell.js';

export { shellWord, vdomFlag } from './shell.js';

/** Where a notice or a warning about a request goes (the printer). */
export interface Say {
  notice(message: string): void;
  warn(message: string): void;
}

/** Where a table was looked for, in words: the shipped catalogue, the device's schema, or both. */
function lookedIn(catalogue: Catalogue): string {
  if (!catalogue.shipped) return `the device's schema (release ${catalogue.release})`;
  return `the ${catalogue.release} catalogue${catalogue.lookup ? " or of the device's schema" : ''}`;
}

/** What a table path that names no table probably meant: the nearest tables, or where to see them all. */
export function tableTypoHint(catalogue: Pick<Catalogue, 'summaries'>, path: string): string {
  const near = suggestTables(path, 3, catalogue.summaries());
  return near.length ? `did you mean ${near.join(' or ')}?` : "'cmdb tables' lists them";
}

/**
 * Looks a table path up in the device's catalogue (a table it lacks in the device's schema, where the
 * catalogue can look one up). A path in neither is a typo (CLI.md "Shape"): a usage error naming the
 * nearest tables, unless --force, which sends it as a keyed table with a string key. `force` is null
 * where a table cmdb does not know cannot be used at all (an export needs its key).
 */
export async function resolveTable(
  catalogue: Catalogue,
  input: string,
  force: { force: boolean; say: Pick<Say, 'warn'> } | null,
): Promise<TableDef> {
  const path = normalizeTablePath(input);
  if (!isWellFormedTablePath(path)) {
    const near = suggestTables(path, 3, catalogue.summaries());
    throw new UsageError(
      `'${input}' is not a table path`,
      near.length
        ? `did you mean ${near.join(' or ')}? (table paths look like area[.subarea]/table)`
        : 'table paths look like area[.subarea]/table, for example firewall.ipmacbinding/table; ' +
            "'cmdb tables' lists them",
    );
  }
  const table = catalogue.find(path) ?? (await catalogue.lookup?.(path));
  if (table) return table;
  const where = lookedIn(catalogue);
  if (force?.force) {
    force.say.warn(
      `${path} is not a table of ${where}; sending it anyway as a keyed table with a string key (--force)`,
    );
    return uncataloguedTable(path);
  }
  const hint = tableTypoHint(catalogue, path);
  throw new UsageError(
    `${path} is not a table of ${where}`,
    force ? `${hint} (--force sends it anyway, as a keyed table with a string key)` : hint,
  );
}

/** Refuses an operation the catalogue does not list for the table, unless --force (`force`: said where). */
export function requireOperation(
  table: TableDef,
  force: { force: boolean; say: Pick<Say, 'warn'> },
  ...ops: OperationCode[]
): void {
  if (!table.known || ops.some((op) => allows(table, op))) return;
  const name = OPERATION_NAMES[ops[0]];
  if (force.force) {
    force.say.warn(`the catalogue does not list '${name}' for ${table.path}; sending it anyway (--force)`);
    return;
  }
  throw new UsageError(
    `${table.path} does not support ${name}${table.singleton ? ' (it is a singleton table)' : ''}; it has: ` +
      `${describeOperations(table)}`,
    '--force sends it anyway',
  );
}

/** Where a key names an object already there: the VDOMs it is looked for in (for a hint to paste). */
export interface KeyLookup {
  vdoms: string[] | undefined;
}

/**
 * A key as the catalogue types it: integer keys must be integers, checked before anything is sent.
 * `existing`: the key names an object already there, so a name typed for it gets the list that finds
 * the object by name; null for a new object's key.
 */
export function parseMkey(table: TableDef, raw: string, existing: KeyLookup | null, what = 'key'): string | number {
  if (table.keyType === 'integer') {
    if (!/^-?\d+$/.test(raw.trim()))
      throw new UsageError(
        `${table.path} has integer keys (${table.key}); '${raw}' is not an integer`,
        existing ? byNameHint(table, raw, existing.vdoms) : null,
      );
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) throw new UsageError(`${what} '${raw}' is out of range`);
    return n;
  }
  if (raw === '') throw new UsageError(`the ${what} must not be empty`);
  return raw;
}

/**
 * How to find an object by its name, as a shell takes it (the name escaped for the filter, then
 * quoted): where the table has a `name` field and can be listed.
 */
function byNameHint(table: TableDef, name: string, vdoms: string[] | undefined): string | null {
  if (!table.fields.name || !allows(table, 'L')) return null;
  const filter = `name==${name.replace(/[\\,]/g, '\\$&')}`;
  return `find it by name: cmdb list ${table.path} --filter ${shellWord(filter)}${vdomFlag(vdoms)}`;
}

export function requireKeyed(table: TableDef, command: string): void {
  if (!table.singleton) return;
  if (command === 'delete') {
    throw new UsageError(
      `${table.path} is a singleton table: it has no objects to delete`,
      allows(table, 'P') ? `change its fields with 'cmdb update ${table.path} --set field=value'` : null,
    );
  }
  throw new UsageError(
    `${table.path} is a singleton table: it has no keys`,
    `use 'cmdb ${command === 'update' ? 'update' : 'get'} ${table.path}' without a key`,
  );
}

/** The VDOM part of every request. */
export function vdomQuery(vdoms: string[] | undefined): QueryParams {
  return vdoms ? { vdom: vdoms } : {};
}

/** Whether the catalogue lists an operation for a table (a table outside it may do anything). */
export function supports(tablePath: string | undefined, op: OperationCode): boolean {
  const table = tablePath ? findTable(tablePath) : undefined;
  return !table || allows(table, op);
}

/** Where to see a table's keys: `cmdb list` only where the table can be listed. */
export function keysHint(tablePath: string, vdoms?: string[]): string {
  if (supports(tablePath, 'L')) return `list the existing keys with 'cmdb list ${tablePath}${vdomFlag(vdoms)}'`;
  return `${tablePath} cannot be listed (see its operations with 'cmdb tables'); check the key`;
}
