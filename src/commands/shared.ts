import type { ApiRequest, ApiResult } from '../api/client.js';
import type { QueryParams } from '../api/url.js';
import type { TableDef } from '../catalogue/index.js';
import { redactSecrets } from '../catalogue/secrets.js';
import type { Context } from '../cli/context.js';
import { EXIT, WriteOutcomeError } from '../errors.js';
import { mostSevere } from '../severity.js';
import type { ErrorReport, RenderOptions, Row, RowSink, Shaped, WriteResult } from '../output/index.js';
import { writeResult, type BulkOutcome } from '../request/bulk.js';

/** The options every write command takes; the Context acts on them (records writes, or asks nothing). */
export interface WriteOptions {
  dryRun?: boolean;
  yes?: boolean;
}

/** `delete firewall.ipmacbinding/table 3`, `move ... 3 (before 2)`: a write in words, for its question. */
function writeInWords(table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>): string {
  const verb = req.query?.action ?? { POST: 'create', PUT: 'update', DELETE: 'delete', GET: 'read' }[req.method];
  return `${verb} ${table.path}${req.mkey === undefined ? '' : ` ${req.mkey}`}`;
}

/** On a terminal, a write to several VDOMs (`--vdom a,b`, `*`) is confirmed first, once per run. */
export async function confirmSeveralVdoms(ctx: Context, what: string, query: QueryParams | undefined, details: string[] = []): Promise<void> {
  const vdoms = query?.vdom;
  if (vdoms && (vdoms.length > 1 || vdoms.includes('*'))) await ctx.confirmChange(`${what} in ${vdoms.includes('*') ? 'every VDOM' : `vdoms ${vdoms.join(', ')}`}?`, details);
}

/**
 * Sends one request, with the table's access group for the 403 hint. A write to several VDOMs is
 * confirmed first on a terminal (once per run).
 */
export async function send(ctx: Context, table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>): Promise<ApiResult> {
  if (req.method !== 'GET') {
    const body = req.body && typeof req.body === 'object' ? [JSON.stringify(redactSecrets(table.fields, req.body as Row))] : [];
    await confirmSeveralVdoms(ctx, writeInWords(table, req), req.query, body);
  }
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

/** What the table line adds when the answer was lost and the object read back, or was already there. */
function outcomeNote(r: WriteResult): string {
  if (r.outcome === 'applied') return ' (the answer was lost; reading it back shows it applied)';
  if (r.outcome === 'unchanged') return ' (already there with the same content: unchanged)';
  return '';
}

/** The VDOMs that refused a request to several, each as the user sees its error. */
function refusals(ctx: Context, result: ApiResult): { vdom: string | null; report: ReturnType<Context['describe']> }[] {
  return (result.failed ?? []).map((err) => ({ vdom: err.subject.vdoms?.[0] ?? null, report: ctx.describe(err) }));
}

/**
 * Prints a write's result: the result object in json/yaml, one confirming line in table. Several
 * VDOMs: one result each, keyed by VDOM in json/yaml (`{"root":{...},"dmz":{"status":"error",...}}`),
 * one row each in ndjson/csv, a line or an error each in table; the exit code is the most severe.
 */
export async function printWrite(ctx: Context, result: ApiResult, verb: string, table: TableDef, mkey?: string | number): Promise<number> {
  // A dry run prints the requests it kept instead (cli/main.ts).
  if (ctx.dryRun) return 0;
  const failures = refusals(ctx, result);
  const exit = mostSevere(failures.map((f) => f.report.exit));
  if (ctx.options.raw) {
    await ctx.print({ kind: 'raw', body: result.body });
    return exit;
  }
  const results = result.envelopes.map((e) => writeResult(e, mkey));
  const line = (r: WriteResult) => `${verb} ${table.path}${r.mkey !== null && r.mkey !== undefined && r.mkey !== '' ? ` ${r.mkey}` : ''}${r.vdom ? ` in vdom ${r.vdom}` : ''}${outcomeNote(r)}`;
  if (!result.multiVdom && results.length === 1) {
    await ctx.print({ kind: 'write', result: results[0], message: line(results[0]) });
    return exit;
  }
  if (ctx.format === 'table') {
    for (const r of results) await ctx.print({ kind: 'write', result: r, message: line(r) });
    for (const f of failures) ctx.printError(f.report);
    return exit;
  }
  const rows: Row[] = [
    ...results.map((r) => ({ status: r.status, mkey: r.mkey ?? null, revision: r.revision ?? null, vdom: r.vdom ?? null, ...(r.outcome ? { outcome: r.outcome } : {}) })),
    ...failures.map((f) => ({ status: 'error', mkey: mkey ?? null, vdom: f.vdom, error: { exit: f.report.exit, status: f.report.status, code: f.report.code, message: f.report.message, hint: f.report.hint, cli_error: f.report.cliError } })),
  ];
  // In the device's order of VDOMs.
  const order = (Array.isArray(result.body) ? result.body : []).map((e) => (e as { vdom?: string }).vdom);
  rows.sort((a, b) => order.indexOf(a.vdom as string) - order.indexOf(b.vdom as string));
  if (ctx.format === 'json' || ctx.format === 'yaml') await ctx.print({ kind: 'object', object: Object.fromEntries(rows.map((r, i) => [String(r.vdom ?? `vdom${i}`), r])) });
  else await ctx.print({ kind: 'list', rows });
  return exit;
}

/** How a read is shown: the --fields columns, the header line of table and csv, `q_ref`; whether it was filtered. */
export type ReadView = Pick<RenderOptions, 'fields' | 'headers' | 'showMeta'> & { filtered?: boolean };

/** The view of a read's query: exactly --fields, and `q_ref` (how many objects use each) with --with-meta. */
export function readView(query: QueryParams, headers?: boolean): ReadView {
  return { fields: query.format, headers, showMeta: query.with_meta ? ['q_ref'] : undefined };
}

/** The columns of a table as the catalogue knows them, key first (the header of an empty csv). */
export function catalogueColumns(table: TableDef): string[] | undefined {
  if (!table.known) return undefined;
  return [...new Set([...(table.key ? [table.key] : []), ...Object.keys(table.fields)])];
}

/**
 * Prints a read, honouring --raw. An empty list says so on stderr in table format (naming the filter
 * when one was given), and is still a header in csv.
 */
export async function printRead(ctx: Context, table: TableDef, result: ApiResult, single: boolean, view: ReadView = {}): Promise<number> {
  // Several VDOMs of which some refused: what the others had, then an error for each that refused.
  const failures = refusals(ctx, result);
  const exit = mostSevere(failures.map((f) => f.report.exit));
  if (ctx.options.raw) await ctx.print({ kind: 'raw', body: result.body });
  else if (!failures.length || result.envelopes.length) await printShaped(ctx, table, result, single, view);
  for (const f of failures) ctx.printError(f.report);
  return exit;
}

async function printShaped(ctx: Context, table: TableDef, result: ApiResult, single: boolean, view: ReadView): Promise<void> {
  const { filtered, ...shown } = view;
  const shaped = shapeRead(result, single);
  const empty = shaped.kind === 'list' && shaped.rows.length === 0;
  const emptyVdoms = shaped.kind === 'byVdom' && Object.values(shaped.vdoms).every((v) => Array.isArray(v) && v.length === 0);
  if (empty && ctx.format === 'table') return noObjects(ctx, table, filtered);
  const columns = shown.fields ?? ((empty || emptyVdoms) && ctx.format === 'csv' ? catalogueColumns(table) : undefined);
  await ctx.print(shaped, { keyField: table.key, ...shown, fields: columns });
}

/** An empty list in a table prints nothing on stdout and says so on stderr, naming the filter if one was given. */
export function noObjects(ctx: Context, table: TableDef, filtered = false): void {
  const vdoms = ctx.vdoms();
  const where = vdoms ? ` (vdom ${vdoms.join(',')})` : '';
  ctx.notice(filtered ? `nothing matched the filter in ${table.path}${where}` : `no objects in ${table.path}${where}`);
}

/** A failed bulk item's error names the item by its key, whatever the message says. */
function namedByKey(report: ErrorReport & { exit: number }, table: TableDef, mkey: string | number | null): ErrorReport & { exit: number } {
  const key = mkey === null || mkey === undefined ? null : String(mkey);
  return key !== null && !report.message.includes(key) ? { ...report, message: `${table.path} ${JSON.stringify(key)}: ${report.message}` } : report;
}

/**
 * Prints each outcome of a bulk write as it comes (in input order), so that nothing but the failed
 * items' errors is kept: in a table the success lines, then every error on stderr; in the other
 * formats one list of result rows. end() prints what is left and returns the most severe exit code
 * (CLI.md: bulk commands).
 */
export function bulkPrinter(ctx: Context, table: TableDef, verb: string): { add(outcome: BulkOutcome): Promise<void>; end(): Promise<number> } {
  let total = 0;
  const exits: number[] = [EXIT.OK];
  const failed: ErrorReport[] = [];
  let sink: RowSink | undefined;
  const rows = async () => (sink ??= await ctx.rowSink());
  return {
    async add(o) {
      // A dry run prints the requests it kept instead (cli/main.ts).
      if (ctx.dryRun) return;
      total++;
      const report = o.error === undefined ? null : namedByKey(ctx.describe(o.error), table, o.mkey);
      if (report) {
        failed.push(report);
        if (!exits.includes(report.exit)) exits.push(report.exit);
      }
      if (ctx.format !== 'table') {
        const outcome = o.error instanceof WriteOutcomeError ? { outcome: o.error.outcome } : {};
        const row = report
          ? { status: 'error', mkey: o.mkey, ...outcome, error: { exit: report.exit, status: report.status, code: report.code, message: report.message, hint: report.hint, cli_error: report.cliError } }
          : { ...o.result };
        await (await rows()).write([row as Row]);
      } else if (!report) await ctx.print({ kind: 'write', result: o.result!, message: `${verb} ${table.path} ${o.mkey ?? ''}`.trimEnd() + outcomeNote(o.result!) });
    },
    async end() {
      if (ctx.dryRun) return EXIT.OK;
      if (ctx.format !== 'table') await (await rows()).end();
      else for (const report of failed) ctx.printError(report);
      const exit = mostSevere(exits);
      if (failed.length) {
        ctx.summarize({ exit, status: null, code: null, message: `${failed.length} of ${total} failed`, hint: null, counts: { failed: failed.length, total } });
      }
      return exit;
    },
  };
}

/**
 * For work whose memory must not grow with its size (`list --all`, bulk writes): each page or item is
 * garbage once printed, but under that allocation rate V8 grows its young generation to tens of MB and
 * lets the old one double before collecting it, so the peak would grow with the table (200,000 objects:
 * 100-145 MB). Kept at its start size and collected sooner, the peak stays flat (70-85 MB).
 */
export async function steadyHeap(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  // And the old generation collected when it has grown by a fifth, not when it has doubled.
  setFlagsFromString('--heap-growing-percent=20');
}
