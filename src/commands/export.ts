import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { allTables, type TableDef } from '../catalogue/index.js';
import { UsageError } from '../errors.js';
import { selectedProfile } from '../device/select.js';
import { mostSevere } from '../severity.js';
import { buildDocument, normalizeContent, type DocumentTable } from '../plan/document.js';
import { readTable, type TableRead } from '../plan/read.js';
import { settleConcurrent } from './desired.js';
import { requireOperation, resolveTable } from '../request/table.js';

export interface ExportOptions {
  excludeDefaultValues?: boolean;
  dir?: string;
}

/** Whether a table can be read as a whole: a keyed table's list, or a singleton's object. */
const readable = (table: TableDef) => table.operations.includes(table.singleton ? 'G' : 'L');

function chosenTables(ctx: Context, inputs: string[]): TableDef[] {
  if (!inputs.length) return allTables().filter(readable);
  const named = [...new Map(inputs.map((input) => resolveTable(ctx, input)).map((t) => [t.path, t])).values()];
  for (const table of named) {
    if (!table.known) throw new UsageError(`${table.path} is not in the catalogue: cmdb cannot tell its key, so it cannot export it`, "'cmdb tables' lists the tables it can export");
    requireOperation(ctx, table, table.singleton ? 'G' : 'L');
  }
  const order = new Map(allTables().map((t, i) => [t.path, i]));
  return named.sort((a, b) => order.get(a.path)! - order.get(b.path)!);
}

/** `DIR/<device>.yaml`: the profile's name, or the host of --host/CMDB_HOST. */
function deviceFileName(ctx: Context, extension: string): string {
  const host = ctx.settings.host;
  const name = ctx.demo ? 'demo' : !ctx.settings.device && host ? new URL(/^\w+:\/\//.test(host) ? host : `https://${host}`).host : selectedProfile(ctx)?.name;
  if (!name) throw new UsageError('--dir needs a device name', 'choose a device with -d NAME or --host URL');
  return `${name.replace(/[^A-Za-z0-9._-]/g, '_')}.${extension}`;
}

/**
 * `cmdb export [<table>...]`: the config document of the tables (default: every table that can be
 * read as a whole) in the chosen VDOMs, deterministic. A table that cannot be read is left out with
 * a note, and the run ends with the most severe such failure.
 */
export async function run(ctx: Context, { tables: tableInputs = [] }: { tables?: string[] }, opts: ExportOptions): Promise<number> {
  const format = ctx.explicitFormat ?? 'yaml';
  if (format !== 'yaml' && format !== 'json') throw new UsageError(`-o ${format} does not fit a config document`, 'use -o yaml (the default) or -o json');
  const tables = chosenTables(ctx, tableInputs);
  const vdoms = ctx.vdoms();
  const client = await ctx.client();
  const settled = await settleConcurrent(tables, (table) => readTable(client, table, vdoms, { excludeDefaultValues: opts.excludeDefaultValues }));
  const reads = settled.map((r, i): { table: TableDef; read: TableRead[] } | { table: TableDef; error: unknown } =>
    r.status === 'fulfilled' ? { table: tables[i], read: r.value } : { table: tables[i], error: r.reason },
  );
  const failures = reads.flatMap((r) => ('error' in r ? [{ table: r.table, report: ctx.describe(r.error) }] : []));
  if (failures.length === reads.length && failures.length) throw (reads[0] as { error: unknown }).error;
  for (const { table, report } of failures) ctx.warn(`${table.path} is left out: ${report.message}`);
  const found: DocumentTable[] = [];
  const vdomOrder: string[] = [];
  for (const r of reads) {
    if (!('read' in r)) continue;
    for (const { vdom, content } of r.read) {
      if (!vdomOrder.includes(vdom)) vdomOrder.push(vdom);
      found.push({ vdom, table: r.table, content: normalizeContent(r.table, content) });
    }
  }
  const ordered = vdomOrder.flatMap((vdom) => found.filter((t) => t.vdom === vdom));
  const document = buildDocument(ordered);
  if (opts.dir !== undefined) {
    const { render } = await import('../output/index.js');
    const text = await render({ kind: 'object', object: document as unknown as Record<string, unknown> }, { format, terminal: { isTTY: false, columns: 80, color: false } });
    await mkdir(opts.dir, { recursive: true });
    const path = join(opts.dir, deviceFileName(ctx, format));
    await writeFile(path, text);
    ctx.notice(`wrote ${path}`);
  } else {
    await ctx.print({ kind: 'object', object: document as unknown as Record<string, unknown> }, { format });
  }
  return mostSevere(failures.map((f) => f.report.exit));
}
