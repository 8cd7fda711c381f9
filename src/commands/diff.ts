// `cmdb diff`: what apply would do, from reads only.
import { EXIT } from '../errors.js';
import { planIsEmpty, redactPlan } from '../plan/plan.js';
import type { Context } from '../run/context.js';
import { planConcurrency, planFor, planProblems, type PlanSource } from './common/plan.js';

export type DiffOptions = PlanSource;

/**
 * `cmdb diff -f FILE [<table>...]` (or `--from DEVICE`, or `--dir DIR` with a file per device): the
 * plan that would make the device match the desired configuration; reads only. Exit 10 when they differ.
 */
export async function run(
  ctx: Context,
  { tables: tableInputs = [] }: { tables?: string[] },
  opts: DiffOptions,
): Promise<number> {
  const concurrency = planConcurrency(opts);
  const { planned, facts, comparisons } = await planFor(ctx, opts, tableInputs);
  // Reference problems are warnings here: diff only reads, its exit code says whether the device differs.
  const problems = await planProblems(ctx, planned, comparisons, concurrency);
  await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), facts, problems });
  return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
}
