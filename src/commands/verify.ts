// A write whose answer never came (the connection was reset or timed out after it was sent) may or may
// not have been applied. Its outcome is never guessed: the object is read back and compared with what
// the write meant to leave. The same comparison tells a re-run bulk create that an item is already there.
import type { ApiRequest, ApiResult } from '../api/client.js';
import { ApiError, ConnectionError, outcomeUnknown } from '../api/errors.js';
import { howLost, readBackDeadline } from '../plan/readback.js';
import type { TableDef } from '../catalogue/index.js';
import type { Context } from '../cli/context.js';
import { WriteOutcomeError } from '../errors.js';
import type { QueryParams } from '../api/url.js';
import { send } from './shared.js';
import { isMetaField } from '../catalogue/validate.js';
import { shellWord, vdomFlag } from '../request/table.js';

/**
 * What a write should leave on the device: the object with these fields (a create or update; no key:
 * a singleton), no object at all (a delete), the object right before or after another (a move), or a
 * copy of another object under the new key (a clone).
 */
export type Expectation =
  | { mkey?: string | number; fields: Record<string, unknown> }
  | { mkey: string | number; gone: true }
  | { mkey: string | number; moved: 'before' | 'after'; other: string | number }
  | { mkey: string | number; cloneOf: string | number };

/** How a write that lost its answer turned out, as results print it. */
export type Outcome = 'applied' | 'not applied' | 'unchanged';

/** How it turned out in one VDOM: `unknown` when that VDOM could not be read. */
type Judged = { vdom: string | null; outcome: 'applied' | 'not applied' | 'unknown' };

const ENCRYPTED = /^ENC /;

/** Whether the device's value is what was sent: numbers by value, multi-value strings as sets, secrets as set. */
export function sameValue(sent: unknown, got: unknown): boolean {
  if (typeof got === 'string' && ENCRYPTED.test(got)) return true;
  if (Array.isArray(sent)) {
    return Array.isArray(got) && sent.length === got.length && sent.every((item, i) => sameValue(item, got[i]));
  }
  if (sent && typeof sent === 'object') {
    return !!got && typeof got === 'object' && !Array.isArray(got) && Object.entries(sent).every(([k, v]) => sameValue(v, (got as Record<string, unknown>)[k]));
  }
  if (sent === null || got === null || sent === undefined || got === undefined) return sent == got;
  const a = String(sent).trim();
  const b = String(got).trim();
  if (a === b) return true;
  const words = (s: string) => s.split(/\s+/).sort().join(' ');
  return words(a) === words(b);
}

/** What one VDOM holds: the answer's `results`, nothing (not found), or null when it could not be read. */
interface Seen {
  vdom: string | null;
  results: unknown;
  /** The VDOM refused the read (no access, an error): what it holds is unknown. */
  unreadable?: boolean;
}

/** Whether a query names several VDOMs (`a,b` or `*`): the device answers each in its own envelope. */
export function severalVdoms(query: QueryParams | undefined): boolean {
  return !!query?.vdom && (query.vdom.length > 1 || query.vdom[0] === '*');
}

/**
 * Reads `mkey` (or the table: a singleton, or the keys of a keyed one with `format`) in each VDOM the
 * write went to, one request for all of them; a VDOM that refuses the read is unreadable, one that
 * has no such object says so. Null when no answer came (after a few tries).
 */
async function readEach(ctx: Context, table: TableDef, mkey: string | number | undefined, query: QueryParams, deadline: AbortSignal, extra: QueryParams = {}): Promise<Seen[] | null> {
  const vdom = query.vdom;
  const one = vdom && !severalVdoms(query) ? vdom[0] : null;
  const client = await ctx.client();
  for (let tries = 0; tries < 5 && !deadline.aborted; tries++) {
    try {
      const result = await client.request({ method: 'GET', tablePath: table.path, group: table.group, mkey, query: { ...extra, ...(vdom ? { vdom } : {}) }, eachVdom: severalVdoms(query), signal: deadline });
      const seen: Seen[] = result.envelopes.map((e) => ({ vdom: e.vdom ?? one, results: e.results }));
      for (const err of result.failed ?? []) seen.push({ vdom: err.subject.vdoms?.[0] ?? null, results: null, unreadable: !err.notFound });
      return seen;
    } catch (err) {
      if (err instanceof ApiError && err.notFound) return [{ vdom: one, results: null }];
      if (!outcomeUnknown(err) && !(err instanceof ConnectionError)) return null;
    }
  }
  return null;
}

/** The object a read found (an item read answers a list of one, a singleton an object). */
function objectOf(seen: Seen): Record<string, unknown> | null {
  const object = Array.isArray(seen.results) ? seen.results[0] : seen.results;
  return object && typeof object === 'object' ? (object as Record<string, unknown>) : null;
}

function hasFields(object: Record<string, unknown> | null, fields: Record<string, unknown>): boolean {
  return !!object && Object.entries(fields).every(([field, value]) => sameValue(value, object[field]));
}

/** Per VDOM: what a read shows of the write, or unknown when the VDOM could not be read. */
function byVdom(seen: Seen[], judge: (s: Seen) => 'applied' | 'not applied'): Judged[] {
  return seen.map((s) => ({ vdom: s.vdom, outcome: s.unreadable ? 'unknown' : judge(s) }));
}

/** How the write turned out in each VDOM it went to, read back; null when nothing could be read. */
async function judge(ctx: Context, table: TableDef, expected: Expectation, query: QueryParams): Promise<Judged[] | null> {
  // One deadline for every read of this read-back, its tries included (READ_BACK_TIMEOUTS).
  const deadline = readBackDeadline(await ctx.client());
  if ('fields' in expected) {
    const seen = await readEach(ctx, table, expected.mkey, query, deadline);
    return seen && byVdom(seen, (s) => (hasFields(objectOf(s), expected.fields) ? 'applied' : 'not applied'));
  }
  if ('gone' in expected) {
    const seen = await readEach(ctx, table, expected.mkey, query, deadline);
    return seen && byVdom(seen, (s) => (objectOf(s) ? 'not applied' : 'applied'));
  }
  if ('cloneOf' in expected) {
    // The copy is there with the original's content (a key taken before by another object: not applied).
    const [copies, originals] = await Promise.all([readEach(ctx, table, expected.mkey, query, deadline), readEach(ctx, table, expected.cloneOf, query, deadline)]);
    if (!copies) return null;
    return byVdom(copies, (s) => {
      const copy = objectOf(s);
      const original = originals?.find((o) => o.vdom === s.vdom);
      const source = original ? objectOf(original) : null;
      if (!copy) return 'not applied';
      if (!source) return 'applied';
      const fields = Object.fromEntries(Object.entries(source).filter(([field]) => field !== table.key && !isMetaField(field)));
      return hasFields(copy, fields) ? 'applied' : 'not applied';
    });
  }
  // A move: the object stands right before or after the other one.
  const seen = await readEach(ctx, table, undefined, query, deadline, { format: [table.key!] });
  const wanted = expected;
  return (
    seen &&
    byVdom(seen, (s) => {
      const keys = (Array.isArray(s.results) ? s.results : []).map((row) => String((row as Record<string, unknown>)[table.key!]));
      const at = keys.indexOf(String(wanted.mkey));
      const anchor = keys.indexOf(String(wanted.other));
      return at >= 0 && anchor >= 0 && at === anchor + (wanted.moved === 'before' ? -1 : 1) ? 'applied' : 'not applied';
    })
  );
}

/** A VDOM in which a write lost its answer and reading back did not show it applied. */
export interface LostWrite {
  vdom: string | null;
  error: WriteOutcomeError;
}

/** What the device answered to a write; several VDOMs whose answer was lost: those not shown applied. */
export interface WriteAnswer extends ApiResult {
  lost?: LostWrite[];
}

/** A successful answer made up for a write whose effect was read back: the key, the VDOM, no revision. */
function readBackResult(req: Omit<ApiRequest, 'tablePath' | 'group'>, mkey: string | number | undefined, outcome: Outcome): ApiResult {
  const vdom = req.query?.vdom?.length === 1 ? req.query.vdom[0] : undefined;
  const envelope = { status: 'success', mkey, vdom, outcome };
  return { status: 200, body: envelope, envelopes: [envelope], multiVdom: false };
}

/** The write in words (`the move of t "3" before "1"`), and the command that shows its object. */
function inWords(table: TableDef, expected: Expectation): { what: string; check: string } {
  const key = (k: string | number) => JSON.stringify(String(k));
  if ('moved' in expected) return { what: `the move of ${table.path} ${key(expected.mkey)} ${expected.moved} ${key(expected.other)}`, check: `cmdb list ${table.path}` };
  if ('cloneOf' in expected) return { what: `the clone of ${table.path} ${key(expected.cloneOf)} to ${key(expected.mkey)}`, check: `cmdb get ${table.path} ${shellWord(expected.mkey)}` };
  if (expected.mkey === undefined) return { what: `the write of ${table.path}`, check: `cmdb get ${table.path}` };
  return { what: `the write of ${table.path} ${key(expected.mkey)}`, check: `cmdb get ${table.path} ${shellWord(expected.mkey)}` };
}

/** The error of a write whose answer was lost and that reading back did not show applied (in one VDOM, when several). */
function notShownApplied(table: TableDef, expected: Expectation, err: unknown, outcome: 'not applied' | 'unknown', vdom: string | null): WriteOutcomeError {
  const { what, check } = inWords(table, expected);
  const where = vdom ? ` in vdom ${vdom}` : '';
  if (outcome === 'unknown') {
    return new WriteOutcomeError(`${howLost(err)} after ${what}${where} was sent, and it could not be read back: whether it was applied is unknown`, `check with '${check}${vdomFlag(vdom ? [vdom] : undefined)}' before sending it again`, 'unknown', { cause: err });
  }
  return new WriteOutcomeError(`${howLost(err)} after ${what}${where} was sent; reading it back shows it was not applied`, 'nothing changed on the device: send it again', 'not applied', { cause: err });
}

/**
 * A write to several VDOMs whose answer was lost, read back in each: one result per VDOM, `applied`
 * for those that show it, and for the others an error that says `not applied` (or unknown).
 */
function perVdom(table: TableDef, expected: Expectation, err: unknown, judged: Judged[]): WriteAnswer {
  const envelopes = judged.filter((j) => j.outcome === 'applied').map((j) => ({ status: 'success', mkey: expected.mkey, vdom: j.vdom ?? undefined, outcome: 'applied' }));
  const lost = judged.filter((j) => j.outcome !== 'applied').map((j) => ({ vdom: j.vdom, error: notShownApplied(table, expected, err, j.outcome as 'not applied' | 'unknown', j.vdom) }));
  const body = judged.map((j) => ({ vdom: j.vdom, status: j.outcome === 'applied' ? 'success' : 'error', mkey: expected.mkey, outcome: j.outcome }));
  return { status: 200, body, envelopes, multiVdom: true, lost };
}

/**
 * Sends a write; when its answer is lost after it was sent, reads its object back (in each VDOM it
 * went to): applied is a success that says so (`outcome: "applied"`), not applied an error that says so
 * (exit 3); several VDOMs get one result each. A create refused as a duplicate of an object that
 * already holds the same content is `unchanged` (exit 0), so running the same bulk create again converges.
 */
export async function sendWrite(ctx: Context, table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>, expected: Expectation | null): Promise<WriteAnswer> {
  let result: ApiResult;
  try {
    result = await send(ctx, table, req);
  } catch (err) {
    if (!expected) throw err;
    const query = req.query ?? {};
    const several = severalVdoms(query);
    if (err instanceof ApiError && err.duplicate && req.method === 'POST') {
      // Only a plain create can be found already done; several VDOMs answer each for its own.
      if (!('fields' in expected) || query.action !== undefined || several) throw err;
      const judged = await judge(ctx, table, expected, query);
      if (judged?.length !== 1 || judged[0].outcome !== 'applied') throw err;
      return readBackResult(req, expected.mkey, 'unchanged');
    }
    if (!outcomeUnknown(err)) throw err;
    const judged = await judge(ctx, table, expected, query);
    if (several && judged?.length) return perVdom(table, expected, err, judged);
    const outcome = judged?.length === 1 ? judged[0].outcome : 'unknown';
    if (outcome === 'applied') return readBackResult(req, expected.mkey, 'applied');
    throw notShownApplied(table, expected, err, outcome, null);
  }
  return expected && result.failed?.length ? alreadyThere(ctx, table, req, expected, result) : result;
}

/**
 * A create in several VDOMs refused as a duplicate in some: each of those whose object already holds
 * the same content is `unchanged` (a success), as for one VDOM.
 */
async function alreadyThere(ctx: Context, table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>, expected: Expectation, result: ApiResult): Promise<ApiResult> {
  const vdomOf = (err: ApiError) => (err.subject.vdoms?.length === 1 ? err.subject.vdoms[0] : null);
  const duplicates = (result.failed ?? []).filter((err) => err.duplicate && vdomOf(err) !== null);
  if (!('fields' in expected) || req.method !== 'POST' || req.query?.action !== undefined || !duplicates.length) return result;
  const judged = await judge(ctx, table, expected, { ...req.query, vdom: duplicates.map((err) => vdomOf(err)!) });
  const same = new Set((judged ?? []).filter((j) => j.outcome === 'applied').map((j) => j.vdom));
  const unchanged = duplicates.filter((err) => same.has(vdomOf(err)));
  if (!unchanged.length) return result;
  return {
    ...result,
    envelopes: [...result.envelopes, ...unchanged.map((err) => ({ status: 'success', mkey: expected.mkey, vdom: vdomOf(err)!, outcome: 'unchanged' }))],
    failed: result.failed!.filter((err) => !unchanged.includes(err)),
  };
}

/**
 * What a create or update of `body` should leave: the object under its key (the body's, which an
 * update may rename to), or the singleton; nothing to check when the device chooses the key (0).
 */
export function expectFields(table: TableDef, mkey: string | number | undefined, body: Record<string, unknown>): Expectation | null {
  const key = table.key && body && table.key in body ? (body[table.key] as string | number) : mkey;
  if (table.singleton) return { fields: body };
  if (key === undefined || key === 0) return null;
  return { mkey: key, fields: body };
}
