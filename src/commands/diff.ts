import type { Context } from '../run/context.js';
import { EXIT } from '../errors.js';
import { computePlan, planIsEmpty } from '../plan/plan.js';
import { printPlan, readCurrent, readDesiredFrom, type DesiredSource } from './common/desired.js';

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
  const planned = computePlan(await readCurrent(ctx, desired), { prune: !!opts.prune });
  await printPlan(ctx, planned);
  return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
}
