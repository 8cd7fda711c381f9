// The one judge of a write whose answer was lost (single writes, bulk items, apply steps, moves,
// clones, the commit of a transaction). A write that went out and then lost its connection, timed out
// or had its answer cut off may still be on its way: the device may apply it after the read that does
// not find it. So its outcome is never guessed: the object is read back, and once more after a short
// wait when the change is not there; `applied` when a read shows it, `not_applied` only when the
// request provably never reached the device (refused, or no connection was ever made), else `unknown`.
// Takes plain values (the client, the table, what was sent); the words of its errors are the CLI's
// (src/errors.ts WriteOutcomeError), worded here because they name the write.
import type { ApiRequest, ApiResult, CmdbClient } from '../api/client.js';
import { ApiError, ConnectionError, MalformedAnswerError, outcomeUnknown } from '../api/errors.js';
import type { QueryParams } from '../api/url.js';
import type { TableDef } from '../catalogue/index.js';
import { isMetaField } from '../catalogue/validate.js';
import { WriteOutcomeError } from '../errors.js';
import { changedFields } from '../objects/compare.js';
import { shellWord, vdomFlag } from '../request/shell.js';

type Obj = Record<string, unknown>;
type Key = string | number;

/** How a write turned out: CLI.md's `outcome` values. */
export type Outcome = 'applied' | 'not_applied' | 'unknown';

/**
 * What a write should leave on the device: the object with these fields (a create or update; no key:
 * a singleton), no object at all (a delete), the object right before or after another (a move), a
 * copy of another object under the new key (a clone).
 */
export type Expectation =
  | { mkey?: Key; fields: Obj }
  | { mkey: Key; gone: true }
  | { mkey: Key; moved: 'before' | 'after'; other: Key }
  | { mkey: Key; cloneOf: Key };

/** How to wait before the second read (tests pass one that does not sleep). */
export interface JudgeOptions {
  pause?: (ms: number) => Promise<void>;
}

/** Reads tried this often while the link keeps failing. */
const READ_TRIES = 5;
/**
 * The read-back after one write (or one commit), its tries and its second look included, ends this
 * many per-request timeouts (--timeout) after it starts: a write whose answer was lost is reported
 * within about four timeouts (its own, then the read-back's three) however the link misbehaves.
 * Long runs stay bounded per request, not as a whole.
 */
export const READ_BACK_TIMEOUTS = 3;

/** The deadline of one read-back, starting now: every read of it is given this signal. */
function readBackDeadline(client: CmdbClient): AbortSignal {
  return AbortSignal.timeout(READ_BACK_TIMEOUTS * client.timeoutMs);
}
/** The wait before reading again a change not found: a timed-out write may land up to a timeout later. */
const MAX_SETTLE_MS = 3000;
const RESET_SETTLE_MS = 1000;

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Undici's code for a connection that was never set up in time (nothing was written on it). */
function causeCode(err: unknown): string | undefined {
  let e = err as { code?: unknown; cause?: unknown } | undefined;
  for (let i = 0; i < 6 && e; i++) {
    if (typeof e.code === 'string' && e.code !== 'UND_ERR_SOCKET') return e.code;
    e = e.cause as typeof e;
  }
  return undefined;
}

/** Whether a request provably never reached the device: no connection to it was ever made. */
export function neverSent(err: unknown): boolean {
  if (!(err instanceof ConnectionError)) return false;
  if (['dns', 'refused', 'unreachable', 'tls-verify', 'pin-mismatch', 'tls-handshake'].includes(err.reason))
    return true;
  return causeCode(err) === 'UND_ERR_CONNECT_TIMEOUT';
}

/** Whether a write that failed so may have been applied: it went out, and its answer was lost. */
export function answerLost(err: unknown): boolean {
  return !neverSent(err) && outcomeUnknown(err);
}

/** In words: how the answer was lost. */
function howLost(err: unknown): string {
  if (err instanceof MalformedAnswerError) return 'the answer broke off';
  if (err instanceof ConnectionError && err.reason === 'timeout')
    return `no answer came within ${Math.round(err.timeoutMs / 1000)}s`;
  return 'the connection was lost';
}

function settleMs(client: CmdbClient, err: unknown): number {
  return err instanceof ConnectionError && err.reason === 'timeout'
    ? Math.min(client.timeoutMs, MAX_SETTLE_MS)
    : RESET_SETTLE_MS;
}

/** Whether a query names several VDOMs (`a,b` or `*`): the device answers each in its own envelope. */
export function severalVdoms(query: QueryParams | undefined): boolean {
  return !!query?.vdom && (query.vdom.length > 1 || query.vdom[0] === '*');
}

/** What one VDOM holds: objects (an item read gives a list of one), a singleton's object, or nothing. */
interface Seen {
  vdom: string | null;
  content: Obj[] | Obj | null;
  /** The VDOM refused the read (no access, an error): what it holds is unknown. */
  unreadable?: boolean;
}

/**
 * Reads `mkey` (or the whole table, `format` its fields) in each VDOM of `query`, one request for all;
 * a VDOM that refuses the read is unreadable, one without the object holds nothing. Null when no
 * answer came after a few tries.
 */
async function readEach(
  client: CmdbClient,
  table: TableDef,
  mkey: Key | undefined,
  query: QueryParams,
  deadline: AbortSignal,
  extra: QueryParams = {},
): Promise<Seen[] | null> {
  const vdom = query.vdom;
  const one = vdom && !severalVdoms(query) ? vdom[0] : null;
  for (let tries = 0; tries < READ_TRIES && !deadline.aborted; tries++) {
    try {
      const result = await client.request({
        method: 'GET',
        tablePath: table.path,
        group: table.group,
        mkey,
        query: { ...extra, ...(vdom ? { vdom } : {}) },
        eachVdom: severalVdoms(query),
        signal: deadline,
      });
      const seen: Seen[] = result.envelopes.map((e) => ({ vdom: e.vdom ?? one, content: contentOf(e.results) }));
      for (const err of result.failed ?? [])
        seen.push({ vdom: err.subject.vdoms?.[0] ?? null, content: null, unreadable: !err.notFound });
      return seen;
    } catch (err) {
      if (err instanceof ApiError && err.notFound) return [{ vdom: one, content: null }];
      if (!outcomeUnknown(err) && !(err instanceof ConnectionError)) return null;
    }
  }
  return null;
}

function contentOf(results: unknown): Obj[] | Obj | null {
  if (Array.isArray(results)) return results.filter((o): o is Obj => !!o && typeof o === 'object' && !Array.isArray(o));
  return results && typeof results === 'object' ? (results as Obj) : null;
}

function find(table: TableDef, content: Obj[] | Obj | null, mkey: Key | undefined): Obj | null {
  if (!content) return null;
  if (!Array.isArray(content)) return content;
  if (mkey === undefined || !table.key) return content[0] ?? null;
  return content.find((o) => String(o[table.key!]) === String(mkey)) ?? null;
}

function hasFields(table: TableDef, object: Obj | null, fields: Obj): boolean {
  return (
    !!object &&
    Object.keys(
      changedFields(
        table.fields,
        null,
        Object.fromEntries(Object.entries(fields).filter(([name]) => !isMetaField(name))),
        object,
      ),
    ).length === 0
  );
}

function keysOf(table: TableDef, content: Obj[] | Obj | null): string[] {
  return (Array.isArray(content) ? content : []).map((o) => String(o[table.key!]));
}

/** Whether `mkey` stands right before or after `other` in the table's order. */
function standsBy(keys: string[], mkey: Key, where: 'before' | 'after', other: Key): boolean {
  const at = keys.indexOf(String(mkey));
  const anchor = keys.indexOf(String(other));
  return at >= 0 && anchor >= 0 && at === anchor + (where === 'before' ? -1 : 1);
}

/** Whether the keys of `order` that the table holds stand in that order. */
function inOrder(keys: string[], order: Key[]): boolean {
  const wanted = new Map(order.map((key, i) => [String(key), i]));
  const seen = keys.map((k) => wanted.get(k)).filter((i) => i !== undefined);
  return seen.every((i, n) => n === 0 || seen[n - 1] < i);
}

/** Whether what a VDOM holds shows the write done; `original`: the clone's source as that VDOM holds it. */
function shows(table: TableDef, expected: Expectation, content: Obj[] | Obj | null, original?: Obj | null): boolean {
  if ('fields' in expected) return hasFields(table, find(table, content, expected.mkey), expected.fields);
  if ('gone' in expected) return !find(table, content, expected.mkey);
  if ('moved' in expected) return standsBy(keysOf(table, content), expected.mkey, expected.moved, expected.other);
  const copy = find(table, content, expected.mkey);
  if (!copy || !original) return !!copy;
  return hasFields(table, copy, Object.fromEntries(Object.entries(original).filter(([field]) => field !== table.key)));
}

/**
 * One read of what the write touched, per VDOM: the object (for a move, the table's keys; for a clone, both objects).
 */
async function look(
  client: CmdbClient,
  table: TableDef,
  expected: Expectation,
  query: QueryParams,
  deadline: AbortSignal,
): Promise<{ vdom: string | null; shown: boolean; unreadable: boolean }[] | null> {
  if ('moved' in expected) {
    const seen = await readEach(client, table, undefined, query, deadline, { format: [table.key!] });
    return seen === null
      ? null
      : seen.map((s) => ({
          vdom: s.vdom,
          shown: !s.unreadable && shows(table, expected, s.content),
          unreadable: !!s.unreadable,
        }));
  }
  const [seen, originals] = await Promise.all([
    readEach(client, table, expected.mkey, query, deadline),
    'cloneOf' in expected ? readEach(client, table, expected.cloneOf, query, deadline) : null,
  ]);
  return seen === null
    ? null
    : seen.map((s) => {
        const original = originals?.find((o) => o.vdom === s.vdom);
        const source = 'cloneOf' in expected && original ? find(table, original.content, expected.cloneOf) : null;
        return {
          vdom: s.vdom,
          shown: !s.unreadable && shows(table, expected, s.content, source),
          unreadable: !!s.unreadable,
        };
      });
}

/** How a lost write turned out in one VDOM, and whether its VDOM could be read at all. */
export interface Judged {
  vdom: string | null;
  outcome: 'applied' | 'unknown';
  unreadable: boolean;
}

/**
 * How a write whose answer was lost (`err`) turned out in each VDOM of `query`: applied where a read
 * shows it; where it does not, read once more after a short wait (the request may still be on its
 * way), and still not there: unknown. Null when nothing could be read.
 */
export async function judgeLost(
  client: CmdbClient,
  table: TableDef,
  expected: Expectation,
  query: QueryParams,
  err: unknown,
  options: JudgeOptions = {},
): Promise<Judged[] | null> {
  const deadline = readBackDeadline(client);
  const first = await look(client, table, expected, query, deadline);
  if (!first) return null;
  const judged: Judged[] = first.map((s) => ({
    vdom: s.vdom,
    outcome: s.shown ? 'applied' : 'unknown',
    unreadable: s.unreadable,
  }));
  const pending = judged.filter((j) => j.outcome !== 'applied');
  if (!pending.length || deadline.aborted) return judged;
  await (options.pause ?? sleep)(settleMs(client, err));
  // Several VDOMs: only those still pending are read again, each matched by name. One VDOM is the one
  // answer, whatever it is called (a 404 names none, a found object's envelope names its VDOM).
  const several = severalVdoms(query);
  const vdoms = pending.map((j) => j.vdom).filter((v): v is string => v !== null);
  const again = await look(
    client,
    table,
    expected,
    several && vdoms.length === pending.length ? { ...query, vdom: vdoms } : query,
    deadline,
  );
  for (const j of pending) {
    const seen = several ? again?.find((s) => s.vdom === j.vdom) : again?.[0];
    if (seen?.shown) Object.assign(j, { outcome: 'applied', unreadable: false });
    else if (seen) j.unreadable = seen.unreadable;
  }
  return judged;
}

/** The write in words (`the move of t "3" before "1"`), and the command that shows its object. */
function inWords(table: TableDef, expected: Expectation): { what: string; check: string } {
  const key = (k: Key) => JSON.stringify(String(k));
  if ('moved' in expected)
    return {
      what: `the move of ${table.path} ${key(expected.mkey)} ${expected.moved} ${key(expected.other)}`,
      check: `cmdb list ${table.path}`,
    };
  if ('cloneOf' in expected)
    return {
      what: `the clone of ${table.path} ${key(expected.cloneOf)} to ${key(expected.mkey)}`,
      check: `cmdb get ${table.path} ${shellWord(expected.mkey)}`,
    };
  if (expected.mkey === undefined) return { what: `the write of ${table.path}`, check: `cmdb get ${table.path}` };
  return {
    what: `the write of ${table.path} ${key(expected.mkey)}`,
    check: `cmdb get ${table.path} ${shellWord(expected.mkey)}`,
  };
}

/** Where the user checks a write of unknown outcome: a command, or apply's own advice. */
export type CheckWith = { command: string } | { advice: string };

/**
 * The error of a write whose answer was lost and that reading back did not show applied: unknown
 * (`not there when read back; the device may still apply it`), or unreadable.
 */
export function unknownOutcome(what: string, err: unknown, check: CheckWith, unreadable: boolean): WriteOutcomeError {
  const hint = 'command' in check ? `check with '${check.command}' before sending it again` : check.advice;
  const message = unreadable
    ? `${howLost(err)} after ${what} was sent, and it could not be read back: whether it was applied is unknown`
    : `${howLost(err)} after ${what} was sent: not there when read back; the device may still apply it`;
  return new WriteOutcomeError(message, hint, 'unknown', { cause: err });
}

/**
 * A write to several VDOMs whose answer was lost, or any write the device did not answer, with the VDOMs not shown
 * applied.
 */
export interface LostWrite {
  vdom: string | null;
  error: WriteOutcomeError;
}

/** What the device answered to a write; several VDOMs whose answer was lost: those not shown applied (`lost`). */
export interface WriteAnswer extends ApiResult {
  lost?: LostWrite[];
}

type WriteRequest = Omit<ApiRequest, 'tablePath' | 'group'>;

/** A successful answer made up for a write whose effect was read back: the key, the VDOM, no revision. */
function readBackResult(req: WriteRequest, mkey: Key | undefined, outcome: 'applied' | 'unchanged'): ApiResult {
  const vdom = req.query?.vdom?.length === 1 ? req.query.vdom[0] : undefined;
  const envelope = { status: 'success', mkey, vdom, outcome };
  return { status: 200, body: envelope, envelopes: [envelope], multiVdom: false };
}

/** One result per VDOM of a write to several whose answer was lost: applied, or an error that says unknown. */
function perVdom(table: TableDef, expected: Expectation, err: unknown, judged: Judged[]): WriteAnswer {
  const { what, check } = inWords(table, expected);
  const envelopes = judged
    .filter((j) => j.outcome === 'applied')
    .map((j) => ({ status: 'success', mkey: expected.mkey, vdom: j.vdom ?? undefined, outcome: 'applied' }));
  const lost = judged
    .filter((j) => j.outcome !== 'applied')
    .map((j) => ({
      vdom: j.vdom,
      error: unknownOutcome(
        `${what}${j.vdom ? ` in vdom ${j.vdom}` : ''}`,
        err,
        { command: `${check}${vdomFlag(j.vdom ? [j.vdom] : undefined)}` },
        j.unreadable,
      ),
    }));
  const body = judged.map((j) => ({
    vdom: j.vdom,
    status: j.outcome === 'applied' ? 'success' : 'error',
    mkey: expected.mkey,
    outcome: j.outcome,
  }));
  return { status: 200, body, envelopes, multiVdom: true, lost };
}

/**
 * Sends a write and settles its outcome: refused before it reached the device, an error that says
 * `not_applied`; its answer lost, read back (in each VDOM it went to): applied is a success that says
 * so (`outcome: "applied"`), anything else an error that says `unknown` (exit 3). A create refused as a
 * duplicate of an object that already holds the same content is `unchanged` (exit 0), so running the
 * same bulk create again converges. `expected` null: nothing to read back (the device picks the key).
 */
export async function settleWrite(
  client: CmdbClient,
  table: TableDef,
  req: WriteRequest,
  expected: Expectation | null,
  options: JudgeOptions = {},
): Promise<WriteAnswer> {
  let result: ApiResult;
  try {
    result = await client.request({ ...req, tablePath: table.path, group: table.group });
  } catch (err) {
    if (neverSent(err)) throw WriteOutcomeError.notSent(err);
    if (!expected) throw err;
    const query = req.query ?? {};
    const several = severalVdoms(query);
    if (err instanceof ApiError && err.duplicate && req.method === 'POST') {
      // Only a plain create can be found already done; several VDOMs answer each for its own.
      if (!('fields' in expected) || query.action !== undefined || several) throw err;
      const seen = await look(client, table, expected, query, readBackDeadline(client));
      if (seen?.length !== 1 || !seen[0].shown) throw err;
      return readBackResult(req, expected.mkey, 'unchanged');
    }
    if (!outcomeUnknown(err)) throw err;
    const judged = await judgeLost(client, table, expected, query, err, options);
    if (several && judged?.length) return perVdom(table, expected, err, judged);
    if (judged?.length === 1 && judged[0].outcome === 'applied') return readBackResult(req, expected.mkey, 'applied');
    const { what, check } = inWords(table, expected);
    throw unknownOutcome(
      what,
      err,
      { command: `${check}${vdomFlag(query.vdom?.length === 1 ? query.vdom : undefined)}` },
      judged?.length !== 1 || judged[0].unreadable,
    );
  }
  return expected && result.failed?.length ? alreadyThere(client, table, req, expected, result) : result;
}

/**
 * A create in several VDOMs refused as a duplicate in some: each of those whose object already holds
 * the same content is `unchanged` (a success), as for one VDOM.
 */
async function alreadyThere(
  client: CmdbClient,
  table: TableDef,
  req: WriteRequest,
  expected: Expectation,
  result: ApiResult,
): Promise<ApiResult> {
  const vdomOf = (err: ApiError) => (err.subject.vdoms?.length === 1 ? err.subject.vdoms[0] : null);
  const duplicates = (result.failed ?? []).filter((err) => err.duplicate && vdomOf(err) !== null);
  if (!('fields' in expected) || req.method !== 'POST' || req.query?.action !== undefined || !duplicates.length)
    return result;
  const seen = await look(
    client,
    table,
    expected,
    { ...req.query, vdom: duplicates.map((err) => vdomOf(err)!) },
    readBackDeadline(client),
  );
  const same = new Set((seen ?? []).filter((s) => s.shown).map((s) => s.vdom));
  const unchanged = duplicates.filter((err) => same.has(vdomOf(err)));
  if (!unchanged.length) return result;
  return {
    ...result,
    envelopes: [
      ...result.envelopes,
      ...unchanged.map((err) => ({ status: 'success', mkey: expected.mkey, vdom: vdomOf(err)!, outcome: 'unchanged' })),
    ],
    failed: result.failed!.filter((err) => !unchanged.includes(err)),
  };
}

/**
 * What a create or update of `body` should leave: the object under its key (the body's, which an
 * update may rename to), or the singleton; nothing to check when the device chooses the key (0).
 */
export function expectFields(table: TableDef, mkey: Key | undefined, body: Obj): Expectation | null {
  const key = table.key && body && table.key in body ? (body[table.key] as Key) : mkey;
  if (table.singleton) return { fields: body };
  if (key === undefined || key === 0) return null;
  return { mkey: key, fields: body };
}

/** A write that touched one object of a table in one VDOM, as several of them are read back together (a commit). */
export interface TableWrite {
  table: TableDef;
  /** null: a global table. */
  vdom: string | null;
  expected: Expectation;
}

/**
 * Whether writes that ended together (a transaction's commit whose answer was lost, after the
 * transaction was found closed) took effect, all or none, from one read of each table and VDOM they
 * touch; a table's moves by the order they were to leave together (`orders`, by `vdom\0table`), as
 * later moves may have put others between an object and its anchor. Not there at all: not applied,
 * the transaction being over; some there, or a table that cannot be read: unknown.
 */
export async function judgeCommitted(
  client: CmdbClient,
  writes: TableWrite[],
  orders: Map<string, Key[]> = new Map(),
): Promise<Outcome> {
  const reads = new Map<string, Promise<Seen[] | null>>();
  const deadline = readBackDeadline(client);
  const shown = await Promise.all(
    writes.map(async ({ table, vdom, expected }) => {
      const slot = `${vdom}\0${table.path}`;
      if (!reads.has(slot)) reads.set(slot, readEach(client, table, undefined, vdom ? { vdom: [vdom] } : {}, deadline));
      const seen = (await reads.get(slot)!)?.[0];
      if (!seen || seen.unreadable) return null;
      const order = orders.get(slot);
      if ('moved' in expected && order) return inOrder(keysOf(table, seen.content), order);
      const source = 'cloneOf' in expected ? find(table, seen.content, expected.cloneOf) : null;
      return shows(table, expected, seen.content, source);
    }),
  );
  if (shown.every((s) => s === true)) return 'applied';
  if (shown.every((s) => s === false)) return 'not_applied';
  return 'unknown';
}
