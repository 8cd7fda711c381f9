import type { Context } from '../../run/context.js';
import { describeError } from '../../run/hints.js';
import type { Device } from '../../device/device.js';
import { namesOf, nearestNames, normalizeTablePath, type TableDef, type TableSummary } from '../../catalogue/index.js';
import type { Catalogue } from '../../catalogue/provider.js';
import { ApiError } from '../../api/errors.js';
import type { ApplyReport } from '../../plan/apply.js';
import { UsageError } from '../../errors.js';
import type { Planned } from '../../output/index.js';
import { normalizeContent, readDocument, type DocumentTable } from '../../plan/document.js';
import type { Shown } from '../../run/hints.js';
import { redactPlan, redactStep, type Comparison, type PlannedTables, type Step } from '../../plan/plan.js';
import { readTableAnyName } from '../../plan/read.js';
import { TableNames } from '../../device/table-names.js';
import { forEachConcurrent } from '../../request/bulk.js';
import { parseDocument, readSource } from '../../request/input.js';
import { requireOperation, resolveTable } from '../../request/table.js';
import { readProfiles } from '../../config/profiles.js';
import { deviceName } from './request.js';
import { join } from 'node:path';

/** Tables read at once over the device's one connection pool. */
export const READ_CONCURRENCY = 8;

/**
 * The desired configuration from a document file (YAML or JSON; `-` for stdin), narrowed to the
 * tables named on the line and the VDOMs of an explicit --vdom.
 */
export async function readDesired(
  ctx: Context,
  file: string | undefined,
  tableInputs: string[],
): Promise<DocumentTable[]> {
  if (file === undefined)
    throw new UsageError(
      'give the desired configuration with -f FILE, --from DEVICE or --dir DIR',
      "write one with 'cmdb export > FILE' (or 'cmdb export --dir DIR', one file per device)",
    );
  const { text, source } = await readSource(ctx.io.stdin, file);
  const value = await parseDocument(text, source);
  const catalogue = await ctx.device().catalogue();
  let tables = readDocument(value, source, (path) => catalogue.find(path));
  if (tableInputs.length) {
    // A table the document does not hold is a typo or the wrong file: comparing nothing would pass.
    // Either name of a renamed table names the same table.
    const canonical = (table: TableDef) => table.aliasOf ?? table.path;
    const held = [...new Set(tables.map((t) => canonical(t.table)))];
    const wanted = new Map<string, string>();
    for (const input of tableInputs) {
      const path = normalizeTablePath(input);
      const table = catalogue.find(path);
      wanted.set(table ? canonical(table) : path, path);
    }
    for (const [path, name] of wanted) {
      if (held.includes(path)) continue;
      const near = nearestNames(name, held, 3);
      throw new UsageError(
        `${name} is not in ${source}`,
        near.length
          ? `did you mean ${near.join(' or ')}?`
          : `${source} holds ${held.length ? held.join(', ') : 'no table'}`,
      );
    }
    tables = tables.filter((t) => wanted.has(canonical(t.table)));
  }
  const vdoms = ctx.settings.vdomText !== undefined ? ctx.device().vdoms : undefined;
  if (vdoms && !vdoms.includes('*')) tables = tables.filter((t) => vdoms.includes(t.vdom));
  return tables;
}

/**
 * Where the desired configuration comes from: a document (-f), another device (--from), or a file per device (--dir).
 */
export interface DesiredSource {
  file?: string;
  from?: string;
  dir?: string;
}

/** The desired configuration of diff and apply, from whichever of -f, --from and --dir was given (one of them). */
export async function readDesiredFrom(
  ctx: Context,
  source: DesiredSource,
  tableInputs: string[],
): Promise<DocumentTable[]> {
  const given = [
    source.file !== undefined && '-f',
    source.from !== undefined && '--from',
    source.dir !== undefined && '--dir',
  ].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give the desired configuration one way: ${given.join(' or ')}, not both`);
  if (source.from !== undefined) return readOtherDevice(ctx, source.from, tableInputs);
  if (source.dir !== undefined) return readDesired(ctx, await deviceFile(ctx, source.dir), tableInputs);
  return readDesired(ctx, source.file, tableInputs);
}

/** `--from DEVICE`: the other saved device's configuration of the tables (default: all) is the desired one. */
async function readOtherDevice(ctx: Context, name: string, tableInputs: string[]): Promise<DocumentTable[]> {
  const tables = await chosenTables(ctx, await ctx.device().catalogue(), tableInputs);
  const vdoms = ctx.device().vdoms;
  // With several devices (-d 'branch-*') the reference is read once for all of them.
  return ctx.once(
    `desired --from ${name} ${tables.map((t) => t.path).join(' ')} ${vdoms?.join(',') ?? ''}`,
    async () => {
      const other = ctx.device().other(name);
      try {
        const { tables: read, failures } = await readConfiguration(other, tables, vdoms);
        for (const { table, report } of failures)
          ctx.out.warn(`${table.path} is left out: it cannot be read on ${name}: ${report.message}`);
        return read;
      } finally {
        await other.close();
      }
    },
  );
}

const DOCUMENT_FILE = /^(.*)\.(yaml|yml|json)$/;

/**
 * `--dir DIR`: this device's file, `DIR/<device>.yaml` (or .json) as `export --dir` writes it. Checked
 * once per run: a file that names no saved device is a usage error (a typo, or a device gone), so is
 * a DIR that cannot be read; a device without a file is an error of that device.
 */
async function deviceFile(ctx: Context, dir: string): Promise<string> {
  const name = deviceName(ctx);
  const files = await ctx.once(`desired --dir ${dir}`, async () => {
    const { readdir } = await import('node:fs/promises');
    let entries: string[];
    try {
      entries = await readdir(dir);
    } catch (err) {
      throw new UsageError(
        `cannot read the directory ${dir}: ` +
          `${(err as NodeJS.ErrnoException).code === 'ENOENT' ? 'it does not exist' : (err as Error).message}`,
        "write it with 'cmdb export -d <devices> --dir DIR'",
      );
    }
    const documents = entries.filter((f) => DOCUMENT_FILE.test(f)).sort();
    const devices = new Set([
      name,
      ...readProfiles(ctx.env).devices.map((p) => p.name.replace(/[^A-Za-z0-9._-]/g, '_')),
    ]);
    const orphan = documents.find((f) => !devices.has(DOCUMENT_FILE.exec(f)![1]));
    if (orphan)
      throw new UsageError(
        `${join(dir, orphan)} names no saved device`,
        "rename it after its device's profile ('cmdb device list'), or move it out of the directory",
      );
    return documents;
  });
  const own = ['yaml', 'yml', 'json'].map((ext) => `${name}.${ext}`).find((f) => files.includes(f));
  if (!own)
    throw new UsageError(
      `no desired configuration for ${name}: ${join(dir, `${name}.yaml`)} does not exist`,
      `write it with 'cmdb export -d ${name} --dir ${dir}', or leave the device out of -d`,
    );
  return join(dir, own);
}

/** `work` over every item, `concurrency` at once over the device's one connection pool; results in input order. */
export async function settleConcurrent<T, R>(
  items: T[],
  work: (item: T) => Promise<R>,
  concurrency = READ_CONCURRENCY,
  onSettled?: () => void,
): Promise<PromiseSettledResult<R>[]> {
  const results: PromiseSettledResult<R>[] = [];
  const settle = (item: T) =>
    work(item)
      .then(
        (value): PromiseSettledResult<R> => ({ status: 'fulfilled', value }),
        (reason: unknown): PromiseSettledResult<R> => ({ status: 'rejected', reason }),
      )
      .finally(onSettled);
  await forEachConcurrent(items, concurrency, settle, async (result) => void results.push(result));
  return results;
}

/** Whether a table can be read as a whole: a keyed table's list, or a singleton's object (by L or G). */
const readable = (table: TableSummary) => table.operations.includes('L') || table.operations.includes('G');

/**
 * The tables named (each resolved in the device's catalogue, once, in the catalogue's order), or every
 * table that can be read as a whole (`spec`: of SPEC.md's 42).
 */
export async function chosenTables(
  ctx: Context,
  catalogue: Catalogue,
  inputs: string[],
  options: { spec?: boolean } = {},
): Promise<TableDef[]> {
  // SPEC.md's 42 from their own files; every table from the one file that holds them all.
  if (!inputs.length && options.spec)
    return catalogue
      .summaries()
      .filter((t) => t.spec && readable(t))
      .map((t) => catalogue.find(t.path)!);
  if (!inputs.length) return catalogue.all().filter(readable);
  const resolved: TableDef[] = [];
  for (const input of inputs) resolved.push(await resolveTable(catalogue, input, ctx.out));
  const named = [...new Map(resolved.map((t) => [t.path, t])).values()];
  for (const table of named) {
    if (!table.known)
      throw new UsageError(
        `${table.path} is not in the catalogue: cmdb cannot tell its key, so it cannot export it`,
        "'cmdb tables' lists the tables it can export",
      );
    if (!readable(table))
      requireOperation(table, { force: ctx.settings.force, say: ctx.out }, table.singleton ? 'G' : 'L');
  }
  // The catalogue's order (from its index: the whole catalogue is read only for a full export).
  const order = new Map(catalogue.summaries().map((t, i) => [t.path, i]));
  const at = (t: TableDef) => order.get(t.aliasOf ?? t.path) ?? order.size;
  return named.sort((a, b) => at(a) - at(b));
}

/** A table that could not be read, and how the user sees why. */
export interface ReadFailure {
  table: TableDef;
  report: Shown;
  /** The device does not have the table (404 under each of its names). */
  missing: boolean;
}

/** Which names the connected device answered to (CLI.md "Names"), remembered per device address. */
async function tableNames(device: Device): Promise<TableNames> {
  return TableNames.load(device.env, device.demo ? 'demo' : (await device.client()).baseUrl);
}

/**
 * The configuration of some tables in some VDOMs (`undefined`: the management VDOM; `*`: all), read
 * `concurrency` at once, VDOM by VDOM in the device's order, tables in the catalogue's; each under the
 * name the device answered to (a renamed table: SPEC.md's or the device's). A table that cannot be
 * read is reported in `failures`; when none can be, the first failure is thrown.
 */
export async function readConfiguration(
  device: Device,
  tables: TableDef[],
  vdoms: string[] | undefined,
  options: { excludeDefaultValues?: boolean; concurrency?: number; onRead?: () => void } = {},
): Promise<{ tables: DocumentTable[]; failures: ReadFailure[] }> {
  const client = await device.client();
  const names = await tableNames(device);
  const read = async (table: TableDef) => {
    const answer = await readTableAnyName(client, table, vdoms, {
      excludeDefaultValues: options.excludeDefaultValues,
      prefer: (n) => names.prefer(n),
    });
    names.answered(namesOf(table), answer.table.path);
    return answer;
  };
  const settled = await settleConcurrent(tables, read, options.concurrency, options.onRead);
  names.save();
  const failures = settled.flatMap((r, i): ReadFailure[] =>
    r.status === 'rejected'
      ? [
          {
            table: tables[i],
            report: describeError(r.reason),
            missing: r.reason instanceof ApiError && r.reason.notFound,
          },
        ]
      : [],
  );
  const first = settled.find((r) => r.status === 'rejected');
  if (first && failures.length === tables.length) throw first.reason;
  const found: DocumentTable[] = [];
  const vdomOrder: string[] = [];
  for (const r of settled) {
    if (r.status === 'rejected') continue;
    const { table, reads } = r.value;
    for (const { vdom, content } of reads) {
      if (!vdomOrder.includes(vdom)) vdomOrder.push(vdom);
      found.push({ vdom, table, content: normalizeContent(table, content) });
    }
  }
  return { tables: vdomOrder.flatMap((vdom) => found.filter((t) => t.vdom === vdom)), failures };
}

/**
 * The device's current content of every document table, read concurrently, each under the name the
 * device answers to (a document may name a renamed table either way); the first failure stops the run.
 */
export async function readCurrent(ctx: Context, desired: DocumentTable[]): Promise<Comparison[]> {
  const client = await ctx.device().client();
  const names = await tableNames(ctx.device());
  const reads = await settleConcurrent(desired, async (d): Promise<Comparison> => {
    const {
      table,
      reads: [first],
    } = await readTableAnyName(client, d.table, [d.vdom], { prefer: (n) => names.prefer(n) });
    names.answered(namesOf(d.table), table.path);
    return { desired: { ...d, table }, actual: first?.content ?? [] };
  });
  names.save();
  return reads.map((r) => {
    if (r.status === 'rejected') throw r.reason;
    return r.value;
  });
}

/** Prints the plan, secrets hidden (`preview`: before apply applies it; `requests`: those of a dry run). */
export async function printPlan(
  ctx: Context,
  planned: PlannedTables,
  extra: Omit<Planned, 'kind' | 'plan'> = {},
): Promise<void> {
  await ctx.out.print({ kind: 'plan', plan: redactPlan(planned), ...extra });
}

/** Prints what an apply did: its steps with secrets hidden, the failure as the user sees it. */
export async function printReport(
  ctx: Context,
  tables: Map<string, TableDef>,
  report: ApplyReport,
  skipped: Step[],
  nothingToDo = false,
): Promise<void> {
  const shown = (steps: Step[]) => steps.map((s) => redactStep(s, tables));
  const failed = report.failed && {
    ...(report.failed.table === null ? report.failed : redactStep(report.failed, tables)),
    error: describeError(report.failed.error),
  };
  await ctx.out.print({
    kind: 'applied',
    applied: shown(report.applied),
    failed,
    notApplied: shown([...report.not_applied, ...skipped]),
    unknown: shown(report.unknown),
    aborted: report.aborted,
    interrupted: report.interrupted,
    nothingToDo,
  });
}
