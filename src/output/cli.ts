// The cli format: the device's own configuration syntax (`config` / `edit` / `set` / `next` / `end`),
// written by src/syntax from the catalogue's tables: a read as a snippet (a block per VDOM when several),
// a config document in the layout of a backup when it spans several VDOMs or holds global tables.
import type { TableDef } from '../catalogue/index.js';
import { ConfWriter, writeConf, type ConfTableInput, type Obj, type WriteOptions } from '../syntax/index.js';
import type { Formatter, RenderOptions, Row, RowFormatter, Shaped } from './types.js';

/** A config document as export prints it: the global tables (when held once), then each VDOM's. */
interface Document {
  global?: Record<string, Obj[] | Obj>;
  vdoms?: Record<string, Record<string, Obj[] | Obj>>;
}

function tableOf(opts: RenderOptions): TableDef {
  const table = opts.conf?.table;
  if (!table) throw new TypeError('the cli format writes a read of a table it is given');
  return table;
}

function fieldsOf(opts: RenderOptions): WriteOptions['fields'] {
  return opts.conf?.changed ? 'changed' : 'all';
}

/** One VDOM's read as a table's content: a singleton's one object, a keyed table's list. */
function contentOf(table: TableDef, value: Row[] | Row): Obj[] | Obj {
  if (table.singleton) return Array.isArray(value) ? (value[0] ?? {}) : value;
  return Array.isArray(value) ? value : [value];
}

/**
 * A document's tables in its order, each with its catalogue entry. A table the catalogue holds once
 * for the device (`scope: global`) found under a VDOM is written once, in `config global`, from the
 * first VDOM that has it (CLI.md: such a table under a VDOM is taken as global).
 */
function documentTables(document: Document, known: readonly TableDef[]): ConfTableInput[] {
  const byPath = new Map(known.map((t) => [t.path, t]));
  const tables: ConfTableInput[] = [];
  const global = new Set<string>();
  const add = (vdom: string | null, path: string, content: Obj[] | Obj) => {
    const table = byPath.get(path);
    if (!table) throw new TypeError(`the cli format was not given the table ${path}`);
    const place = table.scope === 'global' ? null : vdom;
    if (place === null && global.has(path)) return;
    if (place === null) global.add(path);
    tables.push({ vdom: place, table, content });
  };
  for (const [path, content] of Object.entries(document.global ?? {})) add(null, path, content);
  for (const [vdom, byTable] of Object.entries(document.vdoms ?? {}))
    for (const [path, content] of Object.entries(byTable)) add(vdom, path, content);
  return tables;
}

/** A read (list, get) or a config document (export) in the device's syntax. */
export const formatCli: Formatter = (data, opts) => {
  const fields = fieldsOf(opts);
  const tables = opts.conf?.tables;
  if (tables) {
    if (data.kind !== 'object') throw new TypeError(`the cli format writes a config document, not a ${data.kind}`);
    return writeConf(documentTables(data.object as Document, tables), { fields, document: true });
  }
  const table = tableOf(opts);
  const one = (rows: Row[] | Row) =>
    writeConf([{ vdom: null, table, content: contentOf(table, rows) }], { fields, layout: 'snippet' });
  switch (data.kind) {
    case 'list':
      return one(data.rows);
    case 'object':
      return one(data.object);
    case 'byVdom':
      // A block per VDOM, as a backup holds them, without the backup's leading list of VDOMs.
      return writeConf(
        Object.entries(data.vdoms).map(([vdom, value]) => ({ vdom, table, content: contentOf(table, value) })),
        { fields, layout: 'backup', vdoms: [] },
      );
    default:
      throw new TypeError(`the cli format writes objects, not a ${(data as Shaped).kind}`);
  }
};

/** `list --all`: the table's block opened once, each object written as its page arrives, then `end`. */
export function cliRows(opts: RenderOptions): RowFormatter {
  const writer = new ConfWriter({ layout: 'snippet', fields: fieldsOf(opts) });
  writer.open(null, tableOf(opts));
  return {
    add(rows) {
      let text = '';
      for (const row of rows) text += writer.object(row);
      return text;
    },
    end: () => [writer.finish()],
  };
}
