// `cmdb create`: E3, one object, or every element of an array or NDJSON file a few at once.
import { ApiError } from '../api/errors.js';
import type { QueryParams } from '../api/url.js';
import { isGlobal, keepsOrder, type TableDef } from '../catalogue/index.js';
import { targetsOf } from '../catalogue/references.js';
import { UsageError } from '../errors.js';
import { orderMoves } from '../plan/order.js';
import type { Step } from '../plan/plan.js';
import { checkReferences, inReferenceOrder } from '../plan/prepare.js';
import { readKeys } from '../plan/read.js';
import { evaluatesTopDown } from '../plan/references/index.js';
import { describeError } from '../run/hints.js';
import { mostSevere } from '../severity.js';
import type { Context } from '../run/context.js';
import { readBodies, streamNdjsonBodies, withInlineBody, type BodyOptions } from '../request/body.js';
import { bulkItem, forEachConcurrent, parseConcurrency, runScheduled, type BulkOutcome } from '../request/bulk.js';
import { requireOperation, vdomQuery } from '../request/table.js';
import {
  bulkPrinter,
  confirmSeveralVdoms,
  lineTable,
  printWrite,
  requestWrite,
  runWrites,
  steadyHeap,
  vdomsFor,
  type WriteOptions,
} from './common/request.js';
import { expectFields, severalVdoms } from '../outcome/index.js';
import type { BulkWrite } from './common/atomic.js';

export interface CreateOptions extends BodyOptions, WriteOptions {
  concurrency?: string;
  atomic?: boolean;
  strict?: boolean;
}

/** `cmdb create <table> [body]`: E3; an array body creates every element concurrently. */
export async function run(ctx: Context, args: { table: string; body?: string }, opts: CreateOptions): Promise<number> {
  return runWrites(ctx, opts, () => create(ctx, args, opts));
}

async function create(
  ctx: Context,
  { table: tableInput, body: inlineBody }: { table: string; body?: string },
  opts: CreateOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'C');
  let concurrency = parseConcurrency(opts.concurrency);
  // The device places objects in the order their creates land. A table it evaluates top-down (first
  // match wins) is written one object at a time, in the file's order, and stops at a failure; another
  // ordered table is written concurrently, then moved into the file's order (CLI.md).
  const topDown = keepsOrder(table) && evaluatesTopDown(table);
  if (topDown) {
    if (opts.concurrency !== undefined && concurrency > 1)
      ctx.out.notice(
        `${table.path} is evaluated top-down: its objects are created one at a time, ` +
          `in the file's order (--concurrency is not used)`,
      );
    concurrency = 1;
  }
  const bodyOptions = withInlineBody(opts, inlineBody);
  // A file may hold many thousands of objects, all read once to check them before the first is sent:
  // the heap is kept steady from that first read, or the young generation has grown by the time the
  // writes start.
  if (bodyOptions.file !== undefined) await steadyHeap();
  // An NDJSON file streams through; anything else is read whole.
  const stream = await streamNdjsonBodies(table, bodyOptions);
  const { bodies, many, note } = stream
    ? { bodies: stream.bodies(), many: true, note: undefined }
    : await readBodies(ctx.io.stdin, table, bodyOptions, true, { strict: opts.strict });
  if (note) ctx.out.notice(note);
  const keyOf = (body: Record<string, unknown>) =>
    table.key && table.key in body ? (body[table.key] as string | number) : undefined;
  const vdoms = vdomsFor(ctx, table);
  // A table whose objects name others: the file is held whole, checked and put in reference order.
  const refs = many && targetsOf(table).length > 0 ? await checkedCreates(ctx, table, bodies, vdoms) : undefined;
  if (opts.atomic) {
    // All or nothing: every element is held, to be sent inside one transaction.
    const all: Record<string, unknown>[] = [];
    if (!refs) for await (const body of bodies) all.push(body);
    const writes: BulkWrite[] = refs
      ? refs.steps.map(
          (s): BulkWrite =>
            s.action === 'create'
              ? { action: 'create', key: s.key, object: s.object }
              : { action: 'update', key: s.key as string | number, changes: (s as UpdateStep).changes },
        )
      : all.map((object) => ({ action: 'create', key: keyOf(object) ?? null, object }));
    return (await import('./common/atomic.js')).runAtomically(ctx, opts, table, writes);
  }
  const query = vdomQuery(vdoms);
  // The device names no key when it refuses a duplicate (in one VDOM of several, too): the key is the body's.
  const named = (body: Record<string, unknown>) => (err: ApiError) =>
    err.duplicate && keyOf(body) !== undefined ? err.about({ mkey: keyOf(body) }) : err;
  const create = (body: Record<string, unknown>, eachVdom = false) =>
    requestWrite(
      ctx,
      opts,
      table,
      { method: 'POST', query, body, eachVdom },
      expectFields(table, keyOf(body), body),
    ).then(
      (result) => (result.failed ? { ...result, failed: result.failed.map(named(body)) } : result),
      (err: unknown) => {
        throw err instanceof ApiError ? named(body)(err) : err;
      },
    );
  if (!many && Array.isArray(bodies)) {
    const result = await create(bodies[0], true);
    return printWrite(ctx, opts, result, 'created', table, keyOf(bodies[0]));
  }
  // Asked before the first item, so that a no is one answer, not an error per item.
  await confirmSeveralVdoms(ctx, opts, `create objects in ${table.path}`, query);
  await steadyHeap();
  const printer = bulkPrinter(ctx, opts, table, 'created');
  // Several VDOMs: one result per item and VDOM.
  const several = severalVdoms(query);
  const created: BulkOutcome[] = [];
  const done = async (outcomes: BulkOutcome[]) => {
    if (keepsOrder(table) && !topDown) created.push(...outcomes.filter((o) => o.result));
    await printer.add(outcomes);
  };
  let stopped = false;
  let unsent = 0;
  /** One create; after a failure in a top-down table, nothing more is sent. */
  const one = async (body: Record<string, unknown>): Promise<BulkOutcome[]> => {
    if (stopped) return (void unsent++, []);
    const outcomes = await bulkItem(keyOf(body) ?? null, () => create(body, several), several);
    if (topDown && outcomes.some((o) => o.error !== undefined)) stopped = true;
    return outcomes;
  };
  if (refs?.waits.some((w) => w.length)) {
    // Objects that name others of the file: each after those it names were created.
    const closing = (s: Step) => () =>
      requestWrite(
        ctx,
        opts,
        table,
        { method: 'PUT', mkey: s.key!, query, body: changedTo((s as UpdateStep).changes), eachVdom: several },
        null,
      );
    const results = await runScheduled<BulkOutcome[]>({
      count: refs.steps.length,
      concurrency,
      waits: (i) => refs.waits[i],
      work: (i) => {
        const s = refs.steps[i];
        return s.action === 'create' ? one(s.object) : bulkItem(s.key, closing(s), several);
      },
      succeeded: (outcomes) => outcomes.length > 0 && outcomes.every((o) => o.error === undefined),
      stopped: () => stopped,
    });
    for (const outcomes of results) {
      if (outcomes) await done(outcomes);
      else unsent++;
    }
  } else
    await forEachConcurrent(
      refs ? refs.steps.flatMap((s) => (s.action === 'create' ? [s.object] : [])) : bodies,
      concurrency,
      one,
      done,
    );
  if (unsent)
    ctx.out.warn(
      `${unsent} object${unsent === 1 ? ' was' : 's were'} not sent: ` +
        (topDown ? `${table.path} is evaluated top-down, and a create failed` : 'what they name was not created'),
    );
  const placed = keepsOrder(table) && !topDown && !opts.dryRun ? await placeCreated(ctx, table, query, created) : 0;
  return mostSevere([await printer.end(), placed]);
}

type UpdateStep = Extract<Step, { action: 'update' }>;

function changedTo(changes: Record<string, { to: unknown }>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(changes).map(([name, c]) => [name, c.to]));
}

/**
 * The objects of a bulk create, checked against the device (a name nobody has is exit 2 unless
 * --force) and in the order references require: an object after those of the file it names.
 */
async function checkedCreates(
  ctx: Context,
  table: TableDef,
  bodies: Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>,
  vdoms: string[] | undefined,
): Promise<{ steps: Step[]; waits: number[][] } | undefined> {
  const all: Record<string, unknown>[] = [];
  for await (const body of bodies) all.push(body);
  const device = ctx.device();
  const catalogue = await device.catalogue();
  const stepsIn = (vdom: string | null): Step[] =>
    all.map((object) => ({
      action: 'create',
      vdom,
      table: table.path,
      key: table.key && table.key in object ? (object[table.key] as string | number) : null,
      object,
    }));
  // Checked in each VDOM written ('' the management VDOM); every VDOM ('*') is not checked.
  const places = isGlobal(table) ? [null] : vdoms?.includes('*') ? [] : (vdoms ?? ['']);
  if (vdoms?.includes('*')) ctx.out.notice(`the references of objects created in every VDOM are not checked`);
  const problems: string[] = [];
  for (const vdom of places) {
    const { problems: found, unchecked } = await checkReferences(device, stepsIn(vdom), []);
    for (const u of unchecked) ctx.out.notice(u.message);
    problems.push(...found.map((p) => p.message));
  }
  for (const message of problems) ctx.out.warn(message);
  if (problems.length && !ctx.settings.force)
    throw new UsageError(
      `${problems.length} reference problem${problems.length === 1 ? '' : 's'} (listed above): nothing was sent`,
      'fix the file, or --force to send it anyway',
    );
  return inReferenceOrder(stepsIn(places[0] ?? ''), { find: (path) => catalogue.find(path) });
}

/**
 * An ordered table written concurrently: its new objects moved into the file's order where the
 * device's differs (they landed in the order their creates were answered), in each VDOM written.
 */
async function placeCreated(
  ctx: Context,
  table: TableDef,
  query: QueryParams | undefined,
  created: BulkOutcome[],
): Promise<number> {
  const byVdom = new Map<string | null, (string | number)[]>();
  for (const o of created) {
    const vdom = o.vdom ?? o.result?.vdom ?? null;
    if (o.mkey !== null) byVdom.set(vdom, [...(byVdom.get(vdom) ?? []), o.mkey]);
  }
  const client = await ctx.device().client();
  let moved = 0;
  for (const [vdom, keys] of byVdom) {
    if (keys.length < 2) continue;
    const vdoms = vdom ? [vdom] : (query?.vdom as string[] | undefined);
    let device: (string | number)[];
    try {
      device = await readKeys(client, table, vdoms);
    } catch (error) {
      const report = describeError(error);
      ctx.out.error({ ...report, message: `reading ${table.path} to put it in the file's order: ${report.message}` });
      return report.exit;
    }
    for (const move of orderMoves(device, keys)) {
      const where = 'before' in move ? { before: String(move.before) } : { after: String(move.after) };
      try {
        await client.request({
          method: 'PUT',
          tablePath: table.path,
          group: table.group,
          mkey: move.key,
          query: { ...(vdoms ? { vdom: vdoms } : {}), action: 'move', ...where },
        });
        moved++;
      } catch (error) {
        const report = describeError(error);
        ctx.out.error({
          ...report,
          message: `moving ${table.path} ${move.key} into the file's order: ${report.message}`,
        });
        return report.exit;
      }
    }
  }
  if (moved) ctx.out.notice(`moved ${moved} object${moved === 1 ? '' : 's'} of ${table.path} into the file's order`);
  return 0;
}
