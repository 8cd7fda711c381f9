import type { ApiRequest, ApiResult, Envelope } from '../api/client.js';
import type { QueryParams } from '../api/url.js';
import {
  allows,
  describeOperations,
  findTable,
  isWellFormedTablePath,
  normalizeTablePath,
  OPERATION_NAMES,
  suggestTables,
  uncataloguedTable,
  RELEASE,
  type OperationCode,
  type TableDef,
} from '../catalogue/index.js';
import { EXIT, UsageError, errorReport } from '../errors.js';
import { mostSevere } from '../severity.js';
import type { Context } from '../cli/context.js';
import { formatError, type ErrorReport, type Row, type Shaped, type WriteResult } from '../output/index.js';

/** Looks a table path up in the catalogue; an uncatalogued but well-formed path is sent as a keyed table. */
export function resolveTable(ctx: Context, input: string): TableDef {
  const path = normalizeTablePath(input);
  if (!isWellFormedTablePath(path)) {
    const near = suggestTables(path);
    throw new UsageError(`'${input}' is not a table path`, near.length ? `did you mean ${near.join(' or ')}? (table paths look like area[.subarea]/table)` : "table paths look like area[.subarea]/table, for example firewall.ipmacbinding/table; 'cmdb tables' lists them");
  }
  const table = findTable(path);
  if (table) return table;
  const near = suggestTables(path);
  ctx.notice(`${path} is not in the ${RELEASE} catalogue; sending it as a keyed table with a string key${near.length ? ` (did you mean ${near.join(' or ')}?)` : ''}`);
  return uncataloguedTable(path);
}

/** Refuses an operation the catalogue does not list for the table, unless --force. */
export function requireOperation(ctx: Context, table: TableDef, ...ops: OperationCode[]): void {
  if (!table.known || ops.some((op) => allows(table, op))) return;
  const name = OPERATION_NAMES[ops[0]];
  if (ctx.force) {
    ctx.warn(`the catalogue does not list '${name}' for ${table.path}; sending it anyway (--force)`);
    return;
  }
  throw new UsageError(`${table.path} does not support ${name}${table.singleton ? ' (it is a singleton table)' : ''}; it has: ${describeOperations(table)}`, '--force sends it anyway');
}

/** A key as the catalogue types it: integer keys must be integers, checked before anything is sent. */
export function parseMkey(table: TableDef, raw: string, what = 'key'): string | number {
  if (table.keyType === 'integer') {
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`${table.path} has integer keys (${table.key}); '${raw}' is not an integer`, null);
    const n = Number(raw);
    if (!Number.isSafeInteger(n)) throw new UsageError(`${what} '${raw}' is out of range`);
    return n;
  }
  if (raw === '') throw new UsageError(`the ${what} must not be empty`);
  return raw;
}

export function requireKeyed(table: TableDef, command: string): void {
  if (table.singleton) throw new UsageError(`${table.path} is a singleton table: it has no keys`, `use 'cmdb ${command === 'update' ? 'update' : 'get'} ${table.path}' without a key`);
}

/** The VDOM part of every request. */
export function vdomQuery(ctx: Context): QueryParams {
  const vdom = ctx.vdoms();
  return vdom ? { vdom } : {};
}

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

export function writeResult(e: Envelope, fallbackMkey?: string | number): WriteResult {
  return { status: e.status ?? 'success', mkey: e.mkey ?? fallbackMkey ?? null, revision: e.revision ?? null, vdom: e.vdom ?? null };
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
  if (shaped.kind === 'list' && shaped.rows.length === 0 && ctx.format === 'table') {
    const vdoms = ctx.vdoms();
    ctx.notice(`no objects in ${table.path}${vdoms ? ` (vdom ${vdoms.join(',')})` : ''}`);
    return;
  }
  await ctx.print(shaped, { keyField: table.key, fields });
}

/** Runs `work` over items with at most `concurrency` in flight, keeping results in input order. */
export async function mapConcurrent<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
}

export function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return 4;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`invalid --concurrency '${raw}'`, 'give a whole number from 1 to 64');
  return n;
}

/** One item of a bulk write: its result or its error, for per-item output. */
export interface BulkOutcome {
  mkey: string | number | null;
  ok: boolean;
  exit: number;
  row: Row;
  /** The item's error, printed as any error is, when it failed. */
  report?: ErrorReport;
}

/** Prints every item's outcome, then returns the most severe exit code (CLI.md: bulk commands). */
export async function printBulk(ctx: Context, table: TableDef, verb: string, outcomes: BulkOutcome[]): Promise<number> {
  if (ctx.format === 'table') {
    for (const o of outcomes) {
      if (o.ok) await ctx.print({ kind: 'write', result: o.row as unknown as WriteResult, message: `${verb} ${table.path} ${o.mkey ?? ''}`.trimEnd() });
    }
    for (const o of outcomes) {
      if (o.report) ctx.io.stderr.write(formatError(o.report, { json: false, color: ctx.colorFor(ctx.io.stderr) }));
    }
  } else {
    await ctx.print({ kind: 'list', rows: outcomes.map((o) => o.row) });
  }
  const failed = outcomes.filter((o) => !o.ok).length;
  if (failed) ctx.notice(`${failed} of ${outcomes.length} failed`);
  return mostSevere(outcomes.map((o) => o.exit));
}

/** Runs one item of a bulk write and turns any error into an outcome row instead of stopping. */
export async function bulkItem(mkey: string | number | null, work: () => Promise<ApiResult>): Promise<BulkOutcome> {
  try {
    const result = await work();
    const r = writeResult(result.envelopes[0] ?? {}, mkey ?? undefined);
    return { mkey: r.mkey ?? mkey, ok: true, exit: EXIT.OK, row: { ...r } as Row };
  } catch (err) {
    const report = errorReport(err);
    return {
      mkey,
      ok: false,
      exit: report.exit,
      row: { status: 'error', mkey, error: { exit: report.exit, status: report.status, code: report.code, message: report.message, hint: report.hint, cli_error: report.cliError } },
      report,
    };
  }
}
