// `cmdb update`: E4 on an object or a singleton; --set 'f+=a' and 'f-=a' read the object first.
import { ApiError } from '../api/errors.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import type { Context } from '../run/context.js';
import { checkBody, readBodies, withInlineBody, type BodyOptions } from '../request/body.js';
import { applyMemberChanges, splitMemberChanges } from '../request/members.js';
import { parseMkey, requireOperation, vdomQuery } from '../request/table.js';
import { readForChange, requireUnchanged } from './common/readback.js';
import { lineTable, printWrite, requestWrite, runWrites, vdomsFor, type WriteOptions } from './common/request.js';
import { expectFields } from '../outcome/index.js';

/**
 * `cmdb update <table> [key] [body]`: E4 on the item path, or on the table path of a singleton.
 * `--set 'f+=a,b'` / `--set 'f-=a'` read the object first and send the whole new list.
 */
export async function run(
  ctx: Context,
  args: { table: string; args: string[] },
  opts: BodyOptions & WriteOptions,
): Promise<number> {
  return runWrites(ctx, opts, () => update(ctx, args, opts));
}

async function update(
  ctx: Context,
  { table: tableInput, args }: { table: string; args: string[] },
  opts: BodyOptions & WriteOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  let key: string | undefined;
  let inline: string | undefined;
  if (table.singleton) {
    if (args.length > 1)
      throw new UsageError(
        `${table.path} is a singleton table: it takes no key`,
        `use 'cmdb update ${table.path} --set field=value'`,
      );
    inline = args[0];
    requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'P');
  } else {
    if (!args.length)
      throw new UsageError(`${table.path} is a keyed table: give the ${table.key} of the object to update`);
    if (args.length > 2)
      throw new UsageError('too many arguments', `usage: cmdb update ${table.path} <${table.key}> [body]`);
    [key, inline] = args;
    requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'U');
  }
  const mkey = key === undefined ? undefined : parseMkey(table, key, { vdoms: vdomsFor(ctx, table) });
  const { sets, changes } = splitMemberChanges(table, opts.set ?? []);
  const query = vdomQuery(vdomsFor(ctx, table));
  if (!changes.length) {
    const { bodies } = await readBodies(ctx.io.stdin, table, withInlineBody(opts, inline), false);
    const body = bodies[0];
    const newKey = table.key && mkey !== undefined && body && table.key in body ? body[table.key] : undefined;
    const result = await requestWrite(
      ctx,
      opts,
      table,
      { method: 'PUT', mkey, query, body, eachVdom: true },
      expectFields(table, mkey, body),
    ).catch((err: unknown) => {
      if (!(err instanceof ApiError && err.duplicate) || newKey === undefined || String(newKey) === String(mkey))
        throw err;
      throw new CmdbError(
        `cannot rename ${table.path} ${JSON.stringify(String(mkey))} to ${JSON.stringify(String(newKey))}: ` +
          `${JSON.stringify(String(newKey))} already exists`,
        EXIT.REJECTED,
        `choose another ${table.key}, or leave ${table.key} out of the body to keep the name`,
        { cause: err },
      );
    });
    return printWrite(ctx, opts, result, 'updated', table, mkey);
  }
  if (query.vdom && (query.vdom.length > 1 || query.vdom.includes('*'))) {
    throw new UsageError("--set 'field+=...' and 'field-=...' work in one VDOM at a time", 'give one VDOM with --vdom');
  }
  const rest = withInlineBody({ ...opts, set: sets }, inline);
  const others =
    rest.file !== undefined || rest.data !== undefined || sets.length
      ? (await readBodies(ctx.io.stdin, table, rest, false)).bodies[0]
      : {};
  const read = await readForChange(ctx, table, mkey, query);
  const body = { ...others, ...applyMemberChanges(table, read.object, changes) };
  const what = `${table.path}${mkey === undefined ? '' : ` ${mkey}`}`;
  if (!Object.keys(body).length) {
    ctx.out.notice(
      `nothing to change: ${what} already has ` +
        `${changes.map((c) => `${c.field} ${c.op === '+' ? 'with' : 'without'} ${c.values.join(', ')}`).join('; ')}`,
    );
    return 0;
  }
  checkBody(table, body);
  await requireUnchanged(ctx, table, mkey, query, read, false);
  const result = await requestWrite(
    ctx,
    opts,
    table,
    { method: 'PUT', mkey, query, body },
    expectFields(table, mkey, body),
  );
  return printWrite(ctx, opts, result, 'updated', table, mkey);
}
