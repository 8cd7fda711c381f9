// A write whose answer never came (the connection was reset or timed out after it was sent) may or may
// not have been applied. Its outcome is never guessed: the object is read back and compared with what
// the write meant to leave. The same comparison tells a re-run bulk create that an item is already there.
import type { ApiRequest, ApiResult } from '../api/client.js';
import { ApiError, ConnectionError, outcomeUnknown } from '../api/errors.js';
import { howLost } from '../plan/readback.js';
import type { TableDef } from '../catalogue/index.js';
import type { Context } from '../cli/context.js';
import { WriteOutcomeError } from '../errors.js';
import type { QueryParams } from '../api/url.js';
import { send } from './shared.js';

/** What a write should leave on the device: the object with these fields, or no object at all. */
export type Expectation = { mkey: string | number; fields: Record<string, unknown> } | { mkey: string | number; gone: true };

/** How a write that lost its answer turned out, as results print it. */
export type Outcome = 'applied' | 'not applied' | 'unchanged';

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

type Read = { found: true; object: Record<string, unknown> } | { found: false } | null;

/** The object as the device has it now; null when it could not be read (after a few tries). */
async function readObject(ctx: Context, table: TableDef, mkey: string | number, query: QueryParams): Promise<Read> {
  // One read cannot tell which of several VDOMs a lost write reached: its outcome stays unknown.
  if (query.vdom && (query.vdom.length > 1 || query.vdom[0] === '*')) return null;
  const client = await ctx.client();
  for (let tries = 0; tries < 5; tries++) {
    try {
      const result = await client.request({ method: 'GET', tablePath: table.path, group: table.group, mkey, query: query.vdom ? { vdom: query.vdom } : {} });
      const results = result.envelopes[0]?.results;
      const object = Array.isArray(results) ? results[0] : results;
      return object && typeof object === 'object' ? { found: true, object: object as Record<string, unknown> } : { found: false };
    } catch (err) {
      if (err instanceof ApiError && (err.status === 404 || err.code === -3)) return { found: false };
      if (!outcomeUnknown(err) && !(err instanceof ConnectionError)) return null;
    }
  }
  return null;
}

function matches(read: Read, expected: Expectation): boolean {
  if (!read) return false;
  if ('gone' in expected) return !read.found;
  return read.found && Object.entries(expected.fields).every(([field, value]) => sameValue(value, read.object[field]));
}

/** A successful answer made up for a write whose effect was read back: the key, the VDOM, no revision. */
function readBackResult(req: Omit<ApiRequest, 'tablePath' | 'group'>, mkey: string | number, outcome: Outcome): ApiResult {
  const vdom = req.query?.vdom?.length === 1 ? req.query.vdom[0] : undefined;
  const envelope = { status: 'success', mkey, vdom, outcome };
  return { status: 200, body: envelope, envelopes: [envelope], multiVdom: false };
}

/**
 * Sends a write; when its answer is lost after it was sent, reads the object back: applied is a
 * success that says so (`outcome: "applied"`), not applied an error that says so (exit 3). A create
 * refused as a duplicate of an object that already holds the same content is `unchanged` (exit 0),
 * so running the same bulk create again converges.
 */
export async function sendWrite(ctx: Context, table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>, expected: Expectation | null): Promise<ApiResult> {
  try {
    return await send(ctx, table, req);
  } catch (err) {
    if (!expected) throw err;
    const duplicate = req.method === 'POST' && err instanceof ApiError && (err.code === -5 || err.code === -15);
    if (duplicate) {
      if ('gone' in expected || !matches(await readObject(ctx, table, expected.mkey, req.query ?? {}), expected)) throw err;
      return readBackResult(req, expected.mkey, 'unchanged');
    }
    if (!outcomeUnknown(err)) throw err;
    const read = await readObject(ctx, table, expected.mkey, req.query ?? {});
    const what = `${table.path} ${JSON.stringify(String(expected.mkey))}`;
    const lost = howLost(err);
    if (read === null) {
      throw new WriteOutcomeError(`${lost} after the write of ${what} was sent, and it could not be read back: whether it was applied is unknown`, `check with 'cmdb get ${table.path} ${expected.mkey}' before sending it again`, 'unknown', { cause: err });
    }
    if (matches(read, expected)) return readBackResult(req, expected.mkey, 'applied');
    throw new WriteOutcomeError(`${lost} after the write of ${what} was sent; reading it back shows it was not applied`, 'nothing changed on the device: send it again', 'not applied', { cause: err });
  }
}

/** What a create or update of `body` should leave, when the key is known (0 asks the device to choose one). */
export function expectFields(table: TableDef, mkey: string | number | undefined, body: Record<string, unknown>): Expectation | null {
  if (mkey === undefined || mkey === 0 || table.singleton) return null;
  return { mkey, fields: body };
}
