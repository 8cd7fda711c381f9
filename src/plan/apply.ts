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
import { runScheduled } from '../request/bulk.js';
import { orderMoves } from './order.js';
import { requestOf, redactStep, type Step } from './plan.js';
import { readKeys } from './read.js';

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
  /** Writes that failed beside `failed` (several run at once), each also in `not_applied`. */
  also_failed: FailedStep[];
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
  /**
   * For each step, the positions of the steps it waits for (the reference library's `waits()`); without,
   * each step waits for the one before it.
   */
  waits?: number[][];
  /** Writes at once (without --atomic); 1 by default: one after another. */
  concurrency?: number;
  /** Tables written concurrently whose planned moves are worked out again once their creates have landed. */
  placements?: Placement[];
}

/** An empty report, to fill. */
export function emptyReport(): ApplyReport {
  return {
    applied: [],
    failed: null,
    not_applied: [],
    unknown: [],
    aborted: false,
    interrupted: false,
    also_failed: [],
  };
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

/** A keyed table whose order matters, written concurrently: its order is restored once its creates have landed. */
export interface Placement {
  vdom: string | null;
  table: TableDef;
  /** The document's order of the table's keys (objects it does not list stay where they are). */
  order: (string | number)[];
}

/** The slot of a table of a VDOM, as orderSlot() files it. */
const slotOf = (vdom: string | null, table: string) => `${vdom}\0${table}`;

type Ran = { ok: true; step: AppliedStep } | { ok: false; failed: FailedStep } | { ok: true; skipped: true };

/**
 * The writes of a plan, `concurrency` at once, each after the steps it waits for (`waits`, else the
 * one before it) have succeeded; the creates and updates (and moves) first, then the tables of
 * `placements` moved into the document's order as the device now holds them, then the deletes. After a
 * failure or an interruption no new write starts; those in flight finish, and what ran stays. A write
 * whose answer is lost is read back: applied, the run goes on; unknown (not there: the device may still
 * apply it), it is a failure, as is a write that never reached the device (not applied).
 */
async function applyConcurrently(
  client: CmdbClient,
  steps: Step[],
  requests: ApiRequest[],
  options: ApplyOptions,
): Promise<ApplyReport> {
  const report = emptyReport();
  const failures: FailedStep[] = [];
  let stopped = false;
  const halted = () => stopped || !!options.signal?.aborted;
  const placed = new Set((options.placements ?? []).map((p) => slotOf(p.vdom, p.table.path)));
  /** A planned move of a placed table: worked out again once its creates have landed. */
  const isPlacedMove = (step: Step) =>
    step.action === 'move' && !(step as { placed?: true }).placed && placed.has(slotOf(step.vdom, step.table));
  const write = async (step: Step & { placed?: true }, request: ApiRequest): Promise<Ran> => {
    if (isPlacedMove(step)) return { ok: true, skipped: true };
    try {
      await requestStep(client, undefined, request);
      options.onApplied?.(stripPlaced(step));
      return { ok: true, step: stripPlaced(step) };
    } catch (error) {
      const { error: shown, outcome } = await stepOutcome(client, step, error, options);
      if (outcome === 'applied') {
        options.onApplied?.(stripPlaced(step));
        return { ok: true, step: { ...stripPlaced(step), outcome } };
      }
      stopped = true;
      const failed = { ...stripPlaced(step), error: shown, ...(outcome ? { outcome } : {}) };
      failures.push(failed);
      return { ok: false, failed };
    }
  };
  /** One phase: steps from..to (a slice of the plan), each waiting for the steps of the same phase it waits for. */
  const phase = async (from: number, to: number): Promise<(Ran | undefined)[]> =>
    runScheduled<Ran>({
      count: to - from,
      concurrency: Math.max(1, options.concurrency ?? 1),
      waits: (i) =>
        options.waits ? options.waits[from + i].filter((w) => w >= from).map((w) => w - from) : i ? [i - 1] : [],
      work: (i) => write(steps[from + i], requests[from + i]),
      succeeded: (ran) => ran.ok,
      stopped: halted,
    });
  // The plan's deletes come after its other steps (the reference library keeps them there).
  let firstDelete = steps.findIndex((s) => s.action === 'delete');
  if (firstDelete < 0) firstDelete = steps.length;
  const done: (Ran | undefined)[] = await phase(0, firstDelete);
  const moved: AppliedStep[] = [];
  const unplaced: Step[] = [];
  for (const placement of options.placements ?? []) {
    const slot = slotOf(placement.vdom, placement.table.path);
    const planned = steps.filter((s) => s.action === 'move' && slotOf(s.vdom, s.table) === slot);
    if (halted()) {
      unplaced.push(...planned);
      continue;
    }
    // The device's order read again; a table that cannot be read gets the planned moves.
    const moves = await placementMoves(client, placement, options.signal).catch(() => planned);
    for (const [n, move] of moves.entries()) {
      if (halted()) {
        unplaced.push(...moves.slice(n));
        break;
      }
      const ran = await write({ ...move, placed: true }, requestOf(move, placement.table));
      if ('step' in ran) moved.push(ran.step);
    }
  }
  if (!halted()) done.push(...(await phase(firstDelete, steps.length)));
  done.forEach((ran, i) => {
    if (ran && 'step' in ran && i < firstDelete) report.applied.push(ran.step);
  });
  report.applied.push(...moved);
  done.forEach((ran, i) => {
    if (ran && 'step' in ran && i >= firstDelete) report.applied.push(ran.step);
  });
  report.failed = failures[0] ?? null;
  for (const failed of failures) if (failed.outcome === 'unknown') report.unknown.push(stripFailure(failed));
  for (let i = 0; i < steps.length; i++) {
    const ran = done[i];
    if (!ran && !isPlacedMove(steps[i])) report.not_applied.push(steps[i]);
  }
  // The other writes that failed beside the first were not applied (or are unknown, above).
  report.also_failed = failures.slice(1).filter((f) => f.outcome !== 'unknown');
  report.not_applied.push(...report.also_failed.map(stripFailure));
  report.not_applied.push(...unplaced);
  report.interrupted = !!options.signal?.aborted && (report.not_applied.length > 0 || !!report.failed);
  return report;
}

/** A failed step as the plan had it. */
function stripFailure(failed: FailedStep): Step {
  const { error: _, outcome: __, ...step } = failed;
  return step as Step;
}

/** A move of a placement as the plan would have it. */
function stripPlaced<S extends Step>(step: S): S {
  if (!('placed' in step)) return step;
  const { placed: _, ...rest } = step as S & { placed?: true };
  return rest as unknown as S;
}

/** The moves that put a table, as the device now orders it, in the document's order. */
async function placementMoves(client: CmdbClient, placement: Placement, signal?: AbortSignal): Promise<Step[]> {
  const { table, vdom } = placement;
  const device = await readKeys(client, table, vdom === null ? undefined : [vdom], signal);
  return orderMoves(device, placement.order).map((move) => ({
    action: 'move' as const,
    vdom,
    table: table.path,
    ...move,
  }));
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
    : applyConcurrently(client, steps, requests, options);
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
    ...(report.also_failed.length
      ? {
          alsoFailed: report.also_failed.map((f) => ({
            ...(f.table === null ? f : redactStep(f as Step, tables)),
            error: options.describe(f.error),
          })),
        }
      : {}),
    aborted: report.aborted,
    interrupted: report.interrupted,
    nothingToDo: !!options.nothingToDo,
  };
}
