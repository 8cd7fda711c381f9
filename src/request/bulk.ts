import type { ApiResult, Envelope } from '../api/client.js';
import { UsageError } from '../errors.js';
import type { WriteResult } from '../output/index.js';

/**
 * Runs `work` over items as they come, at most `concurrency` at once, and hands each result to `done`
 * in input order. At most `concurrency` items are held, however many the source gives; `work` must not
 * reject (bulkItem keeps errors as outcomes).
 */
export async function forEachConcurrent<T, R>(items: Iterable<T> | AsyncIterable<T>, concurrency: number, work: (item: T) => Promise<R>, done: (result: R) => Promise<void>): Promise<void> {
  const pending: Promise<R>[] = [];
  for await (const item of items) {
    pending.push(work(item));
    if (pending.length >= concurrency) await done(await pending.shift()!);
  }
  while (pending.length) await done(await pending.shift()!);
}

export function parseConcurrency(raw: string | undefined): number {
  if (raw === undefined) return 4;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new UsageError(`invalid --concurrency '${raw}'`, 'give a whole number from 1 to 64');
  return n;
}

/** One item of a bulk write: its result, or its error. */
export interface BulkOutcome {
  mkey: string | number | null;
  result?: WriteResult;
  error?: unknown;
}

/** What the device said of one write, with the key the command knew when the device did not say it. */
export function writeResult(e: Envelope, fallbackMkey?: string | number): WriteResult {
  const outcome = typeof e.outcome === 'string' ? { outcome: e.outcome } : {};
  return { status: e.status ?? 'success', mkey: e.mkey ?? fallbackMkey ?? null, revision: e.revision ?? null, vdom: e.vdom ?? null, ...outcome };
}

/** Runs one item of a bulk write and keeps its error instead of stopping. */
export async function bulkItem(mkey: string | number | null, work: () => Promise<ApiResult>): Promise<BulkOutcome> {
  try {
    const result = await work();
    const r = writeResult(result.envelopes[0] ?? {}, mkey ?? undefined);
    return { mkey: r.mkey ?? mkey, result: r };
  } catch (error) {
    return { mkey, error };
  }
}
