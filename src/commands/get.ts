import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import { readQuery, type ReadOptions } from '../request/query.js';
import { keysHint, parseMkey, requireKeyed, requireOperation, resolveTable, vdomQuery } from '../request/table.js';
import { printRead, send } from './shared.js';

export type GetOptions = Pick<ReadOptions, 'datasource' | 'withMeta' | 'skip' | 'fields'>;

/** `cmdb get <table> [key]`: E2 on the item path, or E1 on a singleton. */
export async function run(ctx: Context, { table: tableInput, key }: { table: string; key?: string }, opts: GetOptions): Promise<number> {
  const table = resolveTable(ctx, tableInput);
  const query = { ...vdomQuery(ctx), ...readQuery(table, { datasource: opts.datasource, withMeta: opts.withMeta, skip: opts.skip, fields: opts.fields }) };
  if (key === undefined) {
    if (!table.singleton) throw new UsageError(`${table.path} is a keyed table: give the ${table.key} of the object`, keysHint(table.path, ctx.vdoms()));
    requireOperation(ctx, table, 'G', 'L');
    const result = await send(ctx, table, { method: 'GET', query, eachVdom: true });
    return printRead(ctx, table, result, true, { fields: query.format });
  }
  requireKeyed(table, 'get');
  requireOperation(ctx, table, 'R');
  const mkey = parseMkey(table, key);
  const result = await send(ctx, table, { method: 'GET', mkey, query, eachVdom: true });
  return printRead(ctx, table, result, true, { fields: query.format });
}
