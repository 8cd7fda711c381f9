// Which tables an export (or --from) covers: those named on the line, each resolved in the device's
// catalogue once and in its order, or every table that can be read as a whole (of SPEC.md's 42 with
// --spec).
import { isGlobal, type TableDef, type TableSummary } from '../catalogue/index.js';
import type { Catalogue } from '../catalogue/provider.js';
import { requireOperation, resolveTable, type Say } from '../request/table.js';
import type { DocumentTable } from './document.js';

/** Whether a table can be read as a whole: a keyed table's list, or a singleton's object (by L or G). */
const readable = (table: TableSummary) => table.operations.includes('L') || table.operations.includes('G');

/**
 * The tables named (each resolved in the device's catalogue, once, in the catalogue's order), or every
 * table that can be read as a whole (`spec`: of SPEC.md's 42). A named table the catalogue does not
 * know is a usage error (its key is needed); `force`: one it lists no read for is read anyway
 * (--force), with a warning.
 */
export async function chosenTables(
  catalogue: Catalogue,
  inputs: string[],
  options: { spec?: boolean; force: boolean; say: Say },
): Promise<TableDef[]> {
  // SPEC.md's 42 from their own files; every table from the one file that holds them all.
  if (!inputs.length && options.spec)
    return catalogue
      .summaries()
      .filter((t) => t.spec && readable(t))
      .map((t) => catalogue.find(t.path)!);
  if (!inputs.length) return catalogue.all().filter(readable);
  const resolved: TableDef[] = [];
  for (const input of inputs) resolved.push(await resolveTable(catalogue, input, null));
  const named = [...new Map(resolved.map((t) => [t.path, t])).values()];
  for (const table of named) {
    if (!readable(table))
      requireOperation(table, { force: options.force, say: options.say }, table.singleton ? 'G' : 'L');
  }
  // The catalogue's order (from its index: the whole catalogue is read only for a full export).
  const order = new Map(catalogue.summaries().map((t, i) => [t.path, i]));
  const at = (t: TableDef) => order.get(t.aliasOf ?? t.path) ?? order.size;
  return named.sort((a, b) => at(a) - at(b));
}

/**
 * The keyed tables a backup leaves out, each empty in every VDOM it holds (the global ones once): a
 * backup is a whole configuration, so with --prune every table it could hold counts as named (CLI.md
 * "Snippet or backup"). Only tables whose objects can be listed and deleted: no other could be pruned.
 */
export function leftOutOfBackup(catalogue: Catalogue, held: DocumentTable[], vdoms: string[]): DocumentTable[] {
  const named = new Set(held.map((t) => `${t.vdom}\0${t.table.aliasOf ?? t.table.path}`));
  const out: DocumentTable[] = [];
  for (const summary of catalogue.summaries()) {
    if (summary.singleton || !summary.operations.includes('L') || !summary.operations.includes('D')) continue;
    const table = catalogue.find(summary.path);
    if (!table?.key || table.aliasOf) continue;
    for (const vdom of isGlobal(table) ? [null] : vdoms)
      if (!named.has(`${vdom}\0${table.path}`)) out.push({ vdom, table, content: [] });
  }
  return out;
}
