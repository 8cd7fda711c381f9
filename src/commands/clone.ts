// `cmdb clone`: a copy of an object under a new key, made by the device.
import { ApiError } from '../api/errors.js';
import type { Context } from '../run/context.js';
import { parseMkey, requireKeyed, requireOperation, vdomQuery } from '../request/table.js';
import { lineTable, printWrite, requestWrite, runWrites, vdomsFor, type WriteOptions } from './common/request.js';

/** `cmdb clone <table> <key> <new-key>`: E3 with action=clone on the item path of <key>. */
export async function run(
  ctx: Context,
  args: { table: string; key: string; newKey: string },
  opts: WriteOptions,
): Promise<number> {
  return runWrites(ctx, opts, () => clone(ctx, args, opts));
}

async function clone(
  ctx: Context,
  { table: tableInput, key, newKey }: { table: string; key: string; newKey: string },
  opts: WriteOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireKeyed(table, 'clone');
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'C');
  const mkey = parseMkey(table, key, { vdoms: vdomsFor(ctx, table) });
  const nkey = parseMkey(table, newKey, null, 'new key');
  const result = await requestWrite(
    ctx,
    opts,
    table,
    {
      method: 'POST',
      mkey,
      eachVdom: true,
      query: { ...vdomQuery(vdomsFor(ctx, table)), action: 'clone', nkey: String(nkey) },
    },
    { mkey: nkey, cloneOf: mkey },
  ).catch((err: unknown) => {
    // The device names the object in the path (the original); what already exists is the new key.
    throw err instanceof ApiError && err.duplicate ? err.about({ mkey: nkey }) : err;
  });
  return printWrite(ctx, opts, result, `cloned ${key} to`, table, nkey);
}
