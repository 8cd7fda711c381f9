// What a bulk command shares: items worked on a few at once in input order, the --concurrency it
// allows, and each item's outcome kept (a result or an error) instead of stopping the run.
import type { ApiResult, Envelope } from '../api/client.js';
import { UsageError } from '../errors.js';
import type { WriteResult } from '../output/index.js';

/**
 * Runs `work` over items as they come, at most `concurrency` at once, and hands each result to `done`
 * in input order. At most `concurrency` items are held, however many the source gives; `work` must not
 * reject (bulkItem keeps errors as outcomes).
 */
export async function forEachConcurrent<T, R>(
  items: Iterable<T> | AsyncIterable<T>,
  concurrency: number,
  work: (item: T) => Promise<R>,
  done: (result: R) => Promise<void>,
): Promise<void> {
  const pending: Promise<R>[] = [];
  for await (const item of items) {
    pending.push(work(item));
    if (pending.length >= concurrency) await done(await pending.shift()!);
  }
  while (pending.length) await done(await pending.shift()!);
}

/**
 * `work` over every item, `concurrency` at once over the device's one connection pool; each result or
 * error in input order (`onSettled` as each one settles).
 */
export async function settleConcurrent<T, R>(
  items: T[],
  work: (item: T) => Promise<R>,
  concurrency: number,
  onSettled?: () => void,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  const settle = (item: T) =>
    work(item)
      .then(
        (value): PromiseSettledResult<R> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<R> => ({ status: 'rejected', reason }),
      )
      .finally(onSettled);
  await forEachConcurrent(items, concurrency, settle, async (result) => void results.push(result));
  return results;
}

export function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return 4;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64)
    throw new UsageError(`invalid --concurrency '${raw}'`, 'give a whole number from 1 to 64');
  return n;
}

/** One item of a bulk write (in one VDOM, when the run writes to several): its result, or its error. */
export interface BulkOutcome {
  mkey: string | number | null;
  /** The VDOM this result is for, when the run writes to several (null: the request as a whole failed). */
  vdom?: string | null;
  result?: WriteResult;
  error?: unknown;
}

/**
 * A write's answer: the VDOMs that succeeded, those that refused (`failed`) and those whose lost answer was not shown
 * applied (`lost`).
 */
type ItemAnswer = ApiResult & { lost?: { vdom: string | null; error: unknown }[] };

/** What the device said of one write, with the key the command knew when the device did not say it. */
export function writeResult(e: Envelope, fallbackMkey?: string | number): WriteResult {
  const outcome = typeof e.outcome === 'string' ? { outcome: e.outcome } : {};
  return {
    status: e.status ?? 'success',
    mkey: e.mkey ?? fallbackMkey ?? null,
    revision: e.revision ?? null,
    vdom: e.vdom ?? null,
    ...outcome,
  };
}

/**
 * Runs one item of a bulk write and keeps its errors instead of stopping: one outcome, or with
 * `severalVdoms` (a run that writes to several) one per VDOM, in the device's order of VDOMs. A request that
 * failed as a whole is one error, for no VDOM in particular (`vdom: null`).
 */
export async function bulkItem(
  mkey: string | number | null,
  work: () => Promise<ItemAnswer>,
  severalVdoms = false,
): Promise<BulkOutcome[]> {
  let answer: ItemAnswer;
  try {
    answer = await work();
  } catch (error) {
    // Refused as a whole (a 403 for one VDOM refuses them all, as devices do), or no answer: one error.
    return [{ mkey, ...(severalVdoms ? { vdom: null } : {}), error }];
  }
  if (!severalVdoms) {
    const r = writeResult(answer.envelopes[0] ?? {}, mkey ?? undefined);
    return [{ mkey: r.mkey ?? mkey, result: r }];
  }
  const outcomes: BulkOutcome[] = [
    ...answer.envelopes.map((e) => ({ mkey, vdom: e.vdom ?? null, result: writeResult(e, mkey ?? undefined) })),
    ...(answer.failed ?? []).map((error) => ({ mkey, vdom: error.subject.vdoms?.[0] ?? null, error })),
    ...(answer.lost ?? []).map((l) => ({ mkey, vdom: l.vdom, error: l.error })),
  ];
  const order = (Array.isArray(answer.body) ? answer.body : []).map((e) =>
    e && typeof e === 'object' ? (e as { vdom?: unknown }).vdom : undefined,
  );
  const at = (o: BulkOutcome) => {
    const i = order.indexOf(o.vdom ?? undefined);
    return i < 0 ? order.length : i;
  };
  return outcomes.sort((a, b) => at(a) - at(b));
}

/** Which steps of a schedule may start, and how each turned out. */
export interface Schedule<R> {
  /** How many steps: 0 .. count-1, started in that order among those ready. */
  count: number;
  concurrency: number;
  /** The positions (all before i) of the steps step i waits for: each must have succeeded before it starts. */
  waits?: (i: number) => readonly number[];
  /** Runs step i; must not reject. */
  work: (i: number) => Promise<R>;
  /** Whether a finished step succeeded: only then may the steps waiting for it start. */
  succeeded: (result: R) => boolean;
  /** Whether no new step may start any more (a failure stops the run, an interruption); asked before each start. */
  stopped?: () => boolean;
}

/**
 * Runs the steps of a schedule, at most `concurrency` at once, each once every step it waits for has
 * succeeded, the ready ones in position order. A step that was never started (what it waits for
 * failed, or the run stopped) has no result.
 */
export async function runScheduled<R>(schedule: Schedule<R>): Promise<(R | undefined)[]> {
  const { count, concurrency } = schedule;
  const results: (R | undefined)[] = Array.from({ length: count }, () => undefined);
  const missing = new Int32Array(count);
  const dependants: number[][] = Array.from({ length: count }, () => []);
  const ready = new MinHeap();
  for (let i = 0; i < count; i++) {
    const waits = schedule.waits?.(i) ?? [];
    missing[i] = waits.length;
    for (const w of waits) dependants[w].push(i);
    if (!waits.length) ready.push(i);
  }
  let running = 0;
  return new Promise((resolve) => {
    const pump = () => {
      while (running < concurrency && ready.size && !schedule.stopped?.()) {
        const i = ready.pop();
        running++;
        void schedule.work(i).then((result) => {
          results[i] = result;
          running--;
          if (schedule.succeeded(result)) for (const d of dependants[i]) if (--missing[d] === 0) ready.push(d);
          pump();
        });
      }
      if (running === 0) resolve(results);
    };
    pump();
  });
}

/** The smallest position first. */
class MinHeap {
  private readonly items: number[] = [];
  get size(): number {
    return this.items.length;
  }
  push(value: number): void {
    const a = this.items;
    a.push(value);
    for (let i = a.length - 1; i > 0; ) {
      const parent = (i - 1) >> 1;
      if (a[parent] <= a[i]) break;
      [a[parent], a[i]] = [a[i], a[parent]];
      i = parent;
    }
  }
  pop(): number {
    const a = this.items;
    const top = a[0];
    const last = a.pop()!;
    if (a.length) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l] < a[m]) m = l;
        if (r < a.length && a[r] < a[m]) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i], a[m]];
        i = m;
      }
    }
    return top;
  }
}
