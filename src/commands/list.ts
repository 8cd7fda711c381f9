// `cmdb list`: a table's objects, one request or every page (--all).
import type { ApiResult } from '../api/client.js';
import type { QueryParams } from '../api/url.js';
import { UsageError } from '../errors.js';
import type { Context } from '../run/context.js';
import type { Row } from '../output/index.js';
import { parseCount, readQuery, type ReadOptions } from '../request/query.js';
import { requireOperation, vdomQuery } from '../request/table.js';
import {
  lineTable,
  printRead,
  readFacts,
  readView,
  request,
  steadyHeap,
  type ReadView,
  type ShownOptions,
  vdomsFor,
} from './common/request.js';
import type { TableDef } from '../catalogue/index.js';

export interface ListOptions extends ReadOptions, ShownOptions {
  all?: boolean;
  pageSize?: string;
}

/** `cmdb list <table>`: E1, one request, or every page with --all. */
export async function run(ctx: Context, { table: tableInput }: { table: string }, opts: ListOptions): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  if (table.singleton) requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'L', 'G');
  else requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'L');
  const query: QueryParams = { ...vdomQuery(vdomsFor(ctx, table)), ...readQuery(table, opts) };
  if (opts.pageSize !== undefined && !opts.all) throw new UsageError('--page-size goes with --all');
  const view = readView(table, query, opts);
  if (!opts.all || table.singleton) {
    const result = await request(ctx, table, { method: 'GET', query, eachVdom: true });
    return printRead(ctx, table, result, false, view, { filtered: filtered(query) });
  }
  await listAll(ctx, table, query, parseCount(opts.pageSize, '--page-size', 1) ?? 1000, view);
  return 0;
}

/** Whether the read asked the device to filter (--filter, or --key with --pattern). */
function filtered(query: QueryParams): boolean {
  return !!query.filter?.length || query.key !== undefined;
}

/**
 * --all: pages of `--page-size` from `--start`, until a short page or `--count` objects. With several
 * VDOMs each page asks only the VDOMs that still have more. Each page goes to the output as it arrives,
 * the next one already asked for: the device prepares it while this one is formatted.
 */
async function listAll(
  ctx: Context,
  table: TableDef,
  base: QueryParams,
  pageSize: number,
  view: ReadView,
): Promise<void> {
  const limit = base.count;
  let start = base.start ?? 0;
  let vdoms = base.vdom;
  let multi = false;
  let total = 0;
  const bar = ctx.out.progress();
  await steadyHeap();
  const out = await ctx.out.pages(readFacts(ctx, table, filtered(base)), view);
  // What each VDOM's last page held: a device that ignores `start` sends the same page forever.
  const lastPage = new Map<string, string>();
  const pageOf = (rows: Row[]) => JSON.stringify(table.key ? rows.map((r) => r[table.key!]) : rows);
  const countAt = () => (limit === undefined ? pageSize : Math.min(pageSize, limit - total));
  const ask = (count: number): Promise<ApiResult> => {
    const asked = request(ctx, table, { method: 'GET', query: { ...base, vdom: vdoms, start, count } });
    // Handled where it is awaited; a run that fails before then leaves it unawaited, not unhandled.
    asked.catch(() => undefined);
    return asked;
  };
  let count = countAt();
  let next = count > 0 ? ask(count) : undefined;
  while (next) {
    const result = await next;
    multi ||= result.multiVdom;
    const pages: [string, Row[]][] = [];
    const more: string[] = [];
    let pageRows = 0;
    for (const envelope of result.envelopes) {
      const rows = Array.isArray(envelope.results) ? (envelope.results as Row[]) : [];
      const name = envelope.vdom ?? 'root';
      const page = pageOf(rows);
      if (rows.length && lastPage.get(name) === page) {
        const { MalformedAnswerError } = await import('../api/errors.js');
        throw new MalformedAnswerError('no-progress', result.status, {
          method: 'GET',
          tablePath: table.path,
          vdoms: [name],
        });
      }
      lastPage.set(name, page);
      pages.push([name, rows]);
      pageRows = Math.max(pageRows, rows.length);
      if (rows.length === count) more.push(name);
    }
    total += pageRows;
    next = undefined;
    if (more.length) {
      start += count;
      if (multi) vdoms = more;
      count = countAt();
      if (count > 0) next = ask(count);
    }
    out.page(result.body, multi);
    for (const [name, rows] of pages) await out.rows(name, rows);
    bar.update(total);
  }
  bar.done();
  await out.end();
}
