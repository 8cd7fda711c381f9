import { ApiError } from '../api/errors.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import { keysHint, parseMkey, requireKeyed, requireOperation, resolveTable, vdomQuery } from '../request/table.js';
import { printWrite, send } from './shared.js';

export interface MoveOptions {
  before?: string;
  after?: string;
}

/** `cmdb move <table> <key> --before <k> | --after <k>`: E4 with action=move. */
export async function run(ctx: Context, { table: tableInput, key }: { table: string; key: string }, opts: MoveOptions): Promise<number> {
  const table = resolveTable(ctx, tableInput);
  requireKeyed(table, 'move');
  if ((opts.before === undefined) === (opts.after === undefined)) {
    throw new UsageError('move needs exactly one of --before <key> or --after <key>');
  }
  requireOperation(ctx, table, 'U');
  const mkey = parseMkey(table, key);
  const where = opts.before !== undefined ? 'before' : 'after';
  const other = parseMkey(table, (opts.before ?? opts.after)!, `--${where} key`);
  const query = vdomQuery(ctx);
  const result = await send(ctx, table, { method: 'PUT', mkey, eachVdom: true, query: { ...query, action: 'move', [where]: String(other) } }).catch(async (err: unknown) => {
    if (!(err instanceof ApiError && err.notFound)) throw err;
    // The device says "not found" for either object: when the moved one is there, the target is not.
    const moved = await send(ctx, table, { method: 'GET', mkey, query: { ...query, format: [table.key!] } }).then(() => true, () => false);
    if (!moved) throw err;
    throw new CmdbError(`cannot move ${table.path} ${JSON.stringify(String(mkey))}: the --${where} object ${JSON.stringify(String(other))} not found${err.subject.vdoms ? ` in vdom ${err.subject.vdoms.join(',')}` : ''}`, EXIT.NOT_FOUND, keysHint(table.path, err.subject.vdoms), { cause: err });
  });
  return printWrite(ctx, result, `moved ${where} ${other}:`, table, mkey);
}
