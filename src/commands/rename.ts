// `cmdb rename`: an object under a new key, by a PUT of the new key; the device makes the objects that
// name it follow (PROTOCOL.md "References and integrity").
import { ApiError } from '../api/errors.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import { expectFields } from '../outcome/index.js';
import type { Context } from '../run/context.js';
import { parseMkey, requireKeyed, requireOperation, shellWord, vdomQuery } from '../request/table.js';
import { lineTable, printWrite, requestWrite, runWrites, vdomsFor, type WriteOptions } from './common/request.js';

/** `cmdb rename <table> <key> <new-key>`: E4 on the item path with the new key in the body. */
export async function run(
  ctx: Context,
  args: { table: string; key: string; newKey: string },
  opts: WriteOptions,
): Promise<number> {
  return runWrites(ctx, opts, () => rename(ctx, args, opts));
}

async function rename(
  ctx: Context,
  { table: tableInput, key, newKey }: { table: string; key: string; newKey: string },
  opts: WriteOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireKeyed(table, 'rename');
  if (table.keyType === 'integer' || !table.key)
    throw new UsageError(
      `${table.path} is keyed by ${table.key ? `an integer (${table.key})` : 'position'}: ` +
        'its objects have no name to change',
      table.key ? `give it another number with 'cmdb clone ${table.path} <${table.key}> <new-${table.key}>'` : null,
    );
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'U');
  const vdoms = vdomsFor(ctx, table);
  const mkey = parseMkey(table, key, { vdoms });
  const nkey = parseMkey(table, newKey, null, 'new key');
  if (String(nkey) === String(mkey)) throw new UsageError(`the new key is the key: ${table.path} ${mkey} keeps it`);
  const body = { [table.key]: nkey };
  const result = await requestWrite(
    ctx,
    opts,
    table,
    { method: 'PUT', mkey, query: vdomQuery(vdoms), body, eachVdom: true },
    expectFields(table, mkey, body),
  ).catch((err: unknown) => {
    if (!(err instanceof ApiError && err.duplicate)) throw err;
    throw new CmdbError(
      `cannot rename ${table.path} ${JSON.stringify(String(mkey))} to ${JSON.stringify(String(nkey))}: ` +
        `${JSON.stringify(String(nkey))} already exists`,
      EXIT.REJECTED,
      `choose another ${table.key}; 'cmdb get ${table.path} ${shellWord(nkey)}' shows the one there`,
      { cause: err },
    );
  });
  return printWrite(ctx, opts, result, `renamed ${key} to`, table, nkey);
}
