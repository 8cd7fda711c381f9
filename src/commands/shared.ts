import type { ApiRequest, ApiResult } from '../api/client.js';
import type { TableDef } from '../catalogue/index.js';
import type { Context } from '../cli/context.js';
import { EXIT } from '../errors.js';
import { mostSevere } from '../severity.js';
import type { Row, Shaped, WriteResult } from '../output/index.js';
import { writeResult, type BulkOutcome } from '../request/bulk.js';

/** Sends one request, with the table's access group for the 403 hint. */
export async function send(ctx: Context, table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>): Promise<ApiResult> {
  const client = await ctx.client();
  return client.request({ ...req, tablePath: table.path, group: table.group });
}

function asRows(results: unknown): Row[] {
  if (Array.isArray(results)) return results as Row[];
  if (results && typeof results === 'object') return [results as Row];
  return [];
}

/** Shapes read results as CLI.md says: an array for lists, an object for one object, keyed by VDOM when several. */
export function shapeRead(result: ApiResult, single: boolean): Shaped {
  if (result.multiVdom) {
    const vdoms: Record<string, Row[] | Row> = {};
    result.envelopes.forEach((e, i) => {
      const name = e.vdom ?? `vdom${i}`;
      vdoms[name] = single || !Array.isArray(e.results) ? (Array.isArray(e.results) ? ((e.results[0] ?? {}) as Row) : ((e.results ?? {}) as Row)) : asRows(e.results);
    });
    return { kind: 'byVdom', vdoms };
  }
  const results = result.envelopes[0]?.results;
  if (single || (results && typeof results === 'object' && !Array.isArray(results))) {
    return { kind: 'object', object: Array.isArray(results) ? ((results[0] ?? {}) as Row) : ((results ?? {}) as Row) };
  }
  return { kind: 'list', rows: asRows(results) };
}

/** Prints a write's result: the result object in json/yaml, one confirming line in table. */
export async function printWrite(ctx: Context, result: ApiResult, verb: string, table: TableDef, mkey?: string | number): Promise<void> {
  if (ctx.options.raw) return ctx.print({ kind: 'raw', body: result.body });
  const results = result.envelopes.map((e) => writeResult(e, mkey));
  const line = (r: WriteResult) => `${verb} ${table.path}${r.mkey !== null && r.mkey !== undefined && r.mkey !== '' ? ` ${r.mkey}` : ''}${r.vdom ? ` in vdom ${r.vdom}` : ''}`;
  if (results.length === 1) return ctx.print({ kind: 'write', result: results[0], message: line(results[0]) });
  if (ctx.format === 'table') return ctx.print({ kind: 'list', rows: results.map((r) => ({ ...r, message: line(r) })) as unknown as Row[] }, { keyField: 'vdom', fields: ['vdom', 'message'] });
  return ctx.print({ kind: 'list', rows: results as unknown as Row[] });
}

/** Prints a read, honouring --raw; says so on stderr when a list is empty. */
export async function printRead(ctx: Context, table: TableDef, result: ApiResult, single: boolean, fields?: string[]): Promise<void> {
  if (ctx.options.raw) return ctx.print({ kind: 'raw', body: result.body });
  const shaped = shapeRead(result, single);
  if (shaped.kind === 'list' && shaped.rows.length === 0 && ctx.format === 'table') return noObjects(ctx, table);
  await ctx.print(shaped, { keyField: table.key, fields });
}

/** An empty list in a table prints nothing on stdout and says so on stderr. */
export function noObjects(ctx: Context, table: TableDef): void {
  const vdoms = ctx.vdoms();
  ctx.notice(`no objects in ${table.path}${vdoms ? ` (vdom ${vdoms.join(',')})` : ''}`);
}

/** Prints every item's outcome, then returns the most severe exit code (CLI.md: bulk commands). */
export async function printBulk(ctx: Context, table: TableDef, verb: string, outcomes: BulkOutcome[]): Promise<number> {
  const items = outcomes.map((o) => {
    if (o.error === undefined) return { o, exit: EXIT.OK as number, row: { ...o.result } as Row, report: null };
    const report = ctx.describe(o.error);
    const error = { exit: report.exit, status: report.status, code: report.code, message: report.message, hint: report.hint, cli_error: report.cliError };
    return { o, exit: report.exit, row: { status: 'error', mkey: o.mkey, error } as Row, report };
  });
  if (ctx.format === 'table') {
    for (const { o, report } of items) {
      if (!report) await ctx.print({ kind: 'write', result: o.result!, message: `${verb} ${table.path} ${o.mkey ?? ''}`.trimEnd() });
    }
    for (const { report } of items) if (report) ctx.printError(report);
  } else {
    await ctx.print({ kind: 'list', rows: items.map((i) => i.row) });
  }
  const failed = items.filter((i) => i.report).length;
  if (failed) ctx.notice(`${failed} of ${outcomes.length} failed`);
  return mostSevere(items.map((i) => i.exit));
}
