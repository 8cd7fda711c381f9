import type { Context } from '../cli/context.js';
import { EXIT, UsageError } from '../errors.js';
import { computePlan, planIsEmpty } from '../plan/plan.js';
import { planFormat, printPlan, readCurrent, readDesired } from './desired.js';

export interface DiffOptions {
  file?: string;
  from?: string;
  prune?: boolean;
}

/** `cmdb diff -f FILE [<table>...]`: the plan that would make the device match the document; reads only. Exit 10 when they differ. */
export async function run(ctx: Context, { tables: tableInputs = [] }: { tables?: string[] }, opts: DiffOptions): Promise<number> {
  if (opts.from !== undefined) throw new UsageError('--from is not available yet', "export the other device with 'cmdb -d OTHER export > other.yaml', then 'cmdb diff -f other.yaml'");
  const format = planFormat(ctx);
  const desired = await readDesired(ctx, opts.file, tableInputs);
  const planned = computePlan(await readCurrent(ctx, desired), { prune: !!opts.prune });
  await printPlan(ctx, planned, format);
  return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
}
