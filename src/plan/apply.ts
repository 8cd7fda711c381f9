import type { ApiRequest, ApiResult, CmdbClient } from '../api/client.js';
import { Transaction, transactionTimeout } from '../api/transaction.js';
import type { Step } from './plan.js';

/** A write that failed, and why; `action: 'transaction'` when starting or committing a VDOM's transaction failed. */
export type FailedStep = (Step | { action: 'transaction'; vdom: string; table: null; key: null }) & { error: unknown };

/** What an apply did: CLI.md's `{"applied","failed","not_applied"}`. */
export interface ApplyReport {
  applied: Step[];
  failed: FailedStep | null;
  not_applied: Step[];
  /** --atomic: the transactions were aborted, so nothing was changed. */
  aborted: boolean;
  /** The run was interrupted (SIGINT/SIGTERM) before it finished. */
  interrupted: boolean;
}

export interface ApplyOptions {
  atomic: boolean;
  /** Aborted on an interruption: the run stops before its next write (--atomic: aborts its transactions). */
  signal?: AbortSignal;
  /** Called after each successful write (progress). */
  onApplied?: (step: Step) => void;
}

class Interrupted extends Error {}

/** Settles with the work, or rejects as soon as the signal fires, whichever comes first. */
function unlessInterrupted<T>(work: Promise<T>, signal: AbortSignal | undefined): Promise<T> {
  if (!signal) return work;
  if (signal.aborted) return Promise.reject(new Interrupted());
  return new Promise<T>((resolve, reject) => {
    const stop = () => reject(new Interrupted());
    signal.addEventListener('abort', stop, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener('abort', stop));
  });
}

function send(client: CmdbClient, tx: Transaction | undefined, request: ApiRequest): Promise<ApiResult> {
  return tx ? tx.request(request) : client.request(request);
}

/** One write after another, stopping at the first failure or an interruption (after the write in flight); what ran stays. */
async function applyInOrder(client: CmdbClient, steps: Step[], requests: ApiRequest[], options: ApplyOptions): Promise<ApplyReport> {
  const report: ApplyReport = { applied: [], failed: null, not_applied: [], aborted: false, interrupted: false };
  for (let i = 0; i < steps.length; i++) {
    if (options.signal?.aborted) {
      report.interrupted = true;
      report.not_applied = steps.slice(i);
      return report;
    }
    try {
      await send(client, undefined, requests[i]);
    } catch (error) {
      report.failed = { ...steps[i], error };
      report.not_applied = steps.slice(i + 1);
      return report;
    }
    report.applied.push(steps[i]);
    options.onApplied?.(steps[i]);
  }
  return report;
}

/**
 * Every VDOM's writes in its own device transaction; nothing is committed until all of them have
 * succeeded. Any failure, or an interruption, aborts every open transaction: the device is left as
 * it was.
 */
async function applyAtomically(client: CmdbClient, steps: Step[], requests: ApiRequest[], options: ApplyOptions): Promise<ApplyReport> {
  const report: ApplyReport = { applied: [], failed: null, not_applied: [], aborted: false, interrupted: false };
  const vdoms = [...new Set(steps.map((s) => s.vdom))];
  const open: Transaction[] = [];
  let failedStep: Step | undefined;
  let aborting: Promise<unknown> | undefined;
  const abortAll = () => (aborting ??= Promise.allSettled(open.map((tx) => tx.abort())));
  const onInterrupt = () => void abortAll();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  try {
    for (const vdom of vdoms) {
      const tx = await unlessInterrupted(Transaction.start(client, { vdom, timeoutSeconds: transactionTimeout(steps.length) }), options.signal);
      open.push(tx);
      for (let i = 0; i < steps.length; i++) {
        if (steps[i].vdom !== vdom) continue;
        try {
          await unlessInterrupted(send(client, tx, requests[i]), options.signal);
        } catch (error) {
          if (!(error instanceof Interrupted)) {
            failedStep = steps[i];
            report.failed = { ...steps[i], error };
          }
          throw error;
        }
      }
    }
  } catch (error) {
    await abortAll();
    report.aborted = true;
    report.interrupted = error instanceof Interrupted;
    if (!report.failed && !report.interrupted) report.failed = { action: 'transaction', vdom: vdoms[open.length] ?? vdoms[0], table: null, key: null, error };
    report.not_applied = steps.filter((s) => s !== failedStep);
    return report;
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
  }
  for (const [n, tx] of open.entries()) {
    try {
      await tx.commit();
    } catch (error) {
      await Promise.allSettled(open.slice(n + 1).map((t) => t.abort()));
      report.failed = { action: 'transaction', vdom: vdoms[n], table: null, key: null, error };
      report.not_applied = steps.filter((s) => vdoms.indexOf(s.vdom) >= n);
      return report;
    }
    for (const step of steps.filter((s) => s.vdom === vdoms[n])) {
      report.applied.push(step);
      options.onApplied?.(step);
    }
  }
  return report;
}

/** Sends a plan's writes in order (see Step), with or without device transactions. */
export function applySteps(client: CmdbClient, steps: Step[], requests: ApiRequest[], options: ApplyOptions): Promise<ApplyReport> {
  if (steps.length === 0) return Promise.resolve({ applied: [], failed: null, not_applied: [], aborted: false, interrupted: false });
  return options.atomic ? applyAtomically(client, steps, requests, options) : applyInOrder(client, steps, requests, options);
}

