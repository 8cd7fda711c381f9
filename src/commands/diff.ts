import type { Context } from '../cli/context.js';
import { EXIT, UsageError } from '../errors.js';
import { computePlan, planIsEmpty } from '../plan/plan.js';
import type { DocumentTable } from '../plan/document.js';
import { chosenTables, printPlan, readConfiguration, readCurrent, readDesired } from './desired.js';

export interface DiffOptions {
  file?: string;
  from?: string;
  prune?: boolean;
}

/** `--from DEVICE`: the other saved device's configuration of the tables (default: all) is the desired one. */
async function readOtherDevice(ctx: Context, name: string, file: string | undefined, tableInputs: string[]): Promise<DocumentTable[]> {
  if (file !== undefined) throw new UsageError('give the desired configuration with -f FILE or --from DEVICE, not both');
  const tables = await chosenTables(ctx, await ctx.catalogue(), tableInputs);
  const vdoms = ctx.vdoms();
  // With several devices (-d 'branch-*') the reference is read once for all of them.
  return ctx.once(`diff --from ${name} ${tables.map((t) => t.path).join(' ')} ${vdoms?.join(',') ?? ''}`, async () => {
    const other = ctx.forDevice(name);
    try {
      const { tables: read, failures } = await readConfiguration(other, tables, vdoms);
      for (const { table, report } of failures) ctx.warn(`${table.path} is left out: it cannot be read on ${name}: ${report.message}`);
      return read;
    } finally {
      await other.close();
    }
  });
}

/** `cmdb diff -f FILE [<table>...]`: the plan that would make the device match the document; reads only. Exit 10 when they differ. */
export async function run(ctx: Context, { tables: tableInputs = [] }: { tables?: string[] }, opts: DiffOptions): Promise<number> {
  const desired = opts.from === undefined ? await readDesired(ctx, opts.file, tableInputs) : await readOtherDevice(ctx, opts.from, opts.file, tableInputs);
  const planned = computePlan(await readCurrent(ctx, desired), { prune: !!opts.prune });
  await printPlan(ctx, planned);
  return planIsEmpty(planned.plan) ? EXIT.OK : EXIT.DIFFERENT;
}
