import type { ApiRequest, ApiResult, CmdbClient } from '../api/client.js';
import { outcomeUnknown } from '../api/errors.js';
import { Transaction, transactionTimeout } from '../api/transaction.js';
import type { TableDef } from '../catalogue/index.js';
import { WriteOutcomeError } from '../errors.js';
import type { Step } from './plan.js';
import { howLost, readBack, type StepOutcome } from './readback.js';

/**
 * A write that failed, and why; `action: 'transaction'` when starting or committing a VDOM's
 * transaction failed. `outcome` when its answer was lost and reading back showed it not applied, or
 * could not tell.
 */
export type FailedStep = (Step | { action: 'transaction'; vdom: string; table: null; key: null }) & { error: unknown; outcome?: 'not applied' | 'unknown' };

/** A write done; `outcome: 'applied'` when its answer was lost and reading back showed it done. */
export type AppliedStep = Step & { outcome?: 'applied' };

/** What an apply did: CLI.md's `{"applied","failed","not_applied"}`. */
export interface ApplyReport {
  applied: AppliedStep[];
  failed: FailedStep | null;
  not_applied: Step[];
  /** --atomic: the transactions were aborted, so nothing was changed. */
  aborted: boolean;
  /** The run was interrupted (SIGINT/SIGTERM) before it finished. */
  interrupted: boolean;
}

export interface ApplyOptions {
  atomic: boolean;
  /** The catalogue entry of every table of the steps: a write whose answer is lost is read back in it. Without: reported as failed. */
  tables?: Map<string, TableDef>;
  /** PlannedTables.orders: how a lost commit's moves are read back. */
  orders?: Map<string, (string | number)[]>;
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

/** The error of writes whose answer was lost and that reading back found not applied, or could not tell. */
function lostAnswer(error: unknown, what: string, outcome: Exclude<StepOutcome, 'applied'>): WriteOutcomeError {
  const lost = howLost(error);
  return outcome === 'unknown'
    ? new WriteOutcomeError(`${lost} after ${what} was sent, and reading it back could not tell whether it was applied`, "'cmdb diff' with the same document shows where the device stands", 'unknown', { cause: error })
    : new WriteOutcomeError(`${lost} after ${what} was sent; reading it back shows it was not applied`, 'nothing changed on the device for it: run the apply again', 'not applied', { cause: error });
}

/**
 * One write after another, stopping at the first failure or an interruption (after the write in
 * flight); what ran stays. A write whose answer is lost is read back: applied, the run goes on;
 * not applied (or no telling), it is the failure that stops the run.
 */
async function applyInOrder(client: CmdbClient, steps: Step[], requests: ApiRequest[], options: ApplyOptions): Promise<ApplyReport> {
  const report: ApplyReport = { applied: [], failed: null, not_applied: [], aborted: false, interrupted: false };
  for (let i = 0; i < steps.length; i++) {
    if (options.signal?.aborted) {
      report.interrupted = true;
      report.not_applied = steps.slice(i);
      return report;
    }
    let applied: AppliedStep = steps[i];
    try {
      await send(client, undefined, requests[i]);
    } catch (error) {
      const [outcome] = options.tables && outcomeUnknown(error) ? await readBack(client, options.tables, [steps[i]]) : [null];
      if (outcome === 'applied') {
        applied = { ...steps[i], outcome };
      } else {
        report.failed = outcome ? { ...steps[i], error: lostAnswer(error, 'the write', outcome), outcome } : { ...steps[i], error };
        report.not_applied = steps.slice(i + 1);
        return report;
      }
    }
    report.applied.push(applied);
    options.onApplied?.(steps[i]);
  }
  return report;
}

/**
 * A commit whose answer was lost: when the transaction is still open the commit never happened, and
 * aborting it makes sure (not applied). Otherwise it ended, committed or not: its writes are read
 * back, all or nothing, since a commit is.
 */
async function commitOutcome(client: CmdbClient, tx: Transaction, steps: Step[], options: ApplyOptions & { tables: Map<string, TableDef> }): Promise<StepOutcome> {
  const open = await tx.isOpen().catch(() => null);
  if (open) {
    const aborted = await tx.abort().then(() => true, () => false);
    if (aborted) return 'not applied';
  }
  const outcomes = await readBack(client, options.tables, steps, options.orders);
  if (outcomes.every((o) => o === 'applied')) return 'applied';
  if (outcomes.every((o) => o === 'not applied')) return 'not applied';
  return 'unknown';
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
    const committed = steps.filter((s) => s.vdom === vdoms[n]);
    let outcome: StepOutcome | undefined;
    try {
      await tx.commit();
    } catch (error) {
      if (options.tables && outcomeUnknown(error)) outcome = await commitOutcome(client, tx, committed, { ...options, tables: options.tables });
      if (outcome !== 'applied') {
        await Promise.allSettled(open.slice(n + 1).map((t) => t.abort()));
        const failed = { action: 'transaction' as const, vdom: vdoms[n], table: null, key: null };
        report.failed = outcome ? { ...failed, error: lostAnswer(error, `the commit of the transaction of vdom ${vdoms[n]}`, outcome), outcome } : { ...failed, error };
        report.not_applied = steps.filter((s) => vdoms.indexOf(s.vdom) >= n);
        return report;
      }
    }
    for (const step of committed) {
      report.applied.push(outcome === 'applied' ? { ...step, outcome } : step);
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

