// `cmdb api`: a raw request to any path under /api/v2/ of the device, its answer printed as it came.
import type { CallResult, CmdbClient, Envelope, HttpMethod } from '../api/client.js';
import { apiPath } from '../api/url.js';
import type { Context } from '../run/context.js';
import { UsageError } from '../errors.js';
import type { Answer, Row, Shaped } from '../output/index.js';
import { readRawBody } from '../request/body.js';
import { parseCount } from '../request/query.js';

export interface ApiOptions {
  method?: string;
  query?: string[];
  file?: string;
  data?: string;
  all?: boolean;
  pageSize?: string;
}

const METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'DELETE'];

const PATH_PROBLEMS: Record<string, string> = {
  'absolute-url': 'give the path only: the device, its scheme and host come from -d, --host or the profile',
  outside: 'cmdb sends only to paths under /api/v2/ (monitor/..., cmdb/..., log/...)',
  'dot-segment': "'.' and '..' segments would leave the path asked for",
  characters: 'control characters and backslashes have no place in a path',
  fragment: "a '#' fragment is never sent to a server",
  empty: 'name an endpoint, for example monitor/system/status',
};

/** The path under /api/v2/ and the query written into it, or a usage error (nothing sent). */
export function checkedPath(input: string): { path: string; query: string } {
  const checked = apiPath(input);
  if ('problem' in checked)
    throw new UsageError(`'${input}' is not a path under /api/v2/`, PATH_PROBLEMS[checked.problem]);
  return checked;
}

/** `--query k=v` (repeatable) as name, value pairs. */
function queryPairs(items: readonly string[]): [string, string][] {
  return items.map((item) => {
    const eq = item.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid --query '${item}'`, 'use --query name=value (repeat it for several)');
    return [item.slice(0, eq), item.slice(eq + 1)];
  });
}

function methodOf(given: string | undefined, hasBody: boolean): HttpMethod {
  if (given === undefined) return hasBody ? 'POST' : 'GET';
  const method = given.toUpperCase() as HttpMethod;
  if (!METHODS.includes(method)) throw new UsageError(`-X ${given}: the API takes ${METHODS.join(', ')}`);
  if (method === 'GET' && hasBody)
    throw new UsageError('-X GET sends no body', 'drop -f/--data, or send it with -X POST or PUT');
  return method;
}

const isRow = (value: unknown): value is Row => !!value && typeof value === 'object' && !Array.isArray(value);

/** Results as a shape: a list of objects, an object, or the value as it came. */
function shapeResults(results: unknown): Shaped {
  if (Array.isArray(results) && results.every(isRow)) return { kind: 'list', rows: results };
  if (isRow(results)) return { kind: 'object', object: results };
  return { kind: 'raw', body: results };
}

/**
 * What the printer is given: the results (by VDOM when several answered), the whole envelope when it has none, or the
 * bytes.
 */
export function answerOf(res: CallResult): Answer {
  if (!res.json) return { kind: 'answer', data: null, body: null, bytes: res.bytes };
  const { body, envelopes, multiVdom } = res.json;
  const withResults = envelopes.length > 0 && envelopes.every((e) => 'results' in e);
  if (
    multiVdom &&
    withResults &&
    envelopes.every((e) => isRow(e.results) || (Array.isArray(e.results) && e.results.every(isRow)))
  ) {
    const vdoms = Object.fromEntries(envelopes.map((e, i) => [e.vdom ?? `vdom${i}`, e.results as Row | Row[]]));
    return { kind: 'answer', data: { kind: 'byVdom', vdoms }, body };
  }
  if (!multiVdom && withResults) return { kind: 'answer', data: shapeResults(envelopes[0].results), body };
  return { kind: 'answer', data: isRow(body) ? { kind: 'object', object: body } : { kind: 'raw', body }, body };
}

/** `cmdb/<area>/<table>` with no key: a DELETE there empties the whole table on a real device. */
function wholeTable(path: string): boolean {
  return /^cmdb\/[^/]+\/[^/]+\/?$/.test(path);
}

/** `cmdb api <path>`: one request on any path under /api/v2/, with the device's credentials; --all pages a list. */
export async function run(ctx: Context, { path: input }: { path: string }, opts: ApiOptions): Promise<number> {
  const target = checkedPath(input);
  const pairs = queryPairs(opts.query ?? []);
  const body = await readRawBody(ctx.io.stdin, opts);
  const method = methodOf(opts.method, body !== undefined);
  if (method === 'DELETE' && wholeTable(target.path) && !ctx.settings.force) {
    throw new UsageError(
      `refusing to send DELETE to the whole table ${target.path}: it deletes every object in it`,
      'add the key to the path to delete one object, or give --force to empty the table',
    );
  }
  if (opts.pageSize !== undefined && !opts.all) throw new UsageError('--page-size goes with --all');
  if (opts.all && method !== 'GET') throw new UsageError('--all pages a read: it goes with GET');
  const named = (name: string) => pairs.some(([k]) => k === name) || new RegExp(`(^|&)${name}=`).test(target.query);
  const vdoms = ctx.device().vdoms;
  if (vdoms && !named('vdom')) pairs.push(['vdom', vdoms.join(',')]);
  const client = await ctx.device().client();
  if (!opts.all) {
    await ctx.out.print(answerOf(await client.call({ method, path: input, query: pairs, body })));
    return 0;
  }
  if (named('start') || named('count'))
    throw new UsageError('--all sets start and count of each page', 'leave them out of the path and --query');
  await readAll(ctx, client, input, target.path, pairs, parseCount(opts.pageSize, '--page-size', 1) ?? 1000);
  return 0;
}

/** --all: pages of `size` from 0 until a short one; an answer that is not a list is printed as it is. */
async function readAll(
  ctx: Context,
  client: CmdbClient,
  input: string,
  tablePath: string,
  pairs: [string, string][],
  size: number,
): Promise<void> {
  let start = 0;
  const lastPage = new Map<string, string>();
  let sink: Awaited<ReturnType<Context['out']['pages']>> | undefined;
  for (;;) {
    const res = await client.call({
      method: 'GET',
      path: input,
      query: [...pairs, ['start', String(start)], ['count', String(size)]],
    });
    const envelopes: Envelope[] = res.json?.envelopes ?? [];
    const listShaped = envelopes.length > 0 && envelopes.every((e) => Array.isArray(e.results));
    if (!sink && !listShaped) return ctx.out.print(answerOf(res));
    if (!listShaped) {
      const { MalformedAnswerError } = await import('../api/errors.js');
      throw new MalformedAnswerError('bad-results', res.status, { method: 'GET', tablePath });
    }
    sink ??= await ctx.out.pages({ tablePath, keyField: null }, {});
    sink.page(res.json!.body, res.json!.multiVdom);
    let more = false;
    for (const envelope of envelopes) {
      const rows = (envelope.results as unknown[]).filter(isRow);
      const vdom = envelope.vdom ?? 'root';
      const page = JSON.stringify(rows);
      if (rows.length && lastPage.get(vdom) === page) {
        const { MalformedAnswerError } = await import('../api/errors.js');
        throw new MalformedAnswerError('no-progress', res.status, { method: 'GET', tablePath, vdoms: [vdom] });
      }
      lastPage.set(vdom, page);
      await sink.rows(vdom, rows);
      if ((envelope.results as unknown[]).length >= size) more = true;
    }
    if (!more) break;
    start += size;
  }
  await sink.end();
}
