import type { ApiResult, Envelope } from '../api/client.js';
import { UsageError } from '../errors.js';
import type { WriteResult } from '../output/index.js';

/** Runs `work` over items with at most `concurrency` in flight, keeping results in input order. */
export async function mapConcurrent<T, R>(items: T[], concurrency: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, items.length)) }, worker));
  return results;
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
  return { status: e.status ?? 'success', mkey: e.mkey ?? fallbackMkey ?? null, revision: e.revision ?? null, vdom: e.vdom ?? null };
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
