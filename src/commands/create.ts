// `cmdb create`: E3, one object, or every element of an array or NDJSON file a few at once.
import { ApiError } from '../api/errors.js';
import { keepsOrder } from '../catalogue/index.js';
import type { Context } from '../run/context.js';
import { readBodies, streamNdjsonBodies, withInlineBody, type BodyOptions } from '../request/body.js';
import { bulkItem, forEachConcurrent, parseConcurrency } from '../request/bulk.js';
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
  // The device places objects in the order their creates land; where that order matters (the rule
  // apply uses), they are sent one at a time, in the file's order.
  if (keepsOrder(table)) {
    if (opts.concurrency !== undefined && concurrency > 1)
      ctx.out.notice(
        `${table.path} keeps its objects in order: they are created one at a time, ` +
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
  if (opts.atomic) {
    // All or nothing: every element is held, to be sent inside one transaction.
    const all: Record<string, unknown>[] = [];
    for await (const body of bodies) all.push(body);
    return (await import('./common/atomic.js')).runAtomically(
      ctx,
      opts,
      table,
      all.map((object) => ({ action: 'create', key: keyOf(object) ?? null, object })),
    );
  }
  const query = vdomQuery(vdomsFor(ctx, table));
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
  await forEachConcurrent(
    bodies,
    concurrency,
    (body) => bulkItem(keyOf(body) ?? null, () => create(body, several), several),
    (o) => printer.add(o),
  );
  return printer.end();
}
