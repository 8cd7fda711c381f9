import type { Context } from '../cli/context.js';
import { EXIT } from '../errors.js';
import { applySteps, type ApplyReport, type FailedStep } from '../plan/apply.js';
import { computePlan, planIsEmpty, redactSecrets, redactStep, requestOf, stepAllowed, type PlannedTables, type Step } from '../plan/plan.js';
import { planFormat, printPlan, readCurrent, readDesired } from './desired.js';

export interface ApplyOptions {
  file?: string;
  prune?: boolean;
  atomic?: boolean;
  dryRun?: boolean;
  yes?: boolean;
}

function errorObject(ctx: Context, error: unknown): Record<string, unknown> {
  const r = ctx.describe(error);
  return { exit: r.exit, status: r.status, code: r.code, message: r.message, hint: r.hint, cli_error: r.cliError };
}

function where(step: Step | FailedStep): string {
  return step.table === null ? `the transaction of vdom ${step.vdom}` : `${step.action} ${step.table}${step.key === null ? '' : ` ${step.key}`} (vdom ${step.vdom})`;
}

async function printReport(ctx: Context, planned: PlannedTables, report: ApplyReport, skipped: Step[], format: 'yaml' | 'json' | 'table'): Promise<void> {
  const shown = (steps: Step[]) => steps.map((s) => redactStep(s, planned.tables));
  const notApplied = [...report.not_applied, ...skipped];
  if (format !== 'table') {
    const failed = report.failed ? { ...(report.failed.table === null ? report.failed : redactStep(report.failed, planned.tables)), error: errorObject(ctx, report.failed.error) } : null;
    await ctx.print({ kind: 'object', object: { applied: shown(report.applied), failed, not_applied: shown(notApplied) } }, { format });
  }
  if (report.failed) {
    const r = ctx.describe(report.failed.error);
    ctx.printError({ ...r, message: `${where(report.failed)} failed: ${r.message}` });
  }
  if (report.interrupted) ctx.warn('interrupted');
  if (report.aborted) ctx.notice('the transaction was aborted: nothing was changed on the device');
  const total = report.applied.length + notApplied.length + (report.failed?.table ? 1 : 0);
  ctx.notice(`applied ${report.applied.length} of ${total} changes${notApplied.length ? `; not applied: ${notApplied.length}` : ''}`);
}

/**
 * `cmdb apply -f FILE [<table>...]`: the plan of `diff`, then the writes that make the device match:
 * POST creates, PUT only the changed fields, DELETE (--prune) last. An empty plan sends no write.
 */
export async function run(ctx: Context, { tables: tableInputs = [] }: { tables?: string[] }, opts: ApplyOptions): Promise<number> {
  const format = planFormat(ctx);
  const desired = await readDesired(ctx, opts.file, tableInputs);
  const planned = computePlan(await readCurrent(ctx, desired), { prune: !!opts.prune });
  const client = await ctx.client();
  const allowed = (s: Step) => ctx.force || stepAllowed(s, planned.tables.get(s.table)!);
  const skipped = planned.steps.filter((s) => !allowed(s));
  for (const step of skipped) ctx.warn(`cannot ${where(step)}: the catalogue lists no ${step.action} for that table (--force sends it anyway)`);
  const steps = planned.steps.filter(allowed);
  const requests = steps.map((s) => requestOf(s, planned.tables.get(s.table)!));
  if (opts.dryRun) {
    const described = requests.map((r, i) => {
      const d = client.describeRequest(r);
      const table = planned.tables.get(steps[i].table);
      return { ...d, body: d.body && typeof d.body === 'object' ? redactSecrets(table, d.body as Record<string, unknown>) : d.body };
    });
    await printPlan(ctx, planned, format, { requests: described });
    if (format === 'table') {
      const lines = described.map((d) => `${d.method} ${d.path}${d.query ? `?${d.query}` : ''}${d.body === null ? '' : ` ${JSON.stringify(d.body)}`}`);
      await ctx.print({ kind: 'text', text: lines.length ? `\n${lines.join('\n')}\n` : '' });
    }
    return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
  }
  if (format === 'table') await printPlan(ctx, planned, format);
  if (planIsEmpty(planned.plan)) {
    if (format !== 'table') await ctx.print({ kind: 'object', object: { applied: [], failed: null, not_applied: [] } }, { format });
    return EXIT.OK;
  }
  if (steps.length && ctx.interactive && !opts.yes) {
    if (!(await ctx.confirm(`apply ${steps.length} change${steps.length === 1 ? '' : 's'}${opts.atomic ? ' in one transaction per VDOM' : ''}?`))) {
      ctx.notice('nothing was changed');
      return EXIT.DIFFERENT;
    }
  }
  const interrupt = ctx.interruptible();
  let report: ApplyReport;
  try {
    report = await applySteps(client, steps, requests, { atomic: !!opts.atomic, signal: interrupt.signal });
  } finally {
    interrupt.release();
  }
  await printReport(ctx, planned, report, skipped, format);
  if (report.interrupted) return interrupt.exitCode() ?? 130;
  if (report.failed) return ctx.describe(report.failed.error).exit;
  return EXIT.OK;
}
