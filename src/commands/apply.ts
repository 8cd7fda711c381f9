// `cmdb apply`: the plan of `diff`, checked and ordered by references, then the writes that make the
// device match. The work is the plan library's (src/plan: read the device, plan, check, order, apply,
// the report); this command chooses the source, asks the one question and hands the printer the plan
// and the report.
import type { ApiRequest } from '../api/client.js';
import type { TableDef } from '../catalogue/index.js';
import { EXIT, UsageError } from '../errors.js';
import type { PlanProblem } from '../output/index.js';
import { appliedReport, applySteps, emptyReport, type ApplyReport, type FailedStep } from '../plan/apply.js';
import { planIsEmpty, redactPlan, requestOf, type Step } from '../plan/plan.js';
import { sendable } from '../plan/prepare.js';
import { declined, type Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import { planConcurrency, planFor, planProblems, type PlanSource } from './common/plan.js';
import { explainWrite } from './common/request.js';

export interface ApplyOptions extends PlanSource {
  atomic?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/** A plan that fails its reference checks is not sent (exit 2) unless --force. */
function refused(problems: PlanProblem[]): UsageError {
  const n = problems.length;
  return new UsageError(
    `the plan has ${n} reference problem${n === 1 ? '' : 's'} (listed above): nothing was sent`,
    'fix the document, or --force to send the plan anyway',
  );
}

/**
 * The writes the device refused (sent with --force, or changed meanwhile), explained as a single
 * write's refusal is: the field, the value and where it was looked for; a delete's users.
 */
async function explainRefusals(
  ctx: Context,
  report: ApplyReport,
  sent: { steps: Step[]; requests: ApiRequest[]; tables: Map<string, TableDef> },
) {
  const failures = [report.failed, ...report.also_failed].filter((f): f is FailedStep & Step => !!f?.table);
  if (!failures.length) return;
  const id = (s: Step) => `${s.action}\0${s.vdom}\0${s.table}\0${String(s.key)}`;
  const index = new Map(sent.steps.map((step, i) => [id(step), i]));
  for (const failed of failures) {
    const i = index.get(id(failed));
    const table = sent.tables.get(failed.table);
    if (i !== undefined && table) failed.error = await explainWrite(ctx, table, sent.requests[i], failed.error);
  }
}

/**
 * `cmdb apply -f FILE [<table>...]`: the plan of `diff`, checked, then the writes that make the device
 * match, in the order references require: POST creates, PUT only the changed fields, DELETE (--prune)
 * last, `--concurrency` at once. An empty plan sends no write.
 */
export async function run(
  ctx: Context,
  { tables: tableInputs = [] }: { tables?: string[] },
  opts: ApplyOptions,
): Promise<number> {
  const device = ctx.device();
  const concurrency = planConcurrency(opts);
  // A dry run: the device keeps the writes instead of sending them, to print them with the plan.
  const recorded = opts.dryRun ? await device.recordWrites() : undefined;
  // The plan holds only what the tables' operations can do, --force or not: applying it makes the device match.
  const { planned, facts, comparisons } = await planFor(ctx, opts, tableInputs);
  const problems = await planProblems(ctx, planned, comparisons, concurrency);
  const blocked = problems.length > 0 && !ctx.settings.force;
  const catalogue = await device.catalogue();
  const { steps, waits, placements } = sendable(planned, comparisons, {
    find: (path) => catalogue.find(path),
    concurrency: opts.atomic || recorded ? 1 : concurrency,
  });
  const client = await device.client();
  const requests = steps.map((s) => requestOf(s, planned.tables.get(s.table)!));
  if (recorded) {
    // The requests in the order they would be sent (one at a time: a dry run writes nothing to wait for).
    if (!blocked) await applySteps(client, steps, requests, { atomic: false });
    await ctx.out.print({
      kind: 'plan',
      plan: redactPlan(planned),
      facts,
      requests: blocked ? [] : [...recorded],
      problems,
    });
    if (blocked) throw refused(problems);
    return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
  }
  await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), facts, preview: true, problems });
  if (blocked) throw refused(problems);
  if (planIsEmpty(planned.plan)) {
    await ctx.out.print(appliedReport(emptyReport(), planned.tables, { nothingToDo: true, describe: describeError }));
    return EXIT.OK;
  }
  // Declined: exit 2, as every question (CLI.md).
  if (
    steps.length &&
    !opts.yes &&
    !(await ctx.prompt.approvedPlan(
      steps.length,
      `apply ${steps.length} change${steps.length === 1 ? '' : 's'}` +
        `${opts.atomic ? ' in one transaction per VDOM' : ''}?`,
    ))
  )
    throw declined();
  const interrupt = ctx.signals.interruptible();
  let report: ApplyReport;
  try {
    report = await applySteps(client, steps, requests, {
      atomic: !!opts.atomic,
      signal: interrupt.signal,
      tables: planned.tables,
      orders: planned.orders,
      waits,
      concurrency,
      placements,
    });
  } finally {
    interrupt.release();
  }
  await explainRefusals(ctx, report, { steps, requests, tables: planned.tables });
  await ctx.out.print(appliedReport(report, planned.tables, { describe: describeError }));
  if (report.interrupted) return interrupt.exitCode() ?? 130;
  if (report.failed) return describeError(report.failed.error).exit;
  return EXIT.OK;
}
