// `cmdb apply`: the plan of `diff`, then the writes that make the device match. The work is the plan
// library's (src/plan: read the device, plan, apply, the report); this command chooses the source,
// asks the one question and hands the printer the plan and the report.
import { EXIT } from '../errors.js';
import { appliedReport, applySteps, emptyReport, type ApplyReport } from '../plan/apply.js';
import { planIsEmpty, redactPlan, requestOf } from '../plan/plan.js';
import { declined, type Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import { planFor, type PlanSource } from './common/plan.js';

export interface ApplyOptions extends PlanSource {
  atomic?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

/**
 * `cmdb apply -f FILE [<table>...]`: the plan of `diff`, then the writes that make the device match:
 * POST creates, PUT only the changed fields, DELETE (--prune) last. An empty plan sends no write.
 */
export async function run(
  ctx: Context,
  { tables: tableInputs = [] }: { tables?: string[] },
  opts: ApplyOptions,
): Promise<number> {
  const device = ctx.device();
  // A dry run: the device keeps the writes instead of sending them, to print them with the plan.
  const recorded = opts.dryRun ? await device.recordWrites() : undefined;
  // The plan holds only what the tables' operations can do, --force or not: applying it makes the device match.
  const { planned, facts } = await planFor(ctx, opts, tableInputs);
  const client = await device.client();
  const steps = planned.steps;
  const requests = steps.map((s) => requestOf(s, planned.tables.get(s.table)!));
  if (recorded) {
    await applySteps(client, steps, requests, { atomic: false });
    await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), facts, requests: [...recorded] });
    return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
  }
  await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), facts, preview: true });
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
    });
  } finally {
    interrupt.release();
  }
  await ctx.out.print(appliedReport(report, planned.tables, { describe: describeError }));
  if (report.interrupted) return interrupt.exitCode() ?? 130;
  if (report.failed) return describeError(report.failed.error).exit;
  return EXIT.OK;
}
