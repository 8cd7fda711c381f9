import { chooseColumns } from './columns.js';
import { rowsWithVdom, writeResultObject } from './data.js';
import type { Formatter, RenderOptions, Row } from './types.js';

// RFC 4180 fields and quoting, but lines end in "\n", not "\r\n": what Unix tools (cut, awk,
// csvkit, mlr) and spreadsheets all read, and what a `> file.csv` user expects to diff.
const EOL = '\n';
const NEEDS_QUOTES = /[",\r\n]/;

function field(value: unknown): string {
  if (value === null || value === undefined) return '';
  const text = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

function csv(columns: string[], rows: Row[]): string {
  if (columns.length === 0) return '';
  const line = (cells: unknown[]) => cells.map(field).join(',') + EOL;
  return line(columns) + rows.map((row) => line(columns.map((name) => row[name]))).join('');
}

function rowsCsv(rows: Row[], opts: RenderOptions): string {
  return csv(chooseColumns(rows, { keyField: opts.keyField, fields: opts.fields, hideMeta: false }), rows);
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
      return csv(['vdom', ...rest], rows);
    }
    case 'write': {
      const result = writeResultObject(data.result);
      return csv(Object.keys(result), [result]);
    }
  }
};
