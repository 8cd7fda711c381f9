import { chooseColumns } from './columns.js';
import { rowsWithVdom, writeResultObject } from './data.js';
import { sanitizeMultiline } from './text.js';
import type { Formatter, RenderOptions, Row } from './types.js';

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

function csv(columns: string[], rows: Row[], visible: boolean): string {
  if (columns.length === 0) return '';
  const line = (cells: unknown[]) => cells.map((cell) => field(cell, visible)).join(',') + EOL;
  return line(columns) + rows.map((row) => line(columns.map((name) => row[name]))).join('');
}

function rowsCsv(rows: Row[], opts: RenderOptions): string {
  return csv(chooseColumns(rows, { keyField: opts.keyField, fields: opts.fields, hideMeta: false }), rows, opts.terminal.isTTY);
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
      const rest = chooseColumns(rows, { keyField: opts.keyField, fields: opts.fields, hideMeta: false, exclude: ['vdom'] });
      return csv(['vdom', ...rest], rows, opts.terminal.isTTY);
    }
    case 'write': {
      const result = writeResultObject(data.result);
      return csv(Object.keys(result), [result], opts.terminal.isTTY);
    }
  }
};
