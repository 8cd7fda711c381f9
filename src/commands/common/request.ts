// What the object commands share: the table the line names, a read and a write with its question, a
// dry run's recording, printing a read, a write and a bulk write's items, and a device's name in a --dir.
import type { ApiRequest, ApiResult } from '../../api/client.js';
import type { QueryParams } from '../../api/url.js';
import { isGlobal, nearestNames, type TableDef, type TableSummary } from '../../catalogue/index.js';
import { redactSecrets } from '../../catalogue/secrets.js';
import type { Context } from '../../run/context.js';
import { describeError } from '../../run/hints.js';
import { ApiError } from '../../api/errors.js';
import { EXIT, UsageError, WriteOutcomeError } from '../../errors.js';
import { mostSevere } from '../../severity.js';
import type { BulkSink, Read, ReadData, Refusal, RenderOptions, Row } from '../../output/index.js';
import { writeResult, type BulkOutcome } from '../../request/bulk.js';
import { parseFields } from '../../request/query.js';
import { resolveTable } from '../../request/table.js';
import { settleWrite, type Expectation, type WriteAnswer } from '../../outcome/index.js';

/** The options every write command takes: --dry-run (its writes recorded, not sent) and --yes (nothing asked). */
export interface WriteOptions {
  dryRun?: boolean;
  yes?: boolean;
}

/**
 * Runs a write command's work. With --dry-run the device keeps its writes instead of sending them (reads
 * still go), and they are printed, in order, once the work is done, in place of what the writes did.
 */
export async function runWrites(ctx: Context, opts: WriteOptions, work: () => Promise<number>): Promise<number> {
  if (!opts.dryRun) return work();
  const recorded = await ctx.device().recordWrites();
  const code = await work();
  await ctx.out.print({ kind: 'requests', requests: [...recorded] });
  return code;
}

/**
 * Before a change a person should look at twice: the one question on a terminal, unless --yes or
 * --dry-run (nothing is sent) says not to ask.
 */
export async function confirmWrite(
  ctx: Context,
  opts: WriteOptions,
  question: string,
  details: string[] = [],
): Promise<void> {
  if (!opts.yes && !opts.dryRun) await ctx.prompt.confirmChange(question, details);
}

/** `delete firewall.ipmacbinding/table 3`, `move ... 3 (before 2)`: a write in words, for its question. */
function writeInWords(table: TableDef, req: Omit<ApiRequest, 'tablePath' | 'group'>): string {
  const verb = req.query?.action ?? { POST: 'create', PUT: 'update', DELETE: 'delete', GET: 'read' }[req.method];
  return `${verb} ${table.path}${req.mkey === undefined ? '' : ` ${req.mkey}`}`;
}

/**
 * The VDOMs a command sends for a table: the run's, or none for a global table (one for the whole
 * device), for which an explicit --vdom is ignored with a notice, once per run.
 */
export function vdomsFor(ctx: Context, table: TableSummary): string[] | undefined {
  const vdoms = ctx.device().vdoms;
  if (!vdoms || !isGlobal(table)) return vdoms;
  if (ctx.settings.vdomText !== undefined)
    void ctx.once(`global table ${table.path}`, async () =>
      ctx.out.notice(`${table.path} is one for the whole device (a global table): --vdom is ignored`),
    );
  return undefined;
}

/** On a terminal, a write to several VDOMs (`--vdom a,b`, `*`) is confirmed first, once per run. */
export async function confirmSeveralVdoms(
  ctx: Context,
  opts: WriteOptions,
  what: string,
  query: QueryParams | undefined,
  details: string[] = [],
): Promise<void> {
  const vdoms = query?.vdom;
  if (vdoms && (vdoms.length > 1 || vdoms.includes('*')))
    await confirmWrite(
      ctx,
      opts,
      `${what} in ${vdoms.includes('*') ? 'every VDOM' : `vdoms ${vdoms.join(', ')}`}?`,
      details,
    );
}

/** The table the line names, in the device's catalogue (a typo is a usage error unless --force). */
export async function lineTable(ctx: Context, input: string): Promise<TableDef> {
  return resolveTable(await ctx.device().catalogue(), input, { force: ctx.settings.force, say: ctx.out });
}

/** Reads with one request, with the table's access group for the 403 hint. */
export async function request(
  ctx: Context,
  table: TableDef,
  req: Omit<ApiRequest, 'tablePath' | 'group' | 'method'> & { method: 'GET' },
): Promise<ApiResult> {
  const client = await ctx.device().client();
  return client.request({ ...req, tablePath: table.path, group: table.group });
}

/** A write's answer, with the refusals of some VDOMs explained (`explained[i]` is `failed[i]` in words). */
export interface Written extends WriteAnswer {
  explained?: unknown[];
}

/**
 * Sends a write, confirmed first when it goes to several VDOMs, and settles its outcome when its
 * answer is lost (src/outcome: applied, not_applied or unknown).
 */
export async function requestWrite(
  ctx: Context,
  opts: WriteOptions,
  table: TableDef,
  req: Omit<ApiRequest, 'tablePath' | 'group'>,
  expected: Expectation | null,
): Promise<Written> {
  const body =
    req.body && typeof req.body === 'object' ? [JSON.stringify(redactSecrets(table.fields, req.body as Row))] : [];
  await confirmSeveralVdoms(ctx, opts, writeInWords(table, req), req.query, body);
  const client = await ctx.device().client();
  let answer: WriteAnswer;
  try {
    answer = await settleWrite(client, table, req, expected);
  } catch (err) {
    throw await explainWrite(ctx, table, req, err);
  }
  if (!answer.failed?.some(explainable)) return answer;
  // Several VDOMs: each refusal explained in its own VDOM.
  const explained = await Promise.all(answer.failed.map((err) => explainWrite(ctx, table, req, err)));
  return { ...answer, explained };
}

/** A refusal whose words need reading: -23, -651, -3 with HTTP 500 to a POST or PUT, a missing attribute. */
function explainable(err: unknown): err is ApiError {
  return (
    err instanceof ApiError &&
    (err.code === -23 || err.code === -651 || err.missingReference || /MUST be set/.test(err.cliError ?? ''))
  );
}

/** A refusal in words that say what to fix (src/commands/common/refusals.ts), loaded only for one. */
export async function explainWrite(
  ctx: Context,
  table: TableDef,
  req: Omit<ApiRequest, 'tablePath' | 'group'>,
  err: unknown,
) {
  if (!explainable(err)) return err;
  return (await import('./refusals.js')).explainRefusal(ctx, table, req, err);
}

function asRows(results: unknown): Row[] {
  if (Array.isArray(results)) return results as Row[];
  if (results && typeof results === 'object') return [results as Row];
  return [];
}

/** Shapes read results as CLI.md says: an array for lists, an object for one object, keyed by VDOM when several. */
export function shapeRead(result: ApiResult, single: boolean): ReadData {
  if (result.multiVdom) {
    const vdoms: Record<string, Row[] | Row> = {};
    result.envelopes.forEach((e, i) => {
      const name = e.vdom ?? `vdom${i}`;
      vdoms[name] =
        single || !Array.isArray(e.results)
          ? Array.isArray(e.results)
            ? ((e.results[0] ?? {}) as Row)
            : ((e.results ?? {}) as Row)
          : asRows(e.results);
    });
    return { kind: 'byVdom', vdoms };
  }
  const results = result.envelopes[0]?.results;
  if (single || (results && typeof results === 'object' && !Array.isArray(results))) {
    return { kind: 'object', object: Array.isArray(results) ? ((results[0] ?? {}) as Row) : ((results ?? {}) as Row) };
  }
  return { kind: 'list', rows: asRows(results) };
}

/**
 * The VDOMs that refused a request to several, each as the user sees its error; and those in which a
 * write whose answer was lost was read back and not found applied (`lost`), with that outcome.
 */
function refusals(result: Written): Refusal[] {
  return [
    ...(result.failed ?? []).map((err, i) => ({
      vdom: err.subject.vdoms?.[0] ?? null,
      report: describeError(result.explained?.[i] ?? err),
    })),
    ...(result.lost ?? []).map((l) => ({ vdom: l.vdom, report: describeError(l.error), outcome: l.error.outcome })),
  ];
}

/**
 * Prints what a write did (one result, or one per VDOM with an error for each that refused); the
 * exit code is the most severe.
 */
export async function printWrite(
  ctx: Context,
  opts: WriteOptions,
  result: Written,
  verb: string,
  table: TableDef,
  mkey?: string | number,
): Promise<number> {
  // A dry run prints the requests it kept instead (runWrites).
  if (opts.dryRun) return 0;
  const refused = refusals(result);
  const results = result.envelopes.map((e) => writeResult(e, mkey));
  await ctx.out.print({
    kind: 'written',
    verb,
    tablePath: table.path,
    mkey,
    results,
    severalVdoms: result.multiVdom,
    refusals: refused,
    body: result.body,
  });
  return mostSevere(refused.map((f) => f.report.exit));
}

/** How a read is shown: its columns (--columns, --fields, --wide), the header line, `q_ref`, its table for `cli`. */
export type ReadView = Pick<
  RenderOptions,
  'fields' | 'keepColumns' | 'wide' | 'headers' | 'showMeta' | 'hideMeta' | 'conf'
>;

/** The options of a read that choose what a table or csv shows, none of them sent. */
export interface ShownOptions {
  /** --wide: every column. */
  wide?: boolean;
  /** --columns a,b: exactly these columns (table and csv). */
  columns?: string;
  /** false with --no-headers. */
  headers?: boolean;
}

/**
 * The view of a read: exactly --columns (checked against the table, before anything is sent), else
 * --fields; every column with --wide; `q_ref` (how many objects use each) with --with-meta and the
 * checksum with --with-contents-hash; without --with-meta the device's other bookkeeping fields (`q_*`)
 * are left out, unless a column names one; in the device's syntax only the fields off their default with
 * --exclude-default-values, as its `show` prints.
 */
export function readView(table: TableDef, query: QueryParams, shown: ShownOptions = {}): ReadView {
  if (shown.wide && shown.columns !== undefined)
    throw new UsageError('--wide and --columns do not go together', 'give --wide for every column, or --columns a,b');
  const columns = parseFields(table, shown.columns, '--columns');
  const fields = columns ?? query.format;
  const asked = [...(query.with_meta ? ['q_ref'] : []), ...(query.with_contents_hash ? ['q_contents_hash'] : [])];
  return {
    fields,
    keepColumns: fields ? true : undefined,
    wide: shown.wide || undefined,
    headers: shown.headers,
    showMeta: asked.length ? asked : undefined,
    hideMeta: !query.with_meta && !fields?.some((f) => f.startsWith('q_')),
    conf: { table, changed: !!query['exclude-default-values'] },
  };
}

/** How rows of fixed columns are shown: --columns among them, --wide, the header line. */
export function rowsView(
  columns: readonly string[],
  keyField: string,
  shown: ShownOptions,
): { keyField: string; fields: string[]; keepColumns: true; wide?: true; headers?: boolean } {
  if (shown.wide && shown.columns !== undefined)
    throw new UsageError('--wide and --columns do not go together', 'give --wide for every column, or --columns a,b');
  const asked = shown.columns?.split(',').map((c) => c.trim()) ?? [...columns];
  const unknown = asked.find((c) => !columns.includes(c));
  if (unknown !== undefined)
    throw new UsageError(`'${unknown}' is not a column here`, `columns: ${columns.join(', ')}`);
  return { keyField, fields: asked, keepColumns: true, wide: shown.wide || undefined, headers: shown.headers };
}

/**
 * The view of a preview of several tables (`export -o table`): --columns names fields of at least one
 * of them (a table nobody describes takes any name).
 */
export function tablesView(tables: readonly TableDef[], shown: ShownOptions): ReadView {
  if (tables.length === 1) return readView(tables[0]!, {}, shown);
  const fields = Object.assign({}, ...tables.map((t) => t.fields)) as TableDef['fields'];
  const known = tables.every((t) => t.known);
  if (known && shown.columns !== undefined) {
    for (const name of shown.columns.split(',').map((c) => c.trim())) {
      if (!name || name in fields || name.startsWith('q_')) continue;
      const [near] = nearestNames(name, Object.keys(fields));
      throw new UsageError(
        `'${name}' is not a field of the tables exported${near ? ` (did you mean '${near}'?)` : ''}`,
        '--columns names fields of the tables on the line: cmdb schema <table> lists them',
      );
    }
  }
  return readView({ ...tables[0]!, known: false, fields }, {}, shown);
}

/**
 * What the printer is told of a read's table: its key, its catalogue columns and fields, the VDOMs
 * asked, whether filtered.
 */
export function readFacts(
  ctx: Context,
  table: TableDef,
  filtered?: boolean,
): Pick<Read, 'tablePath' | 'keyField' | 'columns' | 'schema' | 'vdoms' | 'filtered'> {
  const columns = table.known
    ? [...new Set([...(table.key ? [table.key] : []), ...Object.keys(table.fields)])]
    : undefined;
  return {
    tablePath: table.path,
    keyField: table.key,
    columns,
    // A renamed table's columns are chosen as under the catalogue's name.
    schema: { path: table.aliasOf ?? table.path, fields: table.fields },
    vdoms: vdomsFor(ctx, table),
    filtered,
  };
}

/**
 * Prints a read (several VDOMs of which some refused: what the others had, then an error each);
 * `metadata`: the answer is about the table (its defaults, meta, revision), not its objects.
 */
export async function printRead(
  ctx: Context,
  table: TableDef,
  result: ApiResult,
  single: boolean,
  view: ReadView = {},
  facts: Pick<Read, 'filtered' | 'table' | 'none'> & { metadata?: boolean } = {},
): Promise<number> {
  const refused = refusals(result);
  const data = !refused.length || result.envelopes.length ? shapeRead(result, single) : null;
  const { schema, ...about } = readFacts(ctx, table, facts.filtered);
  await ctx.out.print(
    {
      kind: 'read',
      data,
      body: result.body,
      ...about,
      // What the device says about the table (its defaults, its schema) is not one of its objects.
      schema: facts.metadata ? undefined : schema,
      table: facts.table,
      none: facts.none,
      refusals: refused,
    },
    view,
  );
  return mostSevere(refused.map((f) => f.report.exit));
}

/**
 * Prints each outcome of a bulk write as it comes (in input order; one per VDOM when the run writes
 * to several); end() prints what is left and returns the most severe exit code (CLI.md: bulk commands).
 */
export function bulkPrinter(
  ctx: Context,
  opts: WriteOptions,
  table: TableDef,
  verb: string,
): { add(outcomes: BulkOutcome[]): Promise<void>; end(): Promise<number> } {
  const exits = new Set<number>([EXIT.OK]);
  let sink: Promise<BulkSink> | undefined;
  const out = () => (sink ??= ctx.out.bulk({ tablePath: table.path, verb }));
  return {
    /** An item's outcome, or one per VDOM when the run writes to several. */
    async add(outcomes) {
      // A dry run prints the requests it kept instead (runWrites).
      if (opts.dryRun) return;
      for (const o of outcomes) {
        const error = o.error === undefined ? undefined : describeError(o.error);
        if (error) exits.add(error.exit);
        const outcome = o.error instanceof WriteOutcomeError ? o.error.outcome : undefined;
        await (await out()).add({
          mkey: o.mkey,
          result: o.result,
          error,
          outcome,
          ...(o.vdom !== undefined ? { vdom: o.vdom } : {}),
        });
      }
    },
    async end() {
      if (opts.dryRun) return EXIT.OK;
      const exit = mostSevere(exits);
      await (await out()).end(exit);
      return exit;
    },
  };
}

/**
 * For work whose memory must not grow with its size (`list --all`, bulk writes): each page or item is
 * garbage once printed, but under that allocation rate V8 grows its young generation to tens of MB and
 * lets the old one double before collecting it, so the peak would grow with the table (200,000 objects:
 * 100-145 MB). Kept at its start size and collected sooner, the peak stays flat (70-85 MB).
 */
export async function steadyHeap(): Promise<void> {
  const { setFlagsFromString } = await import('node:v8');
  setFlagsFromString('--semi-space-growth-factor=1');
  // And the old generation collected when it has grown by a fifth, not when it has doubled.
  setFlagsFromString('--heap-growing-percent=20');
}

/** A device's name in a --dir: the profile's name, or the host of --host/CMDB_HOST (`demo` with --demo). */
export function deviceName(ctx: Context): string {
  const host = ctx.settings.host;
  const name = ctx.settings.demo
    ? 'demo'
    : !ctx.settings.device && host
      ? new URL(/^\w+:\/\//.test(host) ? host : `https://${host}`).host
      : ctx.device().profile?.name;
  if (!name) throw new UsageError('--dir needs a device name', 'choose a device with -d NAME or --host URL');
  return name.replace(/[^A-Za-z0-9._-]/g, '_');
}

/** `<device>.<extension>`, a device's file in a --dir (`export`, `backup`, `diff`/`apply --dir`). */
export function deviceFileName(ctx: Context, extension: string): string {
  return `${deviceName(ctx)}.${extension}`;
}
