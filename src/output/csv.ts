// The csv format, whole or page by page, in bounded memory.
import type { FieldSchema } from '../catalogue/index.js';
import { memberNames } from './cells.js';
import { chooseColumns } from './columns.js';
import { rowsWithVdom, writeResultObject } from './data.js';
import { sanitizeMultiline } from './text.js';
import type { Formatter, RenderOptions, Row, RowFormatter, TableFields } from './types.js';
import { Spool } from './spool.js';

// RFC 4180 fields and quoting, but lines end in "\n", not "\r\n": what Unix tools (cut, awk,
// csvkit, mlr) and spreadsheets all read, and what a `> file.csv` user expects to diff.
const EOL = '\n';
const NEEDS_QUOTES = /[",\r\n]/;

/**
 * One cell: a list of references or members as its names joined by spaces (`lan-net servers-net`), any
 * other nested value as JSON.
 */
function field(value: unknown, visible: boolean, schema?: FieldSchema): string {
  if (value === null || value === undefined) return '';
  const raw = typeof value === 'object' ? (memberNames(value, schema) ?? JSON.stringify(value)) : String(value);
  // On a terminal, escape sequences in device data are shown, not obeyed; a file gets the data as is.
  const text = visible ? sanitizeMultiline(raw) : raw;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const headerOf = (columns: string[], visible: boolean) => columns.map((name) => field(name, visible)).join(',') + EOL;

/** A row's line: each column's cell, read with its field's schema (`schemas`, by column). */
function rowLine(row: Row, columns: string[], schemas: (FieldSchema | undefined)[], visible: boolean): string {
  let line = '';
  for (let i = 0; i < columns.length; i++) line += (i ? ',' : '') + field(row[columns[i]!], visible, schemas[i]);
  return line + EOL;
}

export function csv(columns: string[], rows: Row[], visible: boolean, headers = true, schema?: TableFields): string {
  if (columns.length === 0) return '';
  const schemas = columns.map((name) => schema?.fields[name]);
  return (
    (headers ? headerOf(columns, visible) : '') + rows.map((row) => rowLine(row, columns, schemas, visible)).join('')
  );
}

/** Lines per chunk of text handed to the writer. */
const CHUNK = 512;

/**
 * A csv page by page, byte for byte what formatCsv prints for all the rows. With --fields the
 * columns are known: each page is written at once. Otherwise the header needs every row's fields,
 * so each row is kept only as its fields' text in a Spool (bounded memory) until end().
 */
export function csvRows(opts: RenderOptions): RowFormatter {
  const visible = opts.terminal.isTTY;
  const fields = opts.fields?.length ? opts.fields : null;
  const schemaOf = (name: string) => opts.schema?.fields[name];
  if (fields) {
    const schemas = fields.map(schemaOf);
    // --no-headers: as if the header line had been written already.
    let started = opts.headers === false;
    const header = () => (started ? '' : ((started = true), headerOf(fields, visible)));
    return {
      add: (rows) => (rows.length ? header() + rows.map((row) => rowLine(row, fields, schemas, visible)).join('') : ''),
      end: () => [header()],
    };
  }
  const names: string[] = [];
  const schemas: (FieldSchema | undefined)[] = [];
  const index = new Map<string, number>();
  const spool = new Spool();
  return {
    add(rows) {
      for (const row of rows) {
        const cells: string[] = [];
        for (const name of Object.keys(row)) {
          let i = index.get(name);
          if (i === undefined) {
            index.set(name, (i = names.push(name) - 1));
            schemas[i] = schemaOf(name);
          }
          cells[i] = field(row[name], visible, schemas[i]);
        }
        spool.pushCells(cells);
      }
      return '';
    },
    *end() {
      try {
        if (names.length === 0) return;
        const keyAt = opts.keyField ? index.get(opts.keyField) : undefined;
        const order = [...(keyAt === undefined ? [] : [keyAt]), ...names.map((_, i) => i).filter((i) => i !== keyAt)];
        let text =
          opts.headers === false
            ? ''
            : headerOf(
                order.map((i) => names[i]!),
                visible,
              );
        let n = 0;
        for (const cells of spool.cellRecords()) {
          text += order.map((i) => cells[i] ?? '').join(',') + EOL;
          if (++n % CHUNK === 0) {
            yield text;
            text = '';
          }
        }
        yield text;
      } finally {
        spool.close();
      }
    },
  };
}

function rowsCsv(rows: Row[], opts: RenderOptions): string {
  return csv(
    chooseColumns(rows, { keyField: opts.keyField, fields: opts.fields, hideMeta: false }),
    rows,
    opts.terminal.isTTY,
    opts.headers !== false,
    opts.schema,
  );
}

export const formatCsv: Formatter = (data, opts) => {
  switch (data.kind) {
    case 'list':
      return rowsCsv(data.rows, opts);
    case 'object':
      return rowsCsv([data.object], opts);
    case 'byVdom': {
      const rows = rowsWithVdom(data.vdoms);
      if (rows.length === 0 && !opts.fields?.length) return '';
      const rest = chooseColumns(rows, {
        keyField: opts.keyField,
        fields: opts.fields,
        hideMeta: false,
        exclude: ['vdom'],
      });
      return csv(['vdom', ...rest], rows, opts.terminal.isTTY, opts.headers !== false, opts.schema);
    }
    case 'write': {
      const result = writeResultObject(data.result);
      return csv(Object.keys(result), [result], opts.terminal.isTTY);
    }
  }
};
