import type { Context } from '../cli/context.js';
import { normalizeTablePath } from '../catalogue/index.js';
import { UsageError } from '../errors.js';
import { formatPlan } from '../output/index.js';
import { readDocument, type DocumentTable } from '../plan/document.js';
import { planIsEmpty, redactPlan, type Comparison, type PlannedTables } from '../plan/plan.js';
import { readTable } from '../plan/read.js';
import { forEachConcurrent } from '../request/bulk.js';
import { parseDocument, readSource } from '../request/input.js';
import { resolveTable } from '../request/table.js';

/** Tables read at once over the device's one connection pool. */
export const READ_CONCURRENCY = 8;

/** The format of a plan: table (the default on a terminal), json (elsewhere) or yaml. */
export function planFormat(ctx: Context): 'yaml' | 'json' | 'table' {
  const format = ctx.format;
  if (format === 'csv' || format === 'ndjson') throw new UsageError(`-o ${format} does not fit a plan`, 'use -o table, json or yaml');
  return format;
}

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
    const wanted = new Set(tableInputs.map((input) => resolveTable(ctx, normalizeTablePath(input)).path));
    for (const path of wanted) if (!tables.some((t) => t.table.path === path)) ctx.notice(`${path} is not in ${source}`);
    tables = tables.filter((t) => wanted.has(t.table.path));
  }
  const vdoms = ctx.settings.vdomText !== undefined ? ctx.vdoms() : undefined;
  if (vdoms && !vdoms.includes('*')) tables = tables.filter((t) => vdoms.includes(t.vdom));
  return tables;
}

/** `work` over every item, READ_CONCURRENCY at once over the device's one connection pool; results in input order. */
export async function settleConcurrent<T, R>(items: T[], work: (item: T) => Promise<R>): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  const settle = (item: T) => work(item).then((value): PromiseSettledResult<R> => ({ status: 'fulfilled', value }), (reason: unknown): PromiseSettledResult<R> => ({ status: 'rejected', reason }));
  await forEachConcurrent(items, READ_CONCURRENCY, settle, async (result) => void results.push(result));
  return results;
}

/** The device's current content of every document table, read concurrently; the first failure stops the run. */
export async function readCurrent(ctx: Context, desired: DocumentTable[]): Promise<Comparison[]> {
  const client = await ctx.client();
  const reads = await settleConcurrent(desired, async (d) => ({ desired: d, actual: (await readTable(client, d.table, [d.vdom]))[0]?.content ?? [] }));
  return reads.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

function summary(planned: PlannedTables): string {
  const { plan } = planned;
  if (planIsEmpty(plan)) return 'in sync: the device matches the document';
  return `${plan.create.length} to create, ${plan.update.length} to update, ${plan.delete.length} to delete`;
}

/** The plan: `+ ~ -` lines for people with a summary on stderr, the plan object for scripts; secrets hidden. */
export async function printPlan(ctx: Context, planned: PlannedTables, format: 'yaml' | 'json' | 'table', extra: Record<string, unknown> = {}): Promise<void> {
  const plan = redactPlan(planned);
  if (format === 'table') {
    await ctx.print({ kind: 'text', text: formatPlan(plan, ctx.terminal().color) });
    ctx.notice(summary(planned));
  } else {
    await ctx.print({ kind: 'object', object: { ...plan, ...extra } }, { format });
  }
}
