import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { UsageError } from '../errors.js';
import { selectedProfile } from '../device/select.js';
import { mostSevere } from '../severity.js';
import { buildDocument } from '../plan/document.js';
import { chosenTables, readConfiguration } from './desired.js';

export interface ExportOptions {
  excludeDefaultValues?: boolean;
  dir?: string;
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
  const vdoms = ctx.vdoms();
  const { tables, failures } = await readConfiguration(ctx, chosenTables(ctx, tableInputs), vdoms, { excludeDefaultValues: opts.excludeDefaultValues });
  for (const { table, report } of failures) ctx.warn(`${table.path} is left out: ${report.message}`);
  const document = buildDocument(tables);
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
