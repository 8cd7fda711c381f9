// The json and ndjson formats, whole or row by row, and --raw.
import { plainData, rowsWithVdom, writeResultObject } from './data.js';
import { escapeJsonControls } from './text.js';
import type { Formatter, RenderOptions, Row, RowFormatter, Shaped } from './types.js';

/** JSON text ending in "\n": 2-space indented for a person on a terminal, one line for programs. */
export function jsonText(value: unknown, pretty: boolean): string {
  return escapeJsonControls(JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null') + '\n';
}

export const formatJson: Formatter = (data, opts) => jsonText(plainData(data), opts.terminal.isTTY);

export function formatRaw(data: Extract<Shaped, { kind: 'raw' }>, pretty: boolean): string {
  return jsonText(data.body, pretty);
}

function lines(rows: readonly Row[]): string {
  return rows.map((row) => escapeJsonControls(JSON.stringify(row)) + '\n').join('');
}

export const formatNdjson: Formatter = (data) => {
  switch (data.kind) {
    case 'list':
      return lines(data.rows);
    case 'object':
      return lines([data.object]);
    case 'byVdom':
      return lines(rowsWithVdom(data.vdoms));
    case 'write':
      return lines([writeResultObject(data.result)]);
  }
};

/** ndjson page by page: each row is written as it arrives. */
export function ndjsonRows(): RowFormatter {
  return { add: lines, end: () => [] };
}

/**
 * A json array page by page, byte for byte what formatJson prints for all the rows: `[`, the rows
 * (each indented one level when pretty), `]`. Nothing is kept.
 */
export function jsonRows(opts: RenderOptions): RowFormatter {
  const pretty = opts.terminal.isTTY;
  let first = true;
  const item = pretty
    ? (row: Row) => (JSON.stringify(row, null, 2) ?? 'null').replace(/\n/g, '\n  ')
    : (row: Row) => JSON.stringify(row) ?? 'null';
  return {
    add(rows) {
      let text = '';
      for (const row of rows) {
        text += (first ? (pretty ? '[\n  ' : '[') : pretty ? ',\n  ' : ',') + item(row);
        first = false;
      }
      return text;
    },
    end: () => [first ? '[]\n' : pretty ? '\n]\n' : ']\n'],
  };
}
