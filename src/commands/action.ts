// The read actions of SPEC.md E1/E2 as commands: `cmdb schema`, `defaults`, `meta`, `revision`,
// `transactions`; `schema --all` reads the device's whole tree.
import type { ApiResult } from '../api/client.js';
import { uncataloguedTable, type TableDef } from '../catalogue/index.js';
import type { Context } from '../run/context.js';
import { UsageError } from '../errors.js';
import type { FieldSchema } from '../catalogue/index.js';
import type { Row } from '../output/index.js';
import { parseMkey, vdomQuery } from '../request/table.js';
import { lineTable, printRead, request, vdomsFor } from './common/request.js';

/** The read actions of SPEC.md E1/E2, one command each: `cmdb schema <table>` → `?action=schema`. */
export const READ_ACTIONS = {
  schema: 'schema',
  defaults: 'default',
  meta: 'meta',
  revision: 'revision',
  transactions: 'transaction-list',
} as const;

export type ReadActionCommand = keyof typeof READ_ACTIONS;

/** The run() of one read action. Metadata reads are not catalogue operations, so they are sent for any table. */
export function readAction(command: ReadActionCommand) {
  const print = (ctx: Context, table: TableDef, result: ApiResult, mkey?: string | number): Promise<number> => {
    const results = result.envelopes[0]?.results;
    // A table shows a schema as a person reads it: one row per field.
    const schema = command === 'schema' && !result.multiVdom && isObject(results) && isObject(results.children);
    const forPeople = schema
      ? {
          table: {
            rows: schemaRows(results.children as Obj, String(results.mkey ?? ''), 0, table.fields),
            fields: SCHEMA_COLUMNS,
          },
        }
      : {};
    const none =
      command === 'transactions'
        ? {
            none:
              'no transactions' +
              `${mkey === undefined ? ` on ${table.path}` : ` on ${table.path} ${JSON.stringify(String(mkey))}`}`,
          }
        : {};
    return printRead(ctx, table, result, !Array.isArray(results), {}, { ...forPeople, ...none, metadata: true });
  };
  const run = async (ctx: Context, { table: tableInput, key }: { table: string; key?: string }): Promise<number> => {
    const table = await lineTable(ctx, tableInput);
    const mkey = key === undefined ? undefined : parseMkey(table, key, { vdoms: vdomsFor(ctx, table) });
    const result = await request(ctx, table, {
      method: 'GET',
      mkey,
      query: { ...vdomQuery(vdomsFor(ctx, table)), action: READ_ACTIONS[command] },
    });
    return print(ctx, table, result, mkey);
  };
  return Object.assign(run, { print });
}

export interface SchemaOptions {
  all?: boolean;
  refresh?: boolean;
}

/**
 * `cmdb schema <table>` (`?action=schema`), or `--all`: the whole tree (`GET <prefix>?action=schema`),
 * `--raw` as it came. `--refresh` (and `--all` always) rewrites the schema cache of a device of another
 * release than 6.4.14.
 */
export async function schema(
  ctx: Context,
  { table: tableInput }: { table?: string },
  opts: SchemaOptions,
): Promise<number> {
  if (opts.all && tableInput !== undefined) throw new UsageError('give a table or --all, not both');
  const device = await import('../device/catalogue.js');
  if (opts.all) {
    const result = await device.readSchemaTree(ctx.device());
    const results = result.envelopes[0]?.results;
    const rows = Array.isArray(results) ? results.filter(isObject).map(treeRow) : [];
    return printRead(ctx, uncataloguedTable(''), result, false, {}, { table: { rows, fields: TREE_COLUMNS } });
  }
  if (tableInput === undefined)
    throw new UsageError(
      'say which table',
      "give a table path, or --all for every table (cmdb schema --all --raw > FILE saves the device's whole schema)",
    );
  // A typo is refused as for every command; a table only the device's schema has is read twice.
  const table = await lineTable(ctx, tableInput);
  const result = await request(ctx, table, {
    method: 'GET',
    query: { ...vdomQuery(vdomsFor(ctx, table)), action: 'schema' },
  });
  if (opts.refresh) device.refreshTableSchema(ctx.device(), table.path, result);
  return readAction('schema').print(ctx, table, result);
}

type Obj = Record<string, unknown>;

const TREE_COLUMNS = ['table', 'kind', 'key', 'keyType', 'group'];

/** One table of the whole tree as a person reads it. */
function treeRow(entry: Obj): Row {
  const s = isObject(entry.schema) ? entry.schema : {};
  const keyed = s.category === 'table';
  return {
    table: `${String(entry.path)}/${String(entry.name)}`,
    kind: keyed ? 'keyed' : s.category === 'complex' ? 'singleton' : String(s.category ?? ''),
    key: keyed ? String(s.mkey ?? '') : '',
    keyType: keyed ? String(s.mkey_type ?? '') : '',
    group: String(s.access_group ?? ''),
  };
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);

// The allowed values last: the longest column, the one a narrow terminal cuts.
const SCHEMA_COLUMNS = ['field', 'type', 'size/range', 'default', 'values'];

/** `max 35`, `0-4294967295`, `>= 1`: what the device accepts for a field's length or value. */
function limits(field: Obj): string {
  if (typeof field.size === 'number') return `max ${field.size}`;
  const min = field['min-value'];
  const max = field['max-value'];
  if (typeof min === 'number' && typeof max === 'number') return `${min}-${max}`;
  if (typeof min === 'number') return `>= ${min}`;
  if (typeof max === 'number') return `<= ${max}`;
  return '';
}

/**
 * The schema as a person reads it: one row per field (name, type, size or range, default, allowed
 * values), the fields of a sub-table indented under their list.
 */
export function schemaRows(children: Obj, mkey: string, depth = 0, known: Record<string, FieldSchema> = {}): Row[] {
  const indent = '  '.repeat(depth);
  const rows: Row[] = [];
  for (const [name, value] of Object.entries(children)) {
    const field = isObject(value) ? value : {};
    const key = name === mkey ? ' (key)' : '';
    if (field.category === 'table' && isObject(field.children)) {
      rows.push({
        field: `${indent}${name}`,
        type: `list${key}${field.mkey ? `, key ${String(field.mkey)}` : ''}`,
        'size/range': '',
        values: '',
        default: '',
      });
      rows.push(...schemaRows(field.children, String(field.mkey ?? ''), depth + 1, known[name]?.items ?? {}));
      continue;
    }
    const options = Array.isArray(field.options)
      ? field.options.map((o) => (isObject(o) ? String(o.name) : String(o)))
      : [];
    // Several values at once: the device's mark, else the catalogue's.
    const several =
      field.multiple_values === true || field.multiple === true || known[name]?.multiple ? ' (several)' : '';
    rows.push({
      field: `${indent}${name}`,
      type: `${String(field.type ?? field.category ?? '')}${key}${several}`,
      'size/range': limits(field),
      values: options.join(' '),
      default:
        field.default === undefined || field.default === null
          ? ''
          : typeof field.default === 'object'
            ? JSON.stringify(field.default)
            : String(field.default),
    });
  }
  return rows;
}
