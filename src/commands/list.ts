import type { ApiResult } from '../api/client.js';
import type { QueryParams } from '../api/url.js';
import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import type { Row } from '../output/index.js';
import { parseCount, readQuery, type ReadOptions } from '../request/query.js';
import { requireOperation, resolveTable, vdomQuery } from '../request/table.js';
import { printRead, send } from './shared.js';
import type { TableDef } from '../catalogue/index.js';

export interface ListOptions extends ReadOptions {
  all?: boolean;
  pageSize?: string;
}

/** `cmdb list <table>`: E1, one request, or every page with --all. */
export async function run(ctx: Context, tableInput: string, opts: ListOptions): Promise<number> {
  const table = resolveTable(ctx, tableInput);
  if (table.singleton) requireOperation(ctx, table, 'L', 'G');
  else requireOperation(ctx, table, 'L');
  const query: QueryParams = { ...vdomQuery(ctx), ...readQuery(table, opts) };
  if (opts.pageSize !== undefined && !opts.all) throw new UsageError('--page-size goes with --all');
  if (!opts.all || table.singleton) {
    const result = await send(ctx, table, { method: 'GET', query });
    await printRead(ctx, table, result, false, query.format);
    return 0;
  }
  await listAll(ctx, table, query, parseCount(opts.pageSize, '--page-size', 1) ?? 1000);
  return 0;
}

interface Progress {
  update(count: number): void;
  done(): void;
}

function progress(ctx: Context): Progress {
  if (!ctx.io.stderr.isTTY) return { update() {}, done() {} };
  return {
    update: (n) => ctx.io.stderr.write(`\r\x1b[Kfetched ${n} objects…`),
    done: () => ctx.io.stderr.write('\r\x1b[K'),
  };
}

/**
 * --all: pages of `--page-size` from `--start`, until a short page or `--count` objects. With several
 * VDOMs each page asks only the VDOMs that still have more; ndjson is written page by page.
 */
async function listAll(ctx: Context, table: TableDef, base: QueryParams, pageSize: number): Promise<void> {
  const limit = base.count;
  let start = base.start ?? 0;
  let vdoms = base.vdom;
  const byVdom = new Map<string, Row[]>();
  let multi = false;
  let total = 0;
  const raw: unknown[] = [];
  const bar = progress(ctx);
  const { createRowSink } = await import('../output/index.js');
  const streaming = ctx.format === 'ndjson' && !ctx.options.raw;
  const sink = createRowSink(ctx.io.stdout, { format: ctx.format, terminal: ctx.terminal(), keyField: table.key, fields: base.format });
  for (;;) {
    const count = limit === undefined ? pageSize : Math.min(pageSize, limit - total);
    if (count <= 0) break;
    const result: ApiResult = await send(ctx, table, { method: 'GET', query: { ...base, vdom: vdoms, start, count } });
    raw.push(result.body);
    multi ||= result.multiVdom;
    const more: string[] = [];
    let pageRows = 0;
    for (const envelope of result.envelopes) {
      const rows = Array.isArray(envelope.results) ? (envelope.results as Row[]) : [];
      const name = envelope.vdom ?? 'root';
      if (!byVdom.has(name)) byVdom.set(name, []);
      if (streaming) await sink.write(multi ? rows.map((r) => ({ vdom: name, ...r })) : rows);
      else byVdom.get(name)!.push(...rows);
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
  if (ctx.options.raw) return ctx.print({ kind: 'raw', body: raw.length === 1 ? raw[0] : raw });
  if (streaming) return sink.end();
  if (multi) return ctx.print({ kind: 'byVdom', vdoms: Object.fromEntries(byVdom) }, { keyField: table.key, fields: base.format });
  const rows = [...byVdom.values()].flat();
  return printRead(ctx, table, { status: 200, body: null, multiVdom: false, envelopes: [{ results: rows }] }, false, base.format);
}
