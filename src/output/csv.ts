// The csv format, whole or page by page, in bounded memory.
import { chooseColumns } from './columns.js';
import { rowsWithVdom, writeResultObject } from './data.js';
import { sanitizeMultiline } from './text.js';
import type { Formatter, RenderOptions, Row, RowFormatter } from './types.js';
import { Spool } from './spool.js';

// RFC 4180 fields and quoting, but lines end in "\n", not "\r\n": what Unix tools (cut, awk,
// csvkit, mlr) and spreadsheets all read, and what a `> file.csv` user expects to diff.
const EOL = '\n';
const NEEDS_QUOTES = /[",\r\n]/;

function field(value: unknown, visible: boolean): string {
  if (value === null || value === undefined) return '';
  const raw = typeof value === 'object' ? JSON.stringify(value) : String(value);
  // On a terminal, escape sequences in device data are shown, not obeyed; a file gets the data as is.
  const text = visible ? sanitizeMultiline(raw) : raw;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

const lineOf = (cells: unknown[], visible: boolean) => cells.map((cell) => field(cell, visible)).join(',') + EOL;

export function csv(columns: string[], rows: Row[], visible: boolean, headers = true): string {
  if (columns.length === 0) return '';
  const line = (cells: unknown[]) => lineOf(cells, visible);
  return (headers ? line(columns) : '') + rows.map((row) => line(columns.map((name) => row[name]))).join('');
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
  const line = (cells: unknown[]) => lineOf(cells, visible);
  const fields = opts.fields?.length ? opts.fields : null;
  if (fields) {
    // --no-headers: as if the header line had been written already.
    let started = opts.headers === false;
    const header = () => (started ? '' : ((started = true), line(fields)));
    return {
      add: (rows) => (rows.length ? header() + rows.map((row) => line(fields.map((name) => row[name]))).join('') : ''),
      end: () => [header()],
    };
  }
  const names: string[] = [];
  const index = new Map<string, number>();
  const spool = new Spool();
  return {
    add(rows) {
      for (const row of rows) {
        const cells: string[] = [];
        for (const name of Object.keys(row)) {
          let i = index.get(name);
          if (i === undefined) index.set(name, (i = names.push(name) - 1));
          cells[i] = field(row[name], visible);
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
        let text = opts.headers === false ? '' : line(order.map((i) => names[i]));
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
      return csv(['vdom', ...rest], rows, opts.terminal.isTTY, opts.headers !== false);
    }
    case 'write': {
      const result = writeResultObject(data.result);
      return csv(Object.keys(result), [result], opts.terminal.isTTY);
    }
  }
};
