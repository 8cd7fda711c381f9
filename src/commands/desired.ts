import type { Context } from '../cli/context.js';
import { allTables, findTable, namesOf, normalizeTablePath, tableSummaries, type TableDef, type TableSummary } from '../catalogue/index.js';
import { ApiError } from '../api/errors.js';
import type { ApplyReport } from '../plan/apply.js';
import { UsageError } from '../errors.js';
import type { Planned } from '../output/index.js';
import { normalizeContent, readDocument, type DocumentTable } from '../plan/document.js';
import type { Shown } from '../cli/hints.js';
import { redactPlan, redactStep, type Comparison, type PlannedTables, type Step } from '../plan/plan.js';
import { readTableAnyName } from '../plan/read.js';
import { TableNames } from '../device/table-names.js';
import { forEachConcurrent } from '../request/bulk.js';
import { parseDocument, readSource } from '../request/input.js';
import { requireOperation, resolveTable } from '../request/table.js';

/** Tables read at once over the device's one connection pool. */
export const READ_CONCURRENCY = 8;

/**
 * The desired configuration from a document file (YAML or JSON; `-` for stdin), narrowed to the
 * tables named on the line and the VDOMs of an explicit --vdom.
 */
export async function readDesired(ctx: Context, file: string | undefined, tableInputs: string[]): Promise<DocumentTable[]> {
  if (file === undefined) throw new UsageError('give the desired configuration with -f FILE', "write one with 'cmdb export > FILE'");
  const { text, source } = await readSource(ctx.io.stdin, file);
  const value = await parseDocument(text, source);
  let tables = readDocument(value, source);
  if (tableInputs.length) {
    // Either name of a renamed table names the same table.
    const canonical = (table: TableDef) => table.aliasOf ?? table.path;
    const wanted = new Map(tableInputs.map((input) => resolveTable(ctx, normalizeTablePath(input))).map((t) => [canonical(t), t.path]));
    for (const [path, name] of wanted) if (!tables.some((t) => canonical(t.table) === path)) ctx.notice(`${name} is not in ${source}`);
    tables = tables.filter((t) => wanted.has(canonical(t.table)));
  }
  const vdoms = ctx.settings.vdomText !== undefined ? ctx.vdoms() : undefined;
  if (vdoms && !vdoms.includes('*')) tables = tables.filter((t) => vdoms.includes(t.vdom));
  return tables;
}

/** `work` over every item, `concurrency` at once over the device's one connection pool; results in input order. */
export async function settleConcurrent<T, R>(items: T[], work: (item: T) => Promise<R>, concurrency = READ_CONCURRENCY, onSettled?: () => void): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  const settle = (item: T) =>
    work(item)
      .then((value): PromiseSettledResult<R> => ({ status: 'fulfilled', value }), (reason: unknown): PromiseSettledResult<R> => ({ status: 'rejected', reason }))
      .finally(onSettled);
  await forEachConcurrent(items, concurrency, settle, async (result) => void results.push(result));
  return results;
}

/** Whether a table can be read as a whole: a keyed table's list, or a singleton's object (by L or G). */
const readable = (table: TableSummary) => table.operations.includes('L') || table.operations.includes('G');

/** The tables named (each once, in the catalogue's order), or every table that can be read as a whole (`spec`: of SPEC.md's 42). */
export function chosenTables(ctx: Context, inputs: string[], options: { spec?: boolean } = {}): TableDef[] {
  // SPEC.md's 42 from their own files; every table from the one file that holds them all.
  if (!inputs.length && options.spec) return tableSummaries().filter((t) => t.spec && readable(t)).map((t) => findTable(t.path)!);
  if (!inputs.length) return allTables().filter(readable);
  const named = [...new Map(inputs.map((input) => resolveTable(ctx, input)).map((t) => [t.path, t])).values()];
  for (const table of named) {
    if (!table.known) throw new UsageError(`${table.path} is not in the catalogue: cmdb cannot tell its key, so it cannot export it`, "'cmdb tables' lists the tables it can export");
    requireOperation(ctx, table, table.singleton ? 'G' : 'L');
  }
  // The catalogue's order (from its index: the whole catalogue is read only for a full export).
  const order = new Map(tableSummaries().map((t, i) => [t.path, i]));
  const at = (t: TableDef) => order.get(t.aliasOf ?? t.path) ?? order.size;
  return named.sort((a, b) => at(a) - at(b));
}

/** A table that could not be read, and how the user sees why. */
export interface ReadFailure {
  table: TableDef;
  report: Shown;
  /** The device does not have the table (404 under each of its names). */
  missing: boolean;
}

/** Which names the connected device answered to (CLI.md "Names"), remembered per device address. */
async function tableNames(ctx: Context): Promise<TableNames> {
  return TableNames.load(ctx.env, ctx.demo ? 'demo' : (await ctx.client()).baseUrl);
}

/**
 * The configuration of some tables in some VDOMs (`undefined`: the management VDOM; `*`: all), read
 * `concurrency` at once, VDOM by VDOM in the device's order, tables in the catalogue's; each under the
 * name the device answered to (a renamed table: SPEC.md's or the device's). A table that cannot be
 * read is reported in `failures`; when none can be, the first failure is thrown.
 */
export async function readConfiguration(
  ctx: Context,
  tables: TableDef[],
  vdoms: string[] | undefined,
  options: { excludeDefaultValues?: boolean; concurrency?: number; onRead?: () => void } = {},
): Promise<{ tables: DocumentTable[]; failures: ReadFailure[] }> {
  const client = await ctx.client();
  const names = await tableNames(ctx);
  const read = async (table: TableDef) => {
    const answer = await readTableAnyName(client, table, vdoms, { excludeDefaultValues: options.excludeDefaultValues, prefer: (n) => names.prefer(n) });
    names.answered(namesOf(table), answer.table.path);
    return answer;
  };
  const settled = await settleConcurrent(tables, read, options.concurrency, options.onRead);
  names.save();
  const failures = settled.flatMap((r, i): ReadFailure[] =>
    r.status === 'rejected' ? [{ table: tables[i], report: ctx.describe(r.reason), missing: r.reason instanceof ApiError && r.reason.notFound }] : [],
  );
  const first = settled.find((r) => r.status === 'rejected');
  if (first && failures.length === tables.length) throw first.reason;
  const found: DocumentTable[] = [];
  const vdomOrder: string[] = [];
  for (const r of settled) {
    if (r.status === 'rejected') continue;
    const { table, reads } = r.value;
    for (const { vdom, content } of reads) {
      if (!vdomOrder.includes(vdom)) vdomOrder.push(vdom);
      found.push({ vdom, table, content: normalizeContent(table, content) });
    }
  }
  return { tables: vdomOrder.flatMap((vdom) => found.filter((t) => t.vdom === vdom)), failures };
}

/**
 * The device's current content of every document table, read concurrently, each under the name the
 * device answers to (a document may name a renamed table either way); the first failure stops the run.
 */
export async function readCurrent(ctx: Context, desired: DocumentTable[]): Promise<Comparison[]> {
  const client = await ctx.client();
  const names = await tableNames(ctx);
  const reads = await settleConcurrent(desired, async (d): Promise<Comparison> => {
    const { table, reads: [first] } = await readTableAnyName(client, d.table, [d.vdom], { prefer: (n) => names.prefer(n) });
    names.answered(namesOf(d.table), table.path);
    return { desired: { ...d, table }, actual: first?.content ?? [] };
  });
  names.save();
  return reads.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

/** Prints the plan, secrets hidden (`preview`: before apply applies it; `requests`: those of a dry run). */
export async function printPlan(ctx: Context, planned: PlannedTables, extra: Omit<Planned, 'kind' | 'plan'> = {}): Promise<void> {
  await ctx.print({ kind: 'plan', plan: redactPlan(planned), ...extra });
}

/** Prints what an apply did: its steps with secrets hidden, the failure as the user sees it. */
export async function printReport(ctx: Context, tables: Map<string, TableDef>, report: ApplyReport, skipped: Step[], nothingToDo = false): Promise<void> {
  const shown = (steps: Step[]) => steps.map((s) => redactStep(s, tables));
  const failed = report.failed && { ...(report.failed.table === null ? report.failed : redactStep(report.failed, tables)), error: ctx.describe(report.failed.error) };
  await ctx.print({ kind: 'applied', applied: shown(report.applied), failed, notApplied: shown([...report.not_applied, ...skipped]), aborted: report.aborted, interrupted: report.interrupted, nothingToDo });
}
