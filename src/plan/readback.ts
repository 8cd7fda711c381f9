// A write of an apply whose answer was lost (the connection was reset or timed out after it was
// sent, or a commit whose answer never came) may or may not have taken effect. Its outcome is never
// guessed: the tables it touched are read back and each write is judged by what it meant to leave.
import type { CmdbClient } from '../api/client.js';
import { ConnectionError, MalformedAnswerError, outcomeUnknown } from '../api/errors.js';
import type { TableDef } from '../catalogue/index.js';
import { changedFields } from './compare.js';
import { isObject, keyId, keyOf, type Obj, type TableContent } from './document.js';
import { orderSlot, type Step } from './plan.js';
import { readTable } from './read.js';

/** How a write whose answer was lost turned out. */
export type StepOutcome = 'applied' | 'not applied' | 'unknown';

/** Reads of a table tried this often when the link keeps failing. */
const TRIES = 5;

/**
 * The read-back after one write (or one commit), its tries included, ends this many per-request
 * timeouts (--timeout) after it starts: a write whose answer was lost is reported within about three
 * timeouts (its own, then the read-back's two) however the link misbehaves, where five tries of a
 * read that never answers took five. Long runs stay bounded per request (README, "Retries").
 */
export const READ_BACK_TIMEOUTS = 2;

/** The deadline of one read-back, starting now: every read of it is given this signal. */
export function readBackDeadline(client: CmdbClient): AbortSignal {
  return AbortSignal.timeout(READ_BACK_TIMEOUTS * client.timeoutMs);
}

/** A table's content in a VDOM, read again until an answer comes or the deadline passes; null when none came. */
async function readAgain(client: CmdbClient, table: TableDef, vdom: string, deadline: AbortSignal): Promise<TableContent | null> {
  for (let tries = 0; tries < TRIES && !deadline.aborted; tries++) {
    try {
      return (await readTable(client, table, [vdom], { signal: deadline }))[0]?.content ?? null;
    } catch (err) {
      if (!outcomeUnknown(err) && !(err instanceof ConnectionError)) return null;
    }
  }
  return null;
}

function find(table: TableDef, content: TableContent, key: string | number | null): Obj | undefined {
  if (!Array.isArray(content)) return content;
  return content.find((object) => keyId(keyOf(table, object)) === keyId(key));
}

/** Whether the keys of `order` that the table holds stand in that order. */
function inOrder(table: TableDef, content: Obj[], order: (string | number)[]): boolean {
  const wanted = new Map(order.map((key, i) => [keyId(key), i]));
  const seen = content.map((o) => wanted.get(keyId(keyOf(table, o)))).filter((i) => i !== undefined);
  return seen.every((i, n) => n === 0 || seen[n - 1] < i);
}

/**
 * What the table shows of one write: done, not done, or neither (someone else changed it meanwhile).
 * A move is judged right after it was sent by where it stands (right before or after its anchor);
 * after a commit, when later moves may have put others between them, by the order all the table's
 * moves were to leave (`order`): before them it was not that order, else there would be no moves.
 */
function judge(table: TableDef, content: TableContent, step: Step, order: (string | number)[] | undefined): StepOutcome {
  const object = find(table, content, step.key);
  switch (step.action) {
    case 'create':
      if (!object) return 'not applied';
      return Object.keys(changedFields(table.fields, table.key, step.object, object)).length === 0 ? 'applied' : 'unknown';
    case 'update': {
      if (!object) return 'unknown';
      const wanted = Object.fromEntries(Object.entries(step.changes).map(([name, change]) => [name, change.to]));
      if (Object.keys(changedFields(table.fields, table.key, wanted, object)).length === 0) return 'applied';
      const before = Object.fromEntries(Object.entries(step.changes).map(([name, change]) => [name, change.from]));
      return Object.keys(changedFields(table.fields, table.key, before, object)).length === 0 ? 'not applied' : 'unknown';
    }
    case 'delete':
      return object ? 'not applied' : 'applied';
    case 'move': {
      if (!Array.isArray(content)) return 'unknown';
      if (order) return inOrder(table, content, order) ? 'applied' : 'not applied';
      const keys = content.map((o) => keyId(keyOf(table, o)));
      const at = keys.indexOf(keyId(step.key));
      const anchor = keys.indexOf(keyId('before' in step ? step.before : step.after));
      if (at < 0 || anchor < 0) return 'unknown';
      return at === anchor + ('before' in step ? -1 : 1) ? 'applied' : 'not applied';
    }
  }
}

/**
 * Whether each of some writes took effect, from one read of each table (and VDOM) they touch: a
 * create is there with its fields, an update's fields hold their new values (their old ones: not
 * applied), a delete's object is gone, a moved object stands right before or after its anchor (with
 * `orders`, after a commit: the table's objects stand in the order its moves were to leave).
 * `unknown` when the table cannot be read, or shows neither outcome.
 */
export async function readBack(client: CmdbClient, tables: Map<string, TableDef>, steps: Step[], orders?: Map<string, (string | number)[]>): Promise<StepOutcome[]> {
  const reads = new Map<string, Promise<TableContent | null>>();
  const deadline = readBackDeadline(client);
  const readOnce = (step: Step) => {
    const slot = `${step.vdom}\0${step.table}`;
    if (!reads.has(slot)) reads.set(slot, readAgain(client, tables.get(step.table)!, step.vdom, deadline));
    return reads.get(slot)!;
  };
  return Promise.all(
    steps.map(async (step) => {
      const content = await readOnce(step);
      return content === null || (!Array.isArray(content) && !isObject(content)) ? 'unknown' : judge(tables.get(step.table)!, content, step, orders?.get(orderSlot(step.vdom, step.table)));
    }),
  );
}

/** In words: how the answer was lost. */
export function howLost(err: unknown): string {
  return err instanceof MalformedAnswerError ? 'the answer broke off' : 'the connection was lost or timed out';
}
