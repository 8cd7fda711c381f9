import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import { parseMkey, requireKeyed, requireOperation, resolveTable, vdomQuery } from '../request/table.js';
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
  const result = await send(ctx, table, { method: 'PUT', mkey, query: { ...vdomQuery(ctx), action: 'move', [where]: String(other) } });
  await printWrite(ctx, result, `moved ${where} ${other}:`, table, mkey);
  return 0;
}
