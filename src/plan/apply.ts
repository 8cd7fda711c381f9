// The writes of a plan: in order, or each VDOM's in one transaction (--atomic); stopped at the first
// failure, interrupted cleanly, lost answers judged (src/outcome); and the report as printed.
import type { ApiRequest, ApiResult, CmdbClient } from '../api/client.js';
import { Transaction, transactionTimeout } from '../api/transaction.js';
import type { TableDef } from '../catalogue/index.js';
import { WriteOutcomeError } from '../errors.js';
import {
  answerLost,
  judgeCommitted,
  judgeLost,
  neverSent,
  unknownOutcome,
  type Expectation,
  type JudgeOptions,
  type Outcome,
} from '../outcome/index.js';
import type { Applied, ErrorReport } from '../output/index.js';
import { redactStep, type Step } from './plan.js';

/**
 * A write that failed, and why; `action: 'transaction'` when starting or committing a VDOM's
 * transaction failed. `outcome` when it never reached the device (`not_applied`), or its answer was
 * lost and reading back did not show it applied (`unknown`).
 */
export type FailedStep = (Step | { action: 'transaction'; vdom: string | null; table: null; key: null }) & {
  error: unknown;
  outcome?: Exclude<Outcome, 'applied'>;
};

/** A write done; `outcome: 'applied'` when its answer was lost and reading back showed it done. */
export type AppliedStep = Step & { outcome?: 'applied' };

/** What an apply did: CLI.md's `{"applied","failed","not_applied","unknown"}`. */
export interface ApplyReport {
  applied: AppliedStep[];
  failed: FailedStep | null;
  not_applied: Step[];
  /** Writes whose answer was lost and that reading back did not show applied: the device may still apply them. */
  unknown: Step[];
  /** --atomic: the transactions were aborted, so nothing was changed. */
  aborted: boolean;
  /** The run was interrupted (SIGINT/SIGTERM) before it finished. */
  interrupted: boolean;
}

export interface ApplyOptions {
  atomic: boolean;
  /**
   * The catalogue entry of every table of the steps: a write whose answer is lost is read back in it. Without: reported
   * as failed.
   */
  tables?: Map<string, TableDef>;
  /** PlannedTables.orders: how a lost commit's moves are read back. */
  orders?: Map<string, (string | number)[]>;
  /** Aborted on an interruption: the run stops before its next write (--atomic: aborts its transactions). */
  signal?: AbortSignal;
  /** Called after each successful write (progress). */
  onApplied?: (step: Step) => void;
  /** How the read back of a lost answer waits (tests). */
  judge?: JudgeOptions;
}

/** An empty report, to fill. */
export function emptyReport(): ApplyReport {
  return { applied: [], failed: null, not_applied: [], unknown: [], aborted: false, interrupted: false };
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

function requestStep(client: CmdbClient, tx: Transaction | undefined, request: ApiRequest): Promise<ApiResult> {
  return tx ? tx.request(request) : client.request(request);
}

/**
 * What a step should leave on the device, as the write-outcome module judges it; null: nothing to look for (the device
 * picks the key).
 */
function expectationOf(step: Step): Expectation | null {
  switch (step.action) {
    case 'create':
      return step.key === null ? null : { mkey: step.key, fields: step.object };
    case 'update':
      return {
        ...(step.key === null ? {} : { mkey: step.key }),
        fields: Object.fromEntries(Object.entries(step.changes).map(([name, change]) => [name, change.to])),
      };
    case 'delete':
      return step.key === null ? null : { mkey: step.key, gone: true };
    case 'move':
      return 'before' in step
        ? { mkey: step.key, moved: 'before', other: step.before }
        : { mkey: step.key, moved: 'after', other: step.after };
  }
}

const CHECK = {
  advice: "'cmdb diff' with the same document shows where the device stands: check it before applying again",
};

/**
 * One write after another, stopping at the first failure or an interruption (after the write in
 * flight); what ran stays. A write whose answer is lost is read back: applied, the run goes on;
 * unknown (not there: the device may still apply it), it is the failure that stops the run, as is a
 * write that never reached the device (not applied).
 */
async function applyInOrder(
  client: CmdbClient,
  steps: Step[],
  requests: ApiRequest[],
  options: ApplyOptions,
): Promise<ApplyReport> {
  const report = emptyReport();
  for (let i = 0; i < steps.length; i++) {
    if (options.signal?.aborted) {
      report.interrupted = true;
      report.not_applied = steps.slice(i);
      return report;
    }
    let applied: AppliedStep = steps[i];
    try {
      await requestStep(client, undefined, requests[i]);
    } catch (error) {
      const { error: shown, outcome } = await stepOutcome(client, steps[i], error, options);
      if (outcome === 'applied') {
        applied = { ...steps[i], outcome };
      } else {
        report.failed = { ...steps[i], error: shown, ...(outcome ? { outcome } : {}) };
        if (outcome === 'unknown') report.unknown = [steps[i]];
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
 * How a write that failed turned out: never sent, not applied; its answer lost, read back (applied,
 * or unknown); refused by the device, the device's error as it is.
 */
async function stepOutcome(
  client: CmdbClient,
  step: Step,
  error: unknown,
  options: ApplyOptions,
): Promise<{ error: unknown; outcome?: Outcome }> {
  if (neverSent(error)) return { error: WriteOutcomeError.notSent(error), outcome: 'not_applied' };
  const table = options.tables?.get(step.table);
  if (!table || !answerLost(error)) return { error };
  const expected = expectationOf(step);
  const judged =
    expected &&
    (await judgeLost(client, table, expected, step.vdom ? { vdom: [step.vdom] } : {}, error, options.judge));
  if (judged?.length === 1 && judged[0].outcome === 'applied') return { error, outcome: 'applied' };
  return {
    error: unknownOutcome('the write', error, CHECK, judged?.length !== 1 || judged[0].unreadable),
    outcome: 'unknown',
  };
}

/**
 * A commit whose answer was lost: when the transaction is still open the commit never happened, and
 * aborting it makes sure (not applied). Otherwise its writes are read back, all or nothing, since a
 * commit is: none there is not applied only when the transaction was seen closed.
 */
async function commitOutcome(
  client: CmdbClient,
  tx: Transaction,
  steps: Step[],
  tables: Map<string, TableDef>,
  orders: ApplyOptions['orders'],
): Promise<Outcome> {
  const open = await tx.isOpen().catch(() => null);
  if (open) {
    const aborted = await tx.abort().then(
      () => true,
      () => false,
    );
    if (aborted) return 'not_applied';
  }
  const writes = steps.map((step) => ({
    table: tables.get(step.table)!,
    vdom: step.vdom,
    expected: expectationOf(step),
  }));
  if (writes.some((w) => !w.table || !w.expected)) return 'unknown';
  // PlannedTables.orders is keyed by orderSlot(vdom, table), as judgeCommitted reads it.
  const outcome = await judgeCommitted(
    client,
    writes.map((w) => ({ ...w, expected: w.expected! })),
    orders,
  );
  return outcome === 'not_applied' && open !== false ? 'unknown' : outcome;
}

/**
 * Every VDOM's writes in its own device transaction, the global tables' in the first VDOM's; nothing
 * is committed until all of them have succeeded. Any failure, or an interruption, aborts every open
 * transaction: the device is left as it was.
 */
async function applyAtomically(
  client: CmdbClient,
  steps: Step[],
  requests: ApiRequest[],
  options: ApplyOptions,
): Promise<ApplyReport> {
  const report = emptyReport();
  const first = steps.find((s) => s.vdom !== null)?.vdom ?? null;
  const txOf = (s: Step) => s.vdom ?? first;
  const vdoms = [...new Set(steps.map(txOf))];
  const open: Transaction[] = [];
  let failedStep: Step | undefined;
  let aborting: Promise<unknown> | undefined;
  const abortAll = () => (aborting ??= Promise.allSettled(open.map((tx) => tx.abort())));
  const onInterrupt = () => void abortAll();
  options.signal?.addEventListener('abort', onInterrupt, { once: true });
  try {
    for (const vdom of vdoms) {
      const tx = await unlessInterrupted(
        Transaction.start(client, { vdom: vdom ?? undefined, timeoutSeconds: transactionTimeout(steps.length) }),
        options.signal,
      );
      open.push(tx);
      for (let i = 0; i < steps.length; i++) {
        if (txOf(steps[i]) !== vdom) continue;
        try {
          await unlessInterrupted(requestStep(client, tx, requests[i]), options.signal);
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
    if (!report.failed && !report.interrupted)
      report.failed = { action: 'transaction', vdom: vdoms[open.length] ?? vdoms[0], table: null, key: null, error };
    report.not_applied = steps.filter((s) => s !== failedStep);
    return report;
  } finally {
    options.signal?.removeEventListener('abort', onInterrupt);
  }
  for (const [n, tx] of open.entries()) {
    const committed = steps.filter((s) => txOf(s) === vdoms[n]);
    let outcome: Outcome | undefined;
    try {
      await tx.commit();
    } catch (error) {
      const what = `the commit of the transaction of ${vdoms[n] === null ? 'the global tables' : `vdom ${vdoms[n]}`}`;
      let shown: unknown = error;
      if (neverSent(error)) [outcome, shown] = ['not_applied', WriteOutcomeError.notSent(error)];
      else if (options.tables && answerLost(error))
        outcome = await commitOutcome(client, tx, committed, options.tables, options.orders);
      if (outcome === 'unknown') shown = unknownOutcome(what, error, CHECK, false);
      if (outcome === 'not_applied' && shown === error)
        shown = new WriteOutcomeError(
          `the answer to ${what} was lost; the transaction was aborted or had ended without it: not applied`,
          'nothing changed on the device for it: run the apply again',
          'not_applied',
          { cause: error },
        );
      if (outcome !== 'applied') {
        await Promise.allSettled(open.slice(n + 1).map((t) => t.abort()));
        report.failed = {
          action: 'transaction',
          vdom: vdoms[n],
          table: null,
          key: null,
          error: shown,
          ...(outcome ? { outcome } : {}),
        };
        if (outcome === 'unknown') report.unknown = committed;
        report.not_applied = steps.filter(
          (s) => vdoms.indexOf(txOf(s)) > n || (outcome !== 'unknown' && txOf(s) === vdoms[n]),
        );
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
export function applySteps(
  client: CmdbClient,
  steps: Step[],
  requests: ApiRequest[],
  options: ApplyOptions,
): Promise<ApplyReport> {
  if (steps.length === 0) return Promise.resolve(emptyReport());
  return options.atomic
    ? applyAtomically(client, steps, requests, options)
    : applyInOrder(client, steps, requests, options);
}

/**
 * What an apply did, as it is printed: its steps with secrets hidden, the failure in the user's words
 * (`describe`, the run's one map from an error to them).
 */
export function appliedReport(
  report: ApplyReport,
  tables: Map<string, TableDef>,
  options: { nothingToDo?: boolean; describe: (error: unknown) => ErrorReport },
): Applied {
  const shown = (steps: Step[]) => steps.map((s) => redactStep(s, tables));
  const failed = report.failed && {
    ...(report.failed.table === null ? report.failed : redactStep(report.failed, tables)),
    error: options.describe(report.failed.error),
  };
  return {
    kind: 'applied',
    applied: shown(report.applied),
    failed,
    notApplied: shown(report.not_applied),
    unknown: shown(report.unknown),
    aborted: report.aborted,
    interrupted: report.interrupted,
    nothingToDo: !!options.nothingToDo,
  };
}
