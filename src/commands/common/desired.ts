// Where the desired configuration of diff and apply comes from: a document file (-f, `-` for stdin),
// another saved device (--from), or this device's file in a folder (--dir, as `export --dir` writes
// them); narrowed to the tables named on the line and the VDOMs of an explicit --vdom. Reading and
// comparing is the plan library's (src/plan).
import { join } from 'node:path';
import type { Catalogue } from '../../catalogue/provider.js';
import { readProfiles } from '../../config/profiles.js';
import { UsageError } from '../../errors.js';
import {
  narrowDocument,
  readConfDocument,
  readDocument,
  type CheckedDocument,
  type DocumentOrigin,
  type DocumentTable,
} from '../../plan/document.js';
import { readConfiguration } from '../../plan/read.js';
import { chosenTables, leftOutOfBackup } from '../../plan/tables.js';
import { parseDocument, readSource } from '../../request/input.js';
import { isConf } from '../../syntax/index.js';
import type { Context } from '../../run/context.js';
import { describeError } from '../../run/hints.js';
import { deviceName } from './request.js';

/** Where the desired configuration comes from: a document (-f), another device (--from), a file per device (--dir). */
export interface DesiredSource {
  file?: string;
  from?: string;
  dir?: string;
  /** A backup (`.conf` with its header) then counts every table it could hold as named. */
  prune?: boolean;
  /** A `.conf` block for a table the device does not know is a usage error, not a note. */
  strict?: boolean;
}

/** The desired configuration: its tables, where it came from, and whether it leaves out fields at their default. */
export interface Desired {
  tables: DocumentTable[];
  /** The document's `device:`; for --from, absent: `fromOtherDevice` says it all. */
  device?: DocumentOrigin;
  /** --from: another device's configuration, whatever its serial number. */
  fromOtherDevice: boolean;
  /** `defaults: excluded`: a field the document leaves out is at its default. */
  defaultsExcluded: boolean;
  /** Tables a backup leaves out, held empty for --prune: one the device does not have is left out. */
  implied?: ReadonlySet<DocumentTable>;
}

/** The desired configuration of diff and apply, from whichever of -f, --from and --dir was given (one of them). */
export async function readDesiredFrom(ctx: Context, source: DesiredSource, tableInputs: string[]): Promise<Desired> {
  const given = [
    source.file !== undefined && '-f',
    source.from !== undefined && '--from',
    source.dir !== undefined && '--dir',
  ].filter(Boolean);
  if (given.length > 1) throw new UsageError(`give the desired configuration one way: ${given.join(' or ')}, not both`);
  if (source.from !== undefined)
    return {
      tables: await readOtherDevice(ctx, source.from, tableInputs),
      fromOtherDevice: true,
      defaultsExcluded: false,
    };
  if (source.dir !== undefined) return readDesired(ctx, await deviceFile(ctx, source.dir), tableInputs, source);
  return readDesired(ctx, source.file, tableInputs, source);
}

/**
 * A document file (YAML, JSON, or the device's own syntax, told apart by content; `-` for stdin),
 * checked whole, narrowed to the tables and VDOMs asked.
 */
async function readDesired(
  ctx: Context,
  file: string | undefined,
  tableInputs: string[],
  options: DesiredSource,
): Promise<Desired> {
  if (file === undefined)
    throw new UsageError(
      'give the desired configuration with -f FILE, --from DEVICE or --dir DIR',
      "write one with 'cmdb export > FILE' (or 'cmdb export --dir DIR', one file per device)",
    );
  const { text, source } = await readSource(ctx.io.stdin, file);
  const catalogue = await ctx.device().catalogue();
  const vdoms = ctx.settings.vdomText !== undefined ? ctx.device().vdoms : undefined;
  const find = (path: string) => catalogue.find(path);
  let checked: CheckedDocument;
  let implied: Set<DocumentTable> | undefined;
  if (isConf(text)) {
    const conf = readConfText(ctx, text, confSource(file), catalogue, options);
    checked = conf;
    if (conf.backup && options.prune) {
      implied = new Set(leftOutOfBackup(catalogue, conf.tables, conf.vdoms.length ? conf.vdoms : [conf.vdom]));
      checked = { ...conf, tables: [...conf.tables, ...implied] };
    }
  } else checked = readDocument(await parseDocument(text, source), source, catalogue);
  const { tables, ...head } = checked;
  return {
    device: head.device,
    defaultsExcluded: head.defaultsExcluded,
    tables: narrowDocument(tables, source, tableInputs, find, vdoms),
    fromOtherDevice: false,
    ...(implied ? { implied } : {}),
  };
}

/** A `.conf` as messages name it, before the line: `fw.conf:12: ...`, `standard input:3: ...`. */
const confSource = (file: string) => (file === '-' ? 'standard input' : file);

/**
 * A `.conf` read against the device's catalogue: blocks outside any `config vdom` of tables that are not
 * global go to the VDOM of --vdom (several is a usage error); blocks of tables it does not know are said
 * once on stderr (--strict: refused).
 */
function readConfText(ctx: Context, text: string, source: string, catalogue: Catalogue, options: DesiredSource) {
  const vdoms = ctx.device().vdoms ?? ['root'];
  const conf = readConfDocument(text, source, catalogue, { vdom: vdoms[0], strict: options.strict });
  if (!conf.vdoms.length && conf.tables.some((t) => t.vdom !== null) && (vdoms.length > 1 || vdoms[0] === '*'))
    throw new UsageError(
      `${source} has no config vdom blocks: its tables go to one VDOM, and --vdom names ${vdoms.join(',')}`,
      'give one VDOM with --vdom, or put the blocks in config vdom / edit <vdom> blocks',
    );
  if (conf.unknown.length)
    ctx.out.warn(
      `left out of ${source}, tables this device does not know: ${conf.unknown
        .map((u) => `${u.path} (line ${u.line}${u.count > 1 ? `, ${u.count} blocks` : ''})`)
        .join(', ')}`,
    );
  return { ...conf, vdom: vdoms[0] };
}

/** `--from DEVICE`: the other saved device's configuration of the tables (default: all) is the desired one. */
async function readOtherDevice(ctx: Context, name: string, tableInputs: string[]): Promise<DocumentTable[]> {
  const tables = await chosenTables(await ctx.device().catalogue(), tableInputs, {
    force: ctx.settings.force,
    say: ctx.out,
  });
  const vdoms = ctx.device().vdoms;
  // With several devices (-d 'branch-*') the reference is read once for all of them.
  return ctx.once(
    `desired --from ${name} ${tables.map((t) => t.path).join(' ')} ${vdoms?.join(',') ?? ''}`,
    async () => {
      const other = ctx.device().other(name);
      try {
        const { tables: read, failures } = await readConfiguration(other, tables, vdoms);
        // When no table can be read, that is the error; otherwise the others are the reference.
        if (failures.length && failures.length === tables.length) throw failures[0].error;
        for (const { table, error } of failures)
          ctx.out.warn(`${table.path} is left out: it cannot be read on ${name}: ${describeError(error).message}`);
        return read;
      } finally {
        await other.close();
      }
    },
  );
}

const DOCUMENT_FILE = /^(.*)\.(yaml|yml|json|conf)$/;

/**
 * `--dir DIR`: this device's file, `DIR/<device>.yaml` (or .json, or .conf) as `export --dir` writes it. Checked
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
  const own = ['yaml', 'yml', 'json', 'conf'].map((ext) => `${name}.${ext}`).find((f) => files.includes(f));
  if (!own)
    throw new UsageError(
      `no desired configuration for ${name}: ${join(dir, `${name}.yaml`)} does not exist`,
      `write it with 'cmdb export -d ${name} --dir ${dir}', or leave the device out of -d`,
    );
  return join(dir, own);
}
