// `--atomic` of the bulk commands: every write in one device transaction, all or nothing.
import type { ApiRequest } from '../../api/client.js';
import type { TableDef } from '../../catalogue/index.js';
import type { Context } from '../../run/context.js';
import { describeError } from '../../run/hints.js';
import { EXIT, UsageError } from '../../errors.js';
import { appliedReport, applySteps, type ApplyReport } from '../../plan/apply.js';
import type { Step } from '../../plan/plan.js';
import { vdomsFor, type WriteOptions } from './request.js';

/** One write of a bulk command run with --atomic. */
export type BulkWrite =
  | { action: 'create'; key: string | number | null; object: Record<string, unknown> }
  | { action: 'update'; key: string | number; changes: Record<string, { from: unknown; to: unknown }> }
  | { action: 'delete'; key: string | number };

/**
 * `--atomic` on `create -f` and `delete` of several keys: every write in one device transaction,
 * committed only when all succeeded; any failure, Ctrl-C or SIGTERM aborts it and nothing changes.
 */
export async function runAtomically(
  ctx: Context,
  opts: WriteOptions,
  table: TableDef,
  writes: BulkWrite[],
): Promise<number> {
  const vdoms = vdomsFor(ctx, table);
  if (vdoms && (vdoms.length > 1 || vdoms[0] === '*')) {
    throw new UsageError(
      '--atomic writes to one VDOM at a time here',
      "give one --vdom, or use 'cmdb apply --atomic' with a document that names each VDOM",
    );
  }
  const vdom = vdoms?.[0] ?? '';
  const base = { tablePath: table.path, group: table.group, query: vdoms ? { vdom: vdoms } : {} };
  const steps: Step[] = writes.map((w) => ({ ...w, vdom, table: table.path }));
  const requests: ApiRequest[] = writes.map((w) =>
    w.action === 'create'
      ? { ...base, method: 'POST', body: w.object }
      : w.action === 'update'
        ? {
            ...base,
            method: 'PUT',
            mkey: w.key,
            body: Object.fromEntries(Object.entries(w.changes).map(([name, c]) => [name, c.to])),
          }
        : { ...base, method: 'DELETE', mkey: w.key },
  );
  const client = await ctx.device().client();
  // A dry run shows the writes (the client keeps them); there is no transaction to open.
  if (opts.dryRun) {
    await applySteps(client, steps, requests, { atomic: false });
    return EXIT.OK;
  }
  const interrupt = ctx.signals.interruptible();
  let report: ApplyReport;
  try {
    report = await applySteps(client, steps, requests, {
      atomic: true,
      signal: interrupt.signal,
      tables: new Map([[table.path, table]]),
    });
  } finally {
    interrupt.release();
  }
  await ctx.out.print(appliedReport(report, new Map([[table.path, table]]), { describe: describeError }));
  if (report.interrupted) return interrupt.exitCode() ?? 130;
  if (report.failed) return describeError(report.failed.error).exit;
  return EXIT.OK;
}
