import type { ApiResult } from '../api/client.js';
import type { QueryParams } from '../api/url.js';
import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import type { Row } from '../output/index.js';
import { parseCount, readQuery, type ReadOptions } from '../request/query.js';
import { requireOperation, resolveTable, vdomQuery } from '../request/table.js';
import { catalogueColumns, noObjects, printRead, readView, send, steadyHeap, type ReadView } from './shared.js';
import type { TableDef } from '../catalogue/index.js';

export interface ListOptions extends ReadOptions {
  all?: boolean;
  pageSize?: string;
  /** false with --no-headers. */
  headers?: boolean;
}

/** `cmdb list <table>`: E1, one request, or every page with --all. */
export async function run(ctx: Context, { table: tableInput }: { table: string }, opts: ListOptions): Promise<number> {
  const table = resolveTable(ctx, tableInput);
  if (table.singleton) requireOperation(ctx, table, 'L', 'G');
  else requireOperation(ctx, table, 'L');
  const query: QueryParams = { ...vdomQuery(ctx), ...readQuery(table, opts) };
  if (opts.pageSize !== undefined && !opts.all) throw new UsageError('--page-size goes with --all');
  if (!opts.all || table.singleton) {
    const result = await send(ctx, table, { method: 'GET', query, eachVdom: true });
    return printRead(ctx, table, result, false, { ...readView(query, opts.headers), filtered: filtered(query) });
  }
  await listAll(ctx, table, query, parseCount(opts.pageSize, '--page-size', 1) ?? 1000, readView(query, opts.headers));
  return 0;
}

/** Whether the read asked the device to filter (--filter, or --key with --pattern). */
function filtered(query: QueryParams): boolean {
  return !!query.filter?.length || query.key !== undefined;
}

/**
 * --all: pages of `--page-size` from `--start`, until a short page or `--count` objects. With several
 * VDOMs each page asks only the VDOMs that still have more. Rows go to the output as each page
 * arrives (json, ndjson and csv are written as they come; a table keeps only its cells' text): only
 * --raw, yaml and a multi-VDOM answer in a format other than ndjson keep the pages.
 */
async function listAll(ctx: Context, table: TableDef, base: QueryParams, pageSize: number, view: ReadView): Promise<void> {
  const limit = base.count;
  let start = base.start ?? 0;
  let vdoms = base.vdom;
  const byVdom = new Map<string, Row[]>();
  let multi = false;
  let total = 0;
  let written = 0;
  const raw: unknown[] = [];
  const keepRaw = !!ctx.options.raw;
  const bar = ctx.out.progress();
  await steadyHeap();
  const sink = await ctx.rowSink({ keyField: table.key, ...view });
  // What each VDOM's last page held: a device that ignores `start` sends the same page forever.
  const lastPage = new Map<string, string>();
  const pageOf = (rows: Row[]) => JSON.stringify(table.key ? rows.map((r) => r[table.key!]) : rows);
  for (;;) {
    const count = limit === undefined ? pageSize : Math.min(pageSize, limit - total);
    if (count <= 0) break;
    const result: ApiResult = await send(ctx, table, { method: 'GET', query: { ...base, vdom: vdoms, start, count } });
    if (keepRaw) raw.push(result.body);
    multi ||= result.multiVdom;
    const more: string[] = [];
    let pageRows = 0;
    for (const envelope of result.envelopes) {
      const rows = Array.isArray(envelope.results) ? (envelope.results as Row[]) : [];
      const name = envelope.vdom ?? 'root';
      const page = pageOf(rows);
      if (rows.length && lastPage.get(name) === page) {
        const { MalformedAnswerError } = await import('../api/errors.js');
        throw new MalformedAnswerError('no-progress', result.status, { method: 'GET', tablePath: table.path, vdoms: [name] });
      }
      lastPage.set(name, page);
      // With --raw only the bodies are printed.
      if (!keepRaw && multi && ctx.format === 'ndjson') await sink.write(rows.map((r) => ({ vdom: name, ...r })));
      else if (!keepRaw && multi) {
        if (!byVdom.has(name)) byVdom.set(name, []);
        for (const row of rows) byVdom.get(name)!.push(row);
      } else if (!keepRaw) {
        await sink.write(rows);
        written += rows.length;
      }
      pageRows = Math.max(pageRows, rows.length);
      if (rows.length === count) more.push(name);
    }
    total += pageRows;
    bar.update(total);
    if (!more.length) break;
    start += count;
    if (multi) vdoms = more;
  }
  bar.done();
  if (keepRaw) return ctx.print({ kind: 'raw', body: raw.length === 1 ? raw[0] : raw });
  if (multi && ctx.format !== 'ndjson') return ctx.print({ kind: 'byVdom', vdoms: Object.fromEntries(byVdom) }, { keyField: table.key, ...view });
  await sink.end();
  if (!multi && written === 0 && ctx.format === 'table') noObjects(ctx, table, filtered(base));
  // An empty csv is still its header, as without --all.
  if (!multi && written === 0 && ctx.format === 'csv' && view.headers !== false) await ctx.print({ kind: 'list', rows: [] }, { ...view, fields: view.fields ?? catalogueColumns(table) });
}
