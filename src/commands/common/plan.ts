// What diff and apply share before they differ: the desired configuration, the device's current one, the
// plan between them (which fields it leaves out, whether it sends secrets), one line each for what the
// plan leaves out (changes the API cannot make, secrets not compared, objects created anew), and what the
// printer needs beside the plan: the tables' fields and the names of the numbered objects it touches.
import { nearestNames } from '../../catalogue/index.js';
import { UsageError } from '../../errors.js';
import { isObject, keyId, keyOf } from '../../objects/normalize.js';
import { objectSlot, stepInWords, type PlanFacts, type PlanProblem } from '../../output/index.js';
import { computePlan, type Comparison, type PlannedTables } from '../../plan/plan.js';
import { checkReferences } from '../../plan/prepare.js';
import { parseConcurrency } from '../../request/bulk.js';
import { readCurrent } from '../../plan/read.js';
import type { Context } from '../../run/context.js';
import { readDesiredFrom, type Desired, type DesiredSource } from './desired.js';

/** The options of diff and apply that shape the plan. */
export interface PlanSource extends DesiredSource {
  prune?: boolean;
  /** Compare and send `uuid` fields also when the document comes from another device. */
  withUuid?: boolean;
  /** `a,b`: fields left out of comparisons and writes. */
  ignoreFields?: string;
  /** Send the document's plain-text secrets as updates. */
  setSecrets?: boolean;
  /** `--concurrency N`: requests at once (the reads of the reference checks; apply's writes). */
  concurrency?: string;
}

/** `--concurrency N` of diff and apply: 8 unless given. */
export function planConcurrency(opts: PlanSource): number {
  return opts.concurrency === undefined ? 8 : parseConcurrency(opts.concurrency);
}

/** `--ignore-fields a,b` as names; nothing, or only commas, is a usage error. */
function fieldList(text: string | undefined): string[] {
  if (text === undefined) return [];
  const names = text
    .split(',')
    .map((name) => name.trim())
    .filter(Boolean);
  if (!names.length)
    throw new UsageError('--ignore-fields takes field names separated by commas (--ignore-fields uuid,comment)');
  return names;
}

/** A name that no table of the document has is a typo: comparing everything would pass silently. */
function checkFieldNames(names: string[], desired: Desired): void {
  if (desired.tables.some((t) => !t.table.known)) return;
  const known = [...new Set(desired.tables.flatMap((t) => Object.keys(t.table.fields)))];
  for (const name of names) {
    if (known.includes(name)) continue;
    const near = nearestNames(name, known, 3);
    throw new UsageError(
      `--ignore-fields: no table of the document has a field '${name}'`,
      near.length ? `did you mean ${near.join(' or ')}?` : "see a table's fields with 'cmdb schema <table>'",
    );
  }
}

/** `create certificate/ca A (global), create certificate/ca B (global)`: the steps of a one-line note. */
const inWords = (steps: Parameters<typeof stepInWords>[0][]) => steps.map((s) => stepInWords(s)).join(', ');

/**
 * The desired configuration and the plan that makes the device match it. `uuid` fields are left out when
 * the desired side comes from another device (`--from`, or a document whose `device.serial` is not the
 * target's) unless `withUuid`; each thing the plan leaves out is said once, on stderr.
 */
export async function planFor(
  ctx: Context,
  opts: PlanSource,
  tableInputs: string[],
): Promise<{ desired: Desired; planned: PlannedTables; facts: PlanFacts; comparisons: Comparison[] }> {
  const ignored = fieldList(opts.ignoreFields);
  const desired = await readDesiredFrom(ctx, opts, tableInputs);
  checkFieldNames(ignored, desired);
  const device = ctx.device();
  const current = await readCurrent(device, desired.tables, {
    prune: !!opts.prune,
    defaults: desired.defaultsExcluded,
  });
  // A table a backup leaves out that this device does not have (or will not list) has nothing to prune.
  const named = new Set(desired.tables.filter((t) => !desired.implied?.has(t)).map((t) => t.table));
  const failed = current.failures.find((f) => named.has(f.table) || !(f.missing || f.unlisted));
  if (failed) throw failed.error;
  const serial = (await device.client()).release?.serial;
  const from = desired.device?.serial;
  const otherDevice = desired.fromOtherDevice || (from !== undefined && serial !== undefined && from !== serial);
  const ignoreFields = new Set([...ignored, ...(otherDevice && !opts.withUuid ? ['uuid'] : [])]);
  const planned = computePlan(current.comparisons, {
    prune: !!opts.prune,
    ignoreFields,
    setSecrets: !!opts.setSecrets,
  });
  if (planned.notRestorable.length)
    ctx.out.warn(
      `not restorable through the API (the table does not allow it), left as it is: ${inWords(planned.notRestorable)}`,
    );
  if (planned.createdAnew.length)
    ctx.out.warn(
      `created again by every apply (key 0 and no name to find it by): ${inWords(
        planned.createdAnew.map((e) => ({ action: 'create', ...e })),
      )}`,
    );
  if (planned.secrets.length)
    ctx.out.notice(
      `secrets compared only as set or not (--set-secrets sends them): ${planned.secrets
        .map((s) => `${s.field} of ${stepInWords({ action: '', ...s }).trimStart()}`)
        .join(', ')}`,
    );
  return { desired, planned, facts: planFacts(planned, current.comparisons), comparisons: current.comparisons };
}

/**
 * The plan's reference problems (CLI.md "The plan is checked before anything is sent"), the tables and
 * users the check needs read first; what could not be checked is said once each, on stderr.
 */
export async function planProblems(
  ctx: Context,
  planned: PlannedTables,
  comparisons: readonly Comparison[],
  concurrency: number,
): Promise<PlanProblem[]> {
  const { problems, unchecked } = await checkReferences(ctx.device(), planned.steps, comparisons, { concurrency });
  for (const u of unchecked) ctx.out.notice(u.message);
  return problems.map(({ kind, vdom, table, key, field, value, message }) => ({
    kind,
    vdom,
    table,
    key,
    field,
    value,
    message,
  }));
}

/**
 * The facts of a plan's lines: each table's key and fields, and the `name` of every object of an
 * integer-keyed table with a `name` field, as the device has it, else as the document gives it.
 */
function planFacts(planned: PlannedTables, comparisons: readonly Comparison[]): PlanFacts {
  const names = new Map<string, string>();
  for (const { desired, actual } of comparisons) {
    const { vdom, table } = desired;
    if (table.keyType !== 'integer' || !('name' in table.fields)) continue;
    for (const content of [actual, desired.content]) {
      if (!Array.isArray(content)) continue;
      for (const object of content) {
        const slot = objectSlot(vdom, table.path, keyId(keyOf(table, object)));
        if (isObject(object) && typeof object.name === 'string' && object.name && !names.has(slot))
          names.set(slot, object.name);
      }
    }
  }
  return { tables: planned.tables, names };
}
