// How what a command did looks: a write's outcome, a read's result, a bulk write's items and the pages
// of `list --all`, in the run's format (or as the device's answer with --raw). The commands say what
// happened; every decision of format, --raw, notices and columns is taken here. Loaded on first use.
import { errorObject, readWithoutBookkeeping, withoutBookkeeping, writeResultObject } from './data.js';
import { formatPlan, memberChange } from './plan-lines.js';
import { stepInWords, type PlanFacts, type PlanView } from './plan.js';
import { formatRequestLines } from './requests.js';
import { paint } from './color.js';
import { keyWord } from './text.js';
import type { ErrorReport } from './messages.js';
import type {
  Applied,
  Exported,
  OutputFormat,
  Planned,
  PlanStep,
  PrintHooks,
  Read,
  Row,
  RowSink,
  ShapeOptions,
  WriteResult,
  Written,
} from './types.js';

/** What the printer knows of the run when it lowers an outcome. */
export interface Run {
  format: OutputFormat;
  raw: boolean;
  /** Colour on stdout. */
  color: boolean;
}

/** Plans and apply reports are documents in json and yaml; in any other format, lines for people. */
const forScripts = (run: Run) => run.format === 'json' || run.format === 'yaml';

/** What the table line adds when the answer was lost and the object read back, or was already there. */
function outcomeNote(r: WriteResult): string {
  if (r.outcome === 'applied') return ' (the answer was lost; reading it back shows it applied)';
  if (r.outcome === 'unchanged') return ' (already there with the same content: unchanged)';
  return '';
}

/**
 * A write: the result object in json/yaml, one confirming line in table. Several VDOMs: one result
 * each, keyed by VDOM in json/yaml (`{"root":{...},"dmz":{"status":"error",...}}`), one row each in
 * ndjson/csv, a line or an error each in table.
 */
export async function printWritten(data: Written, run: Run, options: ShapeOptions, to: PrintHooks): Promise<void> {
  if (run.raw) return to.emit({ kind: 'raw', body: data.body }, options);
  const line = (r: WriteResult) =>
    `${data.verb} ${data.tablePath}` +
    `${r.mkey !== null && r.mkey !== undefined && r.mkey !== '' ? ` ${keyWord(r.mkey)}` : ''}` +
    `${r.vdom ? ` in vdom ${r.vdom}` : ''}${outcomeNote(r)}`;
  if (!data.severalVdoms && data.results.length === 1)
    return to.emit({ kind: 'write', result: data.results[0], message: line(data.results[0]) }, options);
  if (run.format === 'table') {
    for (const r of data.results) await to.emit({ kind: 'write', result: r, message: line(r) }, options);
    for (const f of data.refusals) to.error(f.report);
    return;
  }
  const rows: Row[] = [
    ...data.results.map((r) => writeResultObject(r)),
    ...data.refusals.map((f) => ({
      status: 'error',
      mkey: data.mkey ?? null,
      vdom: f.vdom,
      ...(f.outcome ? { outcome: f.outcome } : {}),
      error: errorObject(f.report),
    })),
  ];
  // In the device's order of VDOMs.
  const order = (Array.isArray(data.body) ? data.body : []).map((e) => (e as { vdom?: string }).vdom);
  rows.sort((a, b) => order.indexOf(a.vdom as string) - order.indexOf(b.vdom as string));
  if (run.format === 'json' || run.format === 'yaml')
    await to.emit(
      { kind: 'object', object: Object.fromEntries(rows.map((r, i) => [String(r.vdom ?? `vdom${i}`), r])) },
      options,
    );
  else await to.emit({ kind: 'list', rows }, options);
}

/**
 * Nothing found: nothing on stdout, and a line on stderr naming the table, its VDOMs and whether a filter was given.
 */
function sayNone(data: Pick<Read, 'tablePath' | 'vdoms' | 'filtered' | 'none'>, to: PrintHooks): void {
  const where = data.vdoms ? ` (vdom ${data.vdoms.join(',')})` : '';
  to.notice(
    data.filtered
      ? `nothing matched the filter in ${data.tablePath}${where}`
      : data.none
        ? `${data.none}${where}`
        : `no objects in ${data.tablePath}${where}`,
  );
}

/**
 * A read, or the device's answer with --raw; then an error for each VDOM that refused. An empty list
 * says so on stderr in table format, and is still a header in csv (the catalogue's columns).
 */
export async function printRead(data: Read, run: Run, options: ShapeOptions, to: PrintHooks): Promise<void> {
  if (run.raw) await to.emit({ kind: 'raw', body: data.body }, options);
  else if (data.table && run.format === 'table')
    await to.emit({ kind: 'list', rows: data.table.rows }, { ...options, fields: data.table.fields });
  else if (data.data) {
    const shaped = options.hideMeta ? readWithoutBookkeeping(data.data, options.showMeta) : data.data;
    const empty = shaped.kind === 'list' && shaped.rows.length === 0;
    const emptyVdoms =
      shaped.kind === 'byVdom' && Object.values(shaped.vdoms).every((v) => Array.isArray(v) && v.length === 0);
    if (empty && run.format === 'table') {
      if (!data.byKey) sayNone(data, to);
    } else {
      const columns =
        options.fields ?? ((empty || emptyVdoms) && run.format === 'csv' && !data.byKey ? data.columns : undefined);
      await to.emit(shaped, { keyField: data.keyField, schema: data.schema, ...options, fields: columns });
    }
  }
  for (const f of data.refusals) to.error(f.report);
}

/** One item of a bulk write, as it turned out. */
export interface BulkItem {
  mkey: string | number | null;
  /** The VDOM of this result, when the run writes to several (null: the request failed as a whole). */
  vdom?: string | null;
  result?: WriteResult;
  error?: ErrorReport;
  /** How a write turned out when not as asked (`not_applied`, `unknown`). */
  outcome?: string;
}

export interface BulkSink {
  add(item: BulkItem): Promise<void>;
  /** Prints what is left, and the summary when items failed (`exit`: the run's). */
  end(exit: number): Promise<void>;
}

/**
 * A failed bulk item's error names the item by its key, and its VDOM when the run writes to several, whatever the
 * message says.
 */
function namedByKey(
  report: ErrorReport,
  tablePath: string,
  mkey: string | number | null,
  vdom: string | null | undefined,
): ErrorReport {
  const key = mkey === null || mkey === undefined ? null : String(mkey);
  const where = vdom && !report.message.includes(`vdom ${vdom}`) ? ` in vdom ${vdom}` : '';
  if (key !== null && !report.message.includes(key))
    return { ...report, message: `${tablePath} ${JSON.stringify(key)}${where}: ${report.message}` };
  return where ? { ...report, message: `${report.message} (${where.trim()})` } : report;
}

/**
 * Each item of a bulk write as it comes (in input order), so that nothing but the failed items'
 * errors is kept: in a table the success lines, then every error on stderr; in the other formats one
 * list of result rows (CLI.md: bulk commands).
 */
export function bulkSink(what: { tablePath: string; verb: string }, run: Run, to: PrintHooks): BulkSink {
  let total = 0;
  const failed: ErrorReport[] = [];
  let sink: RowSink | undefined;
  const rows = async () => (sink ??= await to.rows({}));
  return {
    async add(item) {
      total++;
      const report = item.error && namedByKey(item.error, what.tablePath, item.mkey, item.vdom);
      if (report) failed.push(report);
      if (run.format !== 'table') {
        const outcome = item.outcome ? { outcome: item.outcome } : {};
        const vdom = item.vdom !== undefined ? { vdom: item.vdom } : {};
        const row = report
          ? { status: 'error', mkey: item.mkey, ...vdom, ...outcome, error: errorObject(report) }
          : { ...item.result };
        await (await rows()).write([row as Row]);
      } else if (!report) {
        const where = item.vdom ? ` in vdom ${item.vdom}` : '';
        await to.emit(
          {
            kind: 'write',
            result: item.result!,
            message:
              (
                `${what.verb} ${what.tablePath} ` +
                `${item.mkey === null || item.mkey === undefined ? '' : keyWord(item.mkey)}`
              ).trimEnd() +
              where +
              outcomeNote(item.result!),
          },
          {},
        );
      }
    },
    async end(exit) {
      if (run.format !== 'table') await (await rows()).end();
      else for (const report of failed) to.error(report);
      if (failed.length)
        to.summarize({
          exit,
          status: null,
          code: null,
          message: `${failed.length} of ${total} failed`,
          hint: null,
          counts: { failed: failed.length, total },
        });
    },
  };
}

export interface PageSink {
  /**
   * One page's answer as it came (--raw prints them all at the end); `severalVdoms`: the device answers for several.
   */
  page(body: unknown, severalVdoms: boolean): void;
  /** One VDOM's rows of the page. */
  rows(vdom: string, rows: Row[]): Promise<void>;
  end(): Promise<void>;
}

/**
 * The pages of `list --all`: rows go out as each page arrives (json, ndjson and csv are written as
 * they come; a table keeps only its cells' text): only --raw, yaml and several VDOMs in a format other
 * than ndjson keep the pages.
 */
export function pageSink(
  data: Omit<Read, 'kind' | 'data' | 'body' | 'refusals' | 'byKey' | 'table'>,
  run: Run,
  options: ShapeOptions,
  to: PrintHooks,
): PageSink {
  const bodies: unknown[] = [];
  const byVdom = new Map<string, Row[]>();
  let several = false;
  let written = 0;
  let sink: RowSink | undefined;
  const facts = { keyField: data.keyField, schema: data.schema };
  const out = async () => (sink ??= await to.rows({ ...facts, ...options }));
  return {
    page(body, severalVdoms) {
      if (run.raw) bodies.push(body);
      several ||= severalVdoms;
    },
    async rows(vdom, page) {
      if (run.raw) return;
      const rows = options.hideMeta ? withoutBookkeeping(page, options.showMeta) : page;
      if (several && run.format === 'ndjson') await (await out()).write(rows.map((r) => ({ vdom, ...r })));
      else if (several) {
        if (!byVdom.has(vdom)) byVdom.set(vdom, []);
        for (const row of rows) byVdom.get(vdom)!.push(row);
      } else {
        await (await out()).write(rows);
        written += rows.length;
      }
    },
    async end() {
      if (run.raw) return to.emit({ kind: 'raw', body: bodies.length === 1 ? bodies[0] : bodies }, options);
      if (several && run.format !== 'ndjson')
        return to.emit({ kind: 'byVdom', vdoms: Object.fromEntries(byVdom) }, { ...facts, ...options });
      await (await out()).end();
      if (several || written) return;
      if (run.format === 'table') sayNone(data, to);
      // An empty csv is still its header, as without --all.
      else if (run.format === 'csv' && options.headers !== false)
        await to.emit({ kind: 'list', rows: [] }, { ...options, fields: options.fields ?? data.columns });
    },
  };
}

/** `3 to create, 1 to update, 2 to delete`, or in sync. */
function planSummary({ plan }: Planned): string {
  if (!plan.create.length && !plan.update.length && !plan.move.length && !plan.delete.length)
    return 'in sync: the device matches the document';
  return (
    `${plan.create.length} to create, ${plan.update.length} to update, ` +
    `${plan.move.length ? `${plan.move.length} to move, ` : ''}${plan.delete.length} to delete`
  );
}

/**
 * The plan object for scripts: as the plan is, with a changed list of references or multi-value field's
 * `from`/`to` joined by the members it adds and removes (`added`, `removed`).
 */
function planObject(plan: PlanView, facts: PlanFacts = {}): PlanView {
  return {
    ...plan,
    update: plan.update.map((entry) => {
      const fields = facts.tables?.get(entry.table)?.fields ?? {};
      const changes = Object.fromEntries(
        Object.entries(entry.changes).map(([name, change]) => {
          const members = memberChange(fields[name], change);
          return [name, members ? { ...change, ...members } : change];
        }),
      );
      return { ...entry, changes };
    }),
  };
}

/** The plan: `+ ~ -` lines with a summary on stderr (and a dry run's requests), or the plan object. */
export async function printPlan(data: Planned, run: Run, options: ShapeOptions, to: PrintHooks): Promise<void> {
  if (forScripts(run)) {
    if (!data.preview) {
      const plan = planObject(data.plan, data.facts);
      await to.emit(
        {
          kind: 'object',
          object: {
            ...plan,
            ...(data.requests ? { requests: data.requests } : {}),
            ...(data.problems?.length ? { problems: data.problems } : {}),
          },
        },
        options,
      );
    }
    for (const problem of data.problems ?? []) to.warn(problem.message);
    return;
  }
  await to.emit({ kind: 'text', text: formatPlan(data.plan, run.color, data.facts) }, options);
  to.notice(planSummary(data));
  for (const problem of data.problems ?? []) to.warn(problem.message);
  if (data.requests?.length) await to.emit({ kind: 'text', text: `\n${formatRequestLines(data.requests)}` }, options);
}

const DONE: Record<string, string> = { create: 'created', update: 'updated', move: 'moved', delete: 'deleted' };

/**
 * What an apply did: `{applied, failed, not_applied, unknown}`, or a line per change made; then the failure and a
 * summary on stderr.
 */
export async function printApplied(data: Applied, run: Run, options: ShapeOptions, to: PrintHooks): Promise<void> {
  if (forScripts(run)) {
    const failed = data.failed ? { ...data.failed, error: errorObject(data.failed.error) } : null;
    await to.emit(
      {
        kind: 'object',
        object: { applied: data.applied, failed, not_applied: data.notApplied, unknown: data.unknown },
      },
      options,
    );
  } else if (data.applied.length) {
    const readBack = (s: PlanStep) => (s.outcome ? ': the answer was lost, reading it back shows it applied' : '');
    await to.emit(
      {
        kind: 'text',
        text: data.applied
          .map(
            (s) =>
              `${DONE[s.action]} ${s.table}${s.key === null ? '' : ` ${keyWord(s.key)}`}` +
              `${s.vdom ? ` (vdom ${s.vdom})` : ''}${readBack(s)}\n`,
          )
          .join(''),
      },
      options,
    );
  }
  if (data.nothingToDo) return;
  if (data.failed)
    to.error({ ...data.failed.error, message: `${stepInWords(data.failed)} failed: ${data.failed.error.message}` });
  for (const other of data.alsoFailed ?? [])
    to.error({ ...other.error, message: `${stepInWords(other)} failed: ${other.error.message}` });
  if (data.interrupted) to.warn('interrupted');
  if (data.aborted) to.notice('the transaction was aborted: nothing was changed on the device');
  // Each change once: made, failed (a transaction that failed is no change of the plan), not made, or unknown.
  const failed = data.failed?.table && data.failed.outcome !== 'unknown' ? 1 : 0;
  const total = data.applied.length + data.notApplied.length + data.unknown.length + failed;
  const unknown = data.unknown.length ? `; unknown (the device may still apply them): ${data.unknown.length}` : '';
  to.notice(
    `applied ${data.applied.length} of ${total} changes${failed ? `; failed: ${failed}` : ''}` +
      `${data.notApplied.length ? `; not applied: ${data.notApplied.length}` : ''}${unknown}`,
  );
}

/**
 * A config document: the document in json and yaml; in table a preview, each VDOM's table under its
 * heading with the columns a read of it shows (an empty one says so).
 */
export async function printDocument(data: Exported, run: Run, options: ShapeOptions, to: PrintHooks): Promise<void> {
  if (run.format !== 'table') return to.emit({ kind: 'object', object: data.document }, options);
  let first = true;
  for (const part of data.parts) {
    const place = part.vdom === null ? ' (global)' : part.vdom ? ` (vdom ${part.vdom})` : '';
    const heading = `== ${part.schema.path}${place} ==`;
    await to.emit({ kind: 'text', text: `${first ? '' : '\n'}${run.color ? paint('bold', heading) : heading}\n` }, {});
    first = false;
    const facts = { keyField: part.keyField, schema: part.schema, ...options };
    if (!Array.isArray(part.content)) await to.emit({ kind: 'object', object: part.content }, facts);
    else if (part.content.length) await to.emit({ kind: 'list', rows: part.content }, facts);
    else await to.emit({ kind: 'text', text: '(no objects)\n' }, {});
  }
}
