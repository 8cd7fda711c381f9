import { join } from 'node:path';
import type { Context } from '../cli/context.js';
import { writePrivateFile } from '../files.js';
import { mostSevere } from '../severity.js';
import { buildDocument } from '../plan/document.js';
import { chosenTables, readConfiguration } from './desired.js';
import { deviceFileName } from './shared.js';

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
  const { tables, failures } = await readConfiguration(ctx, await chosenTables(ctx, await ctx.catalogue(), tableInputs), vdoms, { excludeDefaultValues: opts.excludeDefaultValues });
  for (const { table, report } of failures) ctx.warn(`${table.path} is left out: ${report.message}`);
  const document = { kind: 'object', object: buildDocument(tables) as unknown as Record<string, unknown> } as const;
  if (opts.dir !== undefined) {
    const { text, extension } = await ctx.out.document(document);
    const path = join(opts.dir, deviceFileName(ctx, extension));
    // Private: an export holds ENC secrets and private keys. An existing folder others can read is named.
    writePrivateFile(path, text, { warn: (message) => ctx.warn(message) });
    ctx.notice(`wrote ${path}`);
  } else {
    await ctx.print(document);
  }
  return mostSevere(failures.map((f) => f.report.exit));
}
