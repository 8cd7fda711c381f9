// `cmdb diff`: what apply would do, from reads only.
import { EXIT } from '../errors.js';
import { computePlan, planIsEmpty, redactPlan } from '../plan/plan.js';
import { readCurrent } from '../plan/read.js';
import type { Context } from '../run/context.js';
import { readDesiredFrom, type DesiredSource } from './common/desired.js';
import { planFacts } from './common/plan.js';

export interface DiffOptions extends DesiredSource {
  prune?: boolean;
}

/**
 * `cmdb diff -f FILE [<table>...]` (or `--from DEVICE`, or `--dir DIR` with a file per device): the
 * plan that would make the device match the desired configuration; reads only. Exit 10 when they differ.
 */
export async function run(
  ctx: Context,
  { tables: tableInputs = [] }: { tables?: string[] },
  opts: DiffOptions,
): Promise<number> {
  const desired = await readDesiredFrom(ctx, opts, tableInputs);
  const current = await readCurrent(ctx.device(), desired);
  if (current.failures.length) throw current.failures[0].error;
  const planned = computePlan(current.comparisons, { prune: !!opts.prune });
  await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), facts: planFacts(planned, current.comparisons) });
  return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
}
