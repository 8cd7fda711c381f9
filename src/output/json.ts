import { plainData, rowsWithVdom, writeResultObject } from './data.js';
import { escapeJsonControls } from './text.js';
import type { Formatter, Row, Shaped } from './types.js';

/** JSON text ending in "\n": 2-space indented for a person on a terminal, one line for programs. */
export function jsonText(value: unknown, pretty: boolean): string {
  return escapeJsonControls(JSON.stringify(value, null, pretty ? 2 : undefined) ?? 'null') + '\n';
}

export const formatJson: Formatter = (data, opts) => jsonText(plainData(data), opts.terminal.isTTY);

export function formatRaw(data: Extract<Shaped, { kind: 'raw' }>, pretty: boolean): string {
  return jsonText(data.body, pretty);
}

function lines(rows: Row[]): string {
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
