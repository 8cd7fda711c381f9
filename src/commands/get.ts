// `cmdb get`: objects by key, or a singleton table.
import type { ApiResult } from '../api/client.js';
import { UsageError } from '../errors.js';
import type { Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import type { Row } from '../output/index.js';
import { forEachConcurrent } from '../request/bulk.js';
import { readQuery, type ReadOptions } from '../request/query.js';
import { keysHint, parseMkey, requireKeyed, requireOperation, vdomQuery } from '../request/table.js';
import { mostSevere } from '../severity.js';
import {
  lineTable,
  printRead,
  readFacts,
  readView,
  request,
  shapeRead,
  type ShownOptions,
  vdomsFor,
} from './common/request.js';

/**
 * `cmdb get <table> [key...]`: E2 on the item path, or E1 on a singleton. Several keys: one read
 * each, the objects found printed as a list, an error per key that failed, the most severe exit.
 */
export type GetOptions = Pick<ReadOptions, 'datasource' | 'withMeta' | 'skip' | 'fields'> &
  Pick<ShownOptions, 'wide' | 'columns'>;

export async function run(
  ctx: Context,
  { table: tableInput, keys }: { table: string; keys: string[] },
  opts: GetOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  const query = {
    ...vdomQuery(vdomsFor(ctx, table)),
    ...readQuery(table, { datasource: opts.datasource, withMeta: opts.withMeta, skip: opts.skip, fields: opts.fields }),
  };
  const view = readView(table, query, opts);
  if (!keys.length) {
    if (!table.singleton)
      throw new UsageError(
        `${table.path} is a keyed table: give the ${table.key} of the object`,
        keysHint(table.path, vdomsFor(ctx, table)),
      );
    requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'G', 'L');
    const result = await request(ctx, table, { method: 'GET', query, eachVdom: true });
    return printRead(ctx, table, result, true, view);
  }
  requireKeyed(table, 'get');
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'R');
  const mkeys = keys.map((k) => parseMkey(table, k, { vdoms: vdomsFor(ctx, table) }));
  if (mkeys.length === 1) {
    const result = await request(ctx, table, { method: 'GET', mkey: mkeys[0], query, eachVdom: true });
    return printRead(ctx, table, result, true, view);
  }
  const outcomes: { result?: ApiResult; error?: unknown }[] = [];
  const read = async (mkey: string | number) => {
    try {
      return { result: await request(ctx, table, { method: 'GET', mkey, query }) };
    } catch (error) {
      return { error };
    }
  };
  await forEachConcurrent(mkeys, 4, read, async (outcome) => void outcomes.push(outcome));
  const rows: Row[] = [];
  const vdoms: Record<string, Row[]> = {};
  let byVdom = false;
  for (const { result } of outcomes) {
    if (!result) continue;
    const shaped = shapeRead(result, true);
    if (shaped.kind === 'byVdom') {
      byVdom = true;
      for (const [vdom, object] of Object.entries(shaped.vdoms)) (vdoms[vdom] ??= []).push(object as Row);
    } else if (shaped.kind === 'object') rows.push(shaped.object);
  }
  const refusals = outcomes.flatMap((o) => (o.result ? [] : [{ vdom: null, report: describeError(o.error) }]));
  await ctx.out.print(
    {
      kind: 'read',
      data: byVdom ? { kind: 'byVdom', vdoms } : { kind: 'list', rows },
      body: outcomes.flatMap((o) => (o.result ? [o.result.body] : [])),
      ...readFacts(ctx, table),
      byKey: true,
      refusals,
    },
    view,
  );
  return mostSevere(refusals.map((r) => r.report.exit));
}
