// `cmdb delete`: E5 by key, several keys a few at once, never a DELETE without a key.
import type { Context } from '../run/context.js';
import { bulkItem, forEachConcurrent, parseConcurrency } from '../request/bulk.js';
import { UsageError } from '../errors.js';
import { keysHint, parseMkey, requireKeyed, requireOperation, vdomQuery } from '../request/table.js';
import {
  bulkPrinter,
  confirmWrite,
  lineTable,
  printWrite,
  requestWrite,
  runWrites,
  vdomsFor,
  type WriteOptions,
} from './common/request.js';
import { severalVdoms } from '../outcome/index.js';

/** `cmdb delete <table> <key>...`: E5 per key, concurrently; never a DELETE without a key. */
export async function run(
  ctx: Context,
  args: { table: string; keys?: string[] },
  opts: { concurrency?: string; atomic?: boolean } & WriteOptions,
): Promise<number> {
  return runWrites(ctx, opts, () => remove(ctx, args, opts));
}

async function remove(
  ctx: Context,
  { table: tableInput, keys = [] }: { table: string; keys?: string[] },
  opts: { concurrency?: string; atomic?: boolean } & WriteOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireKeyed(table, 'delete');
  if (!keys.length)
    throw new UsageError(
      `give the ${table.key} of each object to delete`,
      `usage: cmdb delete ${table.path} <${table.key}>...; ${keysHint(table.path, vdomsFor(ctx, table))}`,
    );
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'D');
  const concurrency = parseConcurrency(opts.concurrency);
  const mkeys = keys.map((k) => parseMkey(table, k, { vdoms: vdomsFor(ctx, table) }));
  const query = vdomQuery(vdomsFor(ctx, table));
  const where = query.vdom ? ` in ${query.vdom.includes('*') ? 'every VDOM' : `vdom ${query.vdom.join(', ')}`}` : '';
  // Several keys are ordered and checked; one is shown with its users before a terminal's question.
  const asks = ctx.prompt.interactive && !opts.yes && !opts.dryRun;
  const plan =
    mkeys.length > 1 || asks
      ? await (await import('./common/deletes.js')).planDeletes(ctx, table, mkeys, query)
      : { keys: mkeys, inOrder: false, details: [] };
  await confirmWrite(
    ctx,
    opts,
    `delete ${mkeys.length === 1 ? `${table.path} ${mkeys[0]}` : `${mkeys.length} objects of ${table.path}`}${where}?`,
    [...(mkeys.length > 1 ? [plan.keys.join(', ')] : []), ...plan.details],
  );
  if (opts.atomic)
    return (await import('./common/atomic.js')).runAtomically(
      ctx,
      opts,
      table,
      plan.keys.map((key) => ({ action: 'delete', key })),
    );
  if (mkeys.length === 1) {
    const result = await requestWrite(
      ctx,
      opts,
      table,
      { method: 'DELETE', mkey: mkeys[0], query, eachVdom: true },
      { mkey: mkeys[0], gone: true },
    );
    return printWrite(ctx, opts, result, 'deleted', table, mkeys[0]);
  }
  const printer = bulkPrinter(ctx, opts, table, 'deleted');
  // Several VDOMs: one result per key and VDOM.
  const several = severalVdoms(query);
  await forEachConcurrent(
    plan.keys,
    // A delete that must wait for another (a group before the group it is a member of): one at a time.
    plan.inOrder ? 1 : concurrency,
    (mkey) =>
      bulkItem(
        mkey,
        () =>
          requestWrite(ctx, opts, table, { method: 'DELETE', mkey, query, eachVdom: several }, { mkey, gone: true }),
        several,
      ),
    (o) => printer.add(o),
  );
  return printer.end();
}
