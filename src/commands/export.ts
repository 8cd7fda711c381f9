// `cmdb export`: the config document of some tables, or all, from the device.
import { join } from 'node:path';
import type { Context } from '../run/context.js';
import { writePrivateFile } from '../files.js';
import { EXIT } from '../errors.js';
import { mostSevere } from '../severity.js';
import { buildDocument, type DocumentOrigin } from '../plan/document.js';
import { READ_CONCURRENCY, readConfiguration, type ReadFailure } from '../plan/read.js';
import { chosenTables } from '../plan/tables.js';
import { parseConcurrency } from '../request/bulk.js';
import { describeError } from '../run/hints.js';
import { deviceFileName, tablesView, type ShownOptions } from './common/request.js';

export interface ExportOptions extends Pick<ShownOptions, 'wide' | 'columns'> {
  excludeDefaultValues?: boolean;
  dir?: string;
  concurrency?: string;
  spec?: boolean;
}

/** `one is` / `3 are`: how many tables a part of the summary line is about. */
const howMany = (n: number) => (n === 1 ? 'one is' : `${n} are`);

/**
 * What a full export could not read, said once: tables refused by the access profile in one line
 * naming their groups, tables the device does not have (404) or will not list (405: its model or
 * mode lacks them) counted in it; any other failure (and every failure of tables named on the line)
 * a line each. Returns the exit codes that count: all but those of the tables a full export finds
 * missing or unlisted.
 */
function reportFailures(ctx: Context, read: ReadFailure[], full: boolean): number[] {
  const failures = read.map((f) => ({ ...f, report: describeError(f.error) }));
  const refused = full ? failures.filter((f) => f.report.exit === EXIT.FORBIDDEN) : [];
  const missing = full ? failures.filter((f) => f.missing) : [];
  const unlisted = full ? failures.filter((f) => f.unlisted && !f.missing) : [];
  const others = failures.filter((f) => !refused.includes(f) && !missing.includes(f) && !unlisted.includes(f));
  for (const { table, report } of others) ctx.out.warn(`${table.path} is left out: ${report.message}`);
  const count = refused.length + missing.length + unlisted.length;
  if (count) {
    const groups = [...new Set(refused.map((f) => f.table.group))].sort().join(', ');
    const denied = refused.length
      ? `permission denied${refused.length < count ? ` for ${refused.length}` : ''} (groups: ${groups})`
      : '';
    const absent = missing.length ? `${howMany(missing.length)} not on this device` : '';
    const refusing = unlisted.length ? `${howMany(unlisted.length)} not listed by this device (HTTP 405)` : '';
    ctx.out.warn(
      `${count} ${count === 1 ? 'table' : 'tables'} left out: ${[denied, absent, refusing].filter(Boolean).join('; ')}`,
    );
  }
  return [...refused, ...others].map((f) => f.report.exit);
}

/** Where the document comes from, as the device's answers say: its serial number and release. */
async function origin(ctx: Context): Promise<DocumentOrigin | undefined> {
  const seen = (await ctx.device().client()).release;
  if (!seen?.serial) return undefined;
  return { serial: seen.serial, version: seen.version };
}

/**
 * `cmdb export [<table>...]`: the config document of the tables (default: every table the device has
 * that can be read as a whole; `--spec`: of SPEC.md's 42) in the chosen VDOMs, deterministic, read
 * `--concurrency` at once with a progress line on a terminal. A table that cannot be read is left out
 * (reportFailures), and the run ends with the most severe such failure.
 */
export async function run(
  ctx: Context,
  { tables: tableInputs = [] }: { tables?: string[] },
  opts: ExportOptions,
): Promise<number> {
  const vdoms = ctx.device().vdoms;
  // An interruption says which files were written (those of the devices done, with -d a,b).
  if (opts.dir !== undefined) ctx.record.files ??= [];
  const concurrency = opts.concurrency === undefined ? READ_CONCURRENCY : parseConcurrency(opts.concurrency);
  const chosen = await chosenTables(await ctx.device().catalogue(), tableInputs, {
    spec: opts.spec,
    force: ctx.settings.force,
    say: ctx.out,
  });
  // Checked before anything is read: a file holds a document, and --columns names fields of these tables.
  if (opts.dir !== undefined) ctx.out.fileFormat();
  const view = tablesView(chosen, opts);
  const progress = ctx.out.progress('tables', chosen.length);
  let done = 0;
  const { tables, failures } = await readConfiguration(ctx.device(), chosen, vdoms, {
    excludeDefaultValues: opts.excludeDefaultValues,
    concurrency,
    onRead: () => progress.update(++done),
  }).finally(() => progress.done());
  // When no table can be read, that is the error; otherwise the document holds the others.
  if (failures.length && failures.length === chosen.length) throw failures[0].error;
  const exits = reportFailures(ctx, failures, tableInputs.length === 0);
  const document = buildDocument(tables, {
    device: await origin(ctx),
    defaultsExcluded: opts.excludeDefaultValues,
  }) as unknown as Record<string, unknown>;
  // In the device's syntax (-o cli) each table is spelt by its catalogue entry.
  const shown = { ...view, conf: { tables: tables.map((t) => t.table), changed: !!opts.excludeDefaultValues } };
  if (opts.dir !== undefined) {
    const { text, extension } = await ctx.out.document({ kind: 'object', object: document }, shown);
    const path = join(opts.dir, deviceFileName(ctx, extension));
    // Private: an export holds ENC secrets and private keys. An existing folder others can read is named.
    writePrivateFile(path, text, { warn: (message) => ctx.out.warn(message) });
    ctx.record.files?.push(path);
    ctx.out.notice(`wrote ${path}`);
  } else {
    const parts = tables.map(({ vdom, table, content }) => ({
      vdom,
      keyField: table.key,
      schema: { path: table.aliasOf ?? table.path, fields: table.fields },
      content,
    }));
    await ctx.out.print({ kind: 'document', document, parts }, shown);
  }
  return mostSevere(exits);
}
