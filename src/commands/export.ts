import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { mostSevere } from '../severity.js';
import { buildDocument } from '../plan/document.js';
import { chosenTables, deviceFileName, readConfiguration } from './desired.js';

export interface ExportOptions {
  excludeDefaultValues?: boolean;
  dir?: string;
}

/**
 * `cmdb export [<table>...]`: the config document of the tables (default: every table that can be
 * read as a whole) in the chosen VDOMs, deterministic. A table that cannot be read is left out with
 * a note, and the run ends with the most severe such failure.
 */
export async function run(ctx: Context, { tables: tableInputs = [] }: { tables?: string[] }, opts: ExportOptions): Promise<number> {
  const vdoms = ctx.vdoms();
  const { tables, failures } = await readConfiguration(ctx, chosenTables(ctx, tableInputs), vdoms, { excludeDefaultValues: opts.excludeDefaultValues });
  for (const { table, report } of failures) ctx.warn(`${table.path} is left out: ${report.message}`);
  const document = { kind: 'object', object: buildDocument(tables) as unknown as Record<string, unknown> } as const;
  if (opts.dir !== undefined) {
    const { text, extension } = await ctx.out.document(document);
    await mkdir(opts.dir, { recursive: true });
    // `DIR/<device>.yaml`: the profile's name, or the host of --host/CMDB_HOST.
    const path = join(opts.dir, `${deviceFileName(ctx)}.${extension}`);
    await writeFile(path, text);
    ctx.notice(`wrote ${path}`);
  } else {
    await ctx.print(document);
  }
  return mostSevere(failures.map((f) => f.report.exit));
}
