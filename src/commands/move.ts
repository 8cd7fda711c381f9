// `cmdb move`: an object placed before or after another, or at the top or bottom of its table.
import { ApiError } from '../api/errors.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import type { Context } from '../run/context.js';
import { keysHint, parseMkey, requireKeyed, requireOperation, vdomQuery } from '../request/table.js';
import {
  lineTable,
  printWrite,
  request,
  requestWrite,
  runWrites,
  vdomsFor,
  type WriteOptions,
} from './common/request.js';

export interface MoveOptions extends WriteOptions {
  before?: string;
  after?: string;
  top?: boolean;
  bottom?: boolean;
}

/**
 * `cmdb move <table> <key> --before <k> | --after <k> | --top | --bottom`: E4 with action=move.
 * --top and --bottom read the table's keys first and move in front of the first or behind the last.
 */
export async function run(ctx: Context, args: { table: string; key: string }, opts: MoveOptions): Promise<number> {
  return runWrites(ctx, opts, () => move(ctx, args, opts));
}

async function move(
  ctx: Context,
  { table: tableInput, key }: { table: string; key: string },
  opts: MoveOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireKeyed(table, 'move');
  const given = [opts.before !== undefined, opts.after !== undefined, !!opts.top, !!opts.bottom].filter(Boolean).length;
  if (given !== 1) throw new UsageError('move needs exactly one of --before <key>, --after <key>, --top or --bottom');
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'U');
  const mkey = parseMkey(table, key, { vdoms: vdomsFor(ctx, table) });
  const query = vdomQuery(vdomsFor(ctx, table));
  let where: 'before' | 'after' = opts.before !== undefined || opts.top ? 'before' : 'after';
  let other: string | number;
  if (opts.top || opts.bottom) {
    if (query.vdom && (query.vdom.length > 1 || query.vdom.includes('*')))
      throw new UsageError(`--${opts.top ? 'top' : 'bottom'} works in one VDOM at a time`, 'give one VDOM with --vdom');
    const listed = await request(ctx, table, { method: 'GET', query: { ...query, format: [table.key!] } });
    const rows = listed.envelopes[0]?.results;
    const keys = (Array.isArray(rows) ? rows : []).map(
      (r) => (r as Record<string, unknown>)[table.key!] as string | number,
    );
    if (!keys.some((k) => String(k) === String(mkey)))
      throw new CmdbError(
        `${table.path} has no object ${mkey}${query.vdom ? ` in vdom ${query.vdom[0]}` : ''}`,
        EXIT.NOT_FOUND,
        keysHint(table.path, vdomsFor(ctx, table)),
      );
    const end = opts.top ? keys[0] : keys[keys.length - 1];
    if (String(end) === String(mkey)) {
      ctx.out.notice(`${table.path} ${mkey} is already at the ${opts.top ? 'top' : 'bottom'}: nothing sent`);
      return 0;
    }
    other = end;
    where = opts.top ? 'before' : 'after';
  } else {
    other = parseMkey(table, (opts.before ?? opts.after)!, { vdoms: vdomsFor(ctx, table) }, `--${where} key`);
    if (String(other) === String(mkey))
      throw new UsageError(
        `cannot move ${table.path} ${JSON.stringify(String(mkey))} ${where} itself`,
        `give another object's ${table.key} with --${where}`,
      );
  }
  const result = await requestWrite(
    ctx,
    opts,
    table,
    { method: 'PUT', mkey, eachVdom: true, query: { ...query, action: 'move', [where]: String(other) } },
    { mkey, moved: where, other },
  ).catch(async (err: unknown) => {
    if (!(err instanceof ApiError && err.notFound)) throw err;
    // The device says "not found" for either object: when the moved one is there, the target is not.
    const moved = await request(ctx, table, { method: 'GET', mkey, query: { ...query, format: [table.key!] } }).then(
      () => true,
      () => false,
    );
    if (!moved) throw err;
    throw new CmdbError(
      `cannot move ${table.path} ${JSON.stringify(String(mkey))}: ` +
        `the --${where} object ${JSON.stringify(String(other))} ` +
        `not found${err.subject.vdoms ? ` in vdom ${err.subject.vdoms.join(',')}` : ''}`,
      EXIT.NOT_FOUND,
      keysHint(table.path, err.subject.vdoms),
      { cause: err },
    );
  });
  return printWrite(ctx, opts, result, `moved ${where} ${other}:`, table, mkey);
}
