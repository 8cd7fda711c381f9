import { allTables, areaOf } from '../catalogue/index.js';
import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import type { Row } from '../output/index.js';

export interface TablesOptions {
  group?: string;
  area?: string;
  fields?: string;
}

const COLUMNS = ['path', 'kind', 'key', 'keyType', 'operations', 'group'];

/** `cmdb tables`: the catalogue, sends nothing. */
export async function run(ctx: Context, _args: object, opts: TablesOptions): Promise<number> {
  const tables = allTables();
  if (opts.group && !tables.some((t) => t.group === opts.group)) {
    throw new UsageError(`unknown access group '${opts.group}'`, `groups: ${[...new Set(tables.map((t) => t.group))].join(', ')}`);
  }
  if (opts.area && !tables.some((t) => areaOf(t.path) === opts.area)) {
    throw new UsageError(`unknown area '${opts.area}'`, `areas: ${[...new Set(tables.map((t) => areaOf(t.path)))].join(', ')}`);
  }
  const rows: Row[] = tables
    .filter((t) => (!opts.group || t.group === opts.group) && (!opts.area || areaOf(t.path) === opts.area))
    .map((t) => ({
      path: t.path,
      kind: t.singleton ? 'singleton' : 'keyed',
      key: t.key,
      keyType: t.keyType,
      operations: t.operations,
      group: t.group,
    }));
  const fields = opts.fields?.split(',').map((f) => f.trim()).filter(Boolean);
  const unknown = fields?.find((f) => !COLUMNS.includes(f));
  if (unknown !== undefined) throw new UsageError(`'${unknown}' is not a column of cmdb tables`, `columns: ${COLUMNS.join(', ')}`);
  await ctx.print({ kind: 'list', rows: fields ? rows.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]]))) : rows }, { keyField: 'path', ...(fields ? { fields } : {}) });
  return 0;
}
