import Table from 'cli-table3';
import { cellText, valueLines } from './cells.js';
import { ansi } from './color.js';
import { chooseColumns } from './columns.js';
import { displayWidth, sanitizeInline, truncate, wrap } from './text.js';
import type { Formatter, RenderOptions, Row } from './types.js';

// Tables as kubectl and gh print them: no borders, columns two spaces apart, header in bold
// when colour is on. Headers keep the device's field names (not upper-cased) so they can be
// copied into --fields and --filter.

const GAP = 2;
/** No column is cut below this (or below its header, up to HEADER_KEEP). */
const MIN_COLUMN = 6;
const HEADER_KEEP = 16;
/** In `field  value` views a value column keeps at least this much room. */
const MIN_VALUE = 20;

const NO_BORDERS = {
  top: '', 'top-mid': '', 'top-left': '', 'top-right': '',
  bottom: '', 'bottom-mid': '', 'bottom-left': '', 'bottom-right': '',
  left: '', 'left-mid': '', mid: '', 'mid-mid': '', right: '', 'right-mid': '',
  middle: ' '.repeat(GAP),
};

function layout(rows: string[][], colWidths?: number[]): string {
  const table = new Table({
    chars: NO_BORDERS,
    style: { 'padding-left': 0, 'padding-right': 0, head: [], border: [] },
    ...(colWidths ? { colWidths } : {}),
  });
  table.push(...rows);
  return table
    .toString()
    .split('\n')
    .map((line) => line.trimEnd())
    .join('\n');
}

function fits(terminal: RenderOptions['terminal']): boolean {
  return terminal.isTTY && Number.isFinite(terminal.columns) && terminal.columns > 0;
}

export interface ColumnPlan {
  /** Width of each shown column; columns past widths.length are dropped. */
  widths: number[];
}

/**
 * Fit columns of natural widths `natural` (headers `headerWidths`) into `total` columns.
 * Keeps the longest run of leading columns that fits at their floor width (never below
 * MIN_COLUMN or the header), then cuts the widest columns first down to a common cap,
 * handing any remainder back to the leftmost capped columns.
 */
export function planColumns(natural: number[], headerWidths: number[], total: number): ColumnPlan {
  const floors = natural.map((w, i) => Math.min(w, Math.max(MIN_COLUMN, Math.min(headerWidths[i]!, HEADER_KEEP))));
  let kept = 0;
  let used = 0;
  while (kept < natural.length) {
    const next = used + (kept > 0 ? GAP : 0) + floors[kept]!;
    if (next > total && kept > 0) break;
    used = next;
    kept++;
  }
  const room = total - GAP * (kept - 1);
  const want = natural.slice(0, kept);
  const floor = floors.slice(0, kept);
  if (want.reduce((a, b) => a + b, 0) <= room) return { widths: want };
  if (kept === 1) return { widths: [Math.max(1, Math.min(want[0]!, room))] };
  const at = (cap: number) => want.map((w, i) => Math.max(floor[i]!, Math.min(w, cap)));
  const sum = (ws: number[]) => ws.reduce((a, b) => a + b, 0);
  let lo = 0;
  let hi = Math.max(...want);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (sum(at(mid)) <= room) lo = mid;
    else hi = mid - 1;
  }
  const widths = at(lo);
  let spare = room - sum(widths);
  for (let i = 0; i < widths.length && spare > 0; i++) {
    if (widths[i]! < want[i]!) {
      widths[i]!++;
      spare--;
    }
  }
  return { widths };
}

function listTable(rows: Row[], opts: RenderOptions): string {
  if (rows.length === 0) return '';
  const columns = chooseColumns(rows, { keyField: opts.keyField, fields: opts.fields, hideMeta: true });
  if (columns.length === 0) return '';
  const { terminal } = opts;
  const headers = columns.map(sanitizeInline);
  const body = rows.map((row) => columns.map((name) => cellText(row[name])));
  let widths: number[] | undefined;
  let note = '';
  if (fits(terminal)) {
    const headerWidths = headers.map(displayWidth);
    const natural = headerWidths.map((w, i) => body.reduce((max, cells) => Math.max(max, displayWidth(cells[i]!)), w));
    widths = planColumns(natural, headerWidths, terminal.columns).widths;
    const dropped = columns.length - widths.length;
    if (dropped > 0) {
      const plural = dropped === 1 ? 'column' : 'columns';
      note = truncate(`(${dropped} more ${plural} not shown: choose with --fields, or use -o yaml)`, terminal.columns) + '\n';
    }
  }
  const shown = widths?.length ?? columns.length;
  const cut = (cells: string[]) => cells.slice(0, shown).map((cell, i) => (widths ? truncate(cell, widths[i]!) : cell));
  const head = cut(headers).map((h) => (terminal.color ? ansi.bold(h) : h));
  return layout([head, ...body.map(cut)], widths) + '\n' + note;
}

function objectTable(object: Row, opts: RenderOptions): string {
  const names = chooseColumns([object], { keyField: opts.keyField, fields: opts.fields, hideMeta: true });
  if (names.length === 0) return '';
  const { terminal } = opts;
  const labels = names.map(sanitizeInline);
  let values = names.map((name) => valueLines(object[name]));
  let widths: number[] | undefined;
  if (fits(terminal)) {
    const longest = Math.max(...labels.map(displayWidth));
    const nameWidth = Math.min(longest, Math.max(12, Math.floor(terminal.columns * 0.4)));
    const valueWidth = Math.max(MIN_VALUE, terminal.columns - nameWidth - GAP);
    values = values.map((lines) => lines.flatMap((line) => wrap(line, valueWidth)));
    const widest = Math.max(1, ...values.flat().map(displayWidth));
    widths = [nameWidth, Math.min(valueWidth, widest)];
  }
  const rows = labels.map((label, i) => {
    const shown = widths ? truncate(label, widths[0]!) : label;
    return [terminal.color ? ansi.bold(shown) : shown, values[i]!.join('\n')];
  });
  return layout(rows, widths) + '\n';
}

function vdomSections(vdoms: Record<string, Row[] | Row>, opts: RenderOptions): string {
  const entries = Object.entries(vdoms);
  if (entries.every(([, value]) => Array.isArray(value) && value.length === 0)) return '';
  return entries
    .map(([vdom, value]) => {
      const title = `== vdom: ${sanitizeInline(vdom)} ==`;
      const body = Array.isArray(value)
        ? value.length > 0
          ? listTable(value, opts)
          : '(no objects)\n'
        : objectTable(value, opts);
      return (opts.terminal.color ? ansi.bold(title) : title) + '\n' + body;
    })
    .join('\n');
}

export const formatTable: Formatter = (data, opts) => {
  switch (data.kind) {
    case 'list':
      return listTable(data.rows, opts);
    case 'object':
      return objectTable(data.object, opts);
    case 'byVdom':
      return vdomSections(data.vdoms, opts);
    case 'write':
      return sanitizeInline(data.message) + '\n';
  }
};
