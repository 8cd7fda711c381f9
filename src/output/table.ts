// The table format: columns fitted to the terminal, objects as `field  value`, in bounded memory page by page.
import { cellText, valueLines } from './cells.js';
import { paint } from './color.js';
import { chooseColumns, isMetaField } from './columns.js';
import { displayWidth, isPrintableAscii, sanitizeInline, truncate, wrap } from './text.js';
import type { Formatter, RenderOptions, Row, RowFormatter } from './types.js';
import { cellsOf, SEPARATOR, Spool } from './spool.js';

// Tables as kubectl and gh print them: no borders, columns two spaces apart, header in bold
// when colour is on. Headers keep the device's field names (not upper-cased) so they can be
// copied into --fields and --filter. The layout is done here rather than with cli-table3,
// whose layout pass is quadratic in rows (10,000 rows took 47 s; `list --all` reaches that).

const GAP = 2;
/**
 * No column is cut below this (or below its header, up to HEADER_KEEP): past that, trailing
 * columns are dropped instead, so the leading ones (key, name) stay readable.
 */
const MIN_COLUMN = 12;
const HEADER_KEEP = 16;
/** In `field  value` views a value column keeps at least this much room. */
const MIN_VALUE = 20;

const SPACES: string[] = [];

/** `n` spaces (kept: a table pads with the same few widths on every line). */
function spaces(n: number): string {
  return (SPACES[n] ??= ' '.repeat(n));
}

/** Separators of cells and of records in a Spool's block. */
const BREAKS = new RegExp(`[${SEPARATOR}\n]`, 'g');
/**
 * A block some record of which is not plain printable ASCII, or ends in a blank or an empty cell
 * (which the line must not end in): laid out record by record instead.
 */
const AWKWARD = new RegExp(`[^\\x20-\\x7e${SEPARATOR}\n]|[${SEPARATOR} ](?:\n|$)`);

/** One line of single-line cells padded to `widths` and joined by GAP spaces, no trailing blanks. */
function lineOf(texts: readonly string[], widths: readonly number[]): string {
  let line = '';
  const last = texts.length - 1;
  for (let c = 0; c < last; c++)
    line += texts[c]! + ' '.repeat(Math.max(0, widths[c]! - displayWidth(texts[c]!)) + GAP);
  return (line + (texts[last] ?? '')).trimEnd();
}

/**
 * Rows of cells padded to `widths` (cells already fit them) and joined by GAP spaces, with no
 * trailing blanks. A cell may hold several lines (nested entries in a `field  value` view).
 */
function layout(rows: string[][], widths: number[]): string {
  const out: string[] = [];
  for (const row of rows) {
    const cells = row.map((cell) => cell.split('\n'));
    const height = Math.max(...cells.map((lines) => lines.length));
    for (let i = 0; i < height; i++)
      out.push(
        lineOf(
          cells.map((lines) => lines[i] ?? ''),
          widths,
        ),
      );
  }
  return out.join('\n') + '\n';
}

function naturalWidths(rows: string[][]): number[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, c) => {
      for (const line of cell.split('\n')) widths[c] = Math.max(widths[c] ?? 0, displayWidth(line));
    });
  }
  return widths;
}

function fits(terminal: RenderOptions['terminal']): boolean {
  return terminal.isTTY && Number.isFinite(terminal.columns) && terminal.columns > 0;
}

interface ColumnPlan {
  /** Width of each shown column; columns past widths.length are dropped. */
  widths: number[];
}

/**
 * Fit columns of natural widths `natural` (headers `headerWidths`) into `total` columns.
 * Keeps the longest run of leading columns that fits at their floor width (never below
 * MIN_COLUMN or the header; never below its natural width for a `whole` column), then cuts the
 * widest columns first down to a common cap,
 * handing any remainder back to the leftmost capped columns.
 */
function planColumns(natural: number[], headerWidths: number[], total: number, whole: boolean[] = []): ColumnPlan {
  const floors = natural.map((w, i) =>
    whole[i] ? w : Math.min(w, Math.max(MIN_COLUMN, Math.min(headerWidths[i]!, HEADER_KEEP))),
  );
  let kept = 0;
  let used = 0;
  while (kept < natural.length) {
    const next = used + (kept > 0 ? GAP : 0) + floors[kept]!;
    // A column that is never cut is kept even past the width (the terminal wraps the line).
    if (next > total && kept > 0 && !whole[kept]) break;
    used = next;
    kept++;
  }
  const room = total - GAP * (kept - 1);
  const want = natural.slice(0, kept);
  const floor = floors.slice(0, kept);
  if (want.reduce((a, b) => a + b, 0) <= room) return { widths: want };
  if (kept === 1) return { widths: [whole[0] ? want[0]! : Math.max(1, Math.min(want[0]!, room))] };
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

/** A list as a table, whole: what ListTable prints for these rows. */
function listTable(rows: Row[], opts: RenderOptions): string {
  const table = new ListTable(opts);
  table.add(rows);
  return [...table.end()].join('');
}

/**
 * A list table built from rows that arrive page by page (`list --all`). Widths need every row, so
 * each row is kept only as its cells' text in a Spool (bounded memory), with the natural width of
 * every column updated as it goes; end() lays the kept cells out.
 */
export class ListTable implements RowFormatter {
  /** Columns in first-seen order (or exactly --fields), and the natural width of each. */
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly natural: number[] = [];
  /** Each field seen: its column, or -1 when not shown. */
  private readonly slots = new Map<string, number>();
  private readonly spool = new Spool();
  private readonly fixed: boolean;
  private rows = 0;

  constructor(private readonly opts: RenderOptions) {
    this.fixed = !!opts.fields && opts.fields.length > 0;
    if (this.fixed) this.names.push(...opts.fields!);
  }

  private column(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.push(name) - 1;
      this.index.set(name, i);
    }
    return i;
  }

  /** The column of a field, or -1 for a meta field the table does not show. */
  private slot(name: string): number {
    let i = this.slots.get(name);
    if (i === undefined) {
      const key = this.opts.keyField;
      i = isMetaField(name) && name !== key && !this.opts.showMeta?.includes(name) ? -1 : this.column(name);
      this.slots.set(name, i);
    }
    return i;
  }

  /** A value's cell text, its width counted into column `i`. */
  private cell(value: unknown, i: number): string {
    let text: string;
    let width: number;
    // Plain strings and numbers (nearly every cell) need no sanitising and are as wide as they are long.
    if (typeof value === 'string' && isPrintableAscii(value)) width = (text = value).length;
    else if (typeof value === 'number') width = (text = String(value)).length;
    else width = displayWidth((text = cellText(value)));
    if (!(this.natural[i]! >= width)) this.natural[i] = width;
    return text;
  }

  add(rows: readonly Row[]): string {
    const names = this.names;
    for (const row of rows) {
      const cells: string[] = [];
      if (this.fixed) for (let i = 0; i < names.length; i++) cells[i] = this.cell(row[names[i]!], i);
      else {
        for (const name of Object.keys(row)) {
          const i = this.slot(name);
          if (i >= 0) cells[i] = this.cell(row[name], i);
        }
      }
      // A column this row lacks (seen in an earlier row): an empty cell.
      for (let i = 0; i < cells.length; i++) {
        if (cells[i] !== undefined) continue;
        cells[i] = '';
        if (!(this.natural[i]! >= 0)) this.natural[i] = 0;
      }
      this.spool.pushPlainCells(cells);
      this.rows++;
    }
    return '';
  }

  *end(): Generator<string> {
    try {
      if (this.rows === 0) return;
      const key = this.opts.keyField;
      const keyAt = this.fixed || !key ? undefined : this.index.get(key);
      // Key first, then the meta fields asked for (q_ref), then the rest in first-seen order.
      const leading = this.fixed
        ? []
        : [keyAt, ...(this.opts.showMeta ?? []).map((name) => this.index.get(name))].filter(
            (i): i is number => i !== undefined,
          );
      const order = this.fixed
        ? this.names.map((_, i) => i)
        : [...leading, ...this.names.map((_, i) => i).filter((i) => !leading.includes(i))];
      if (order.length === 0) return;
      const { terminal } = this.opts;
      let header = order.map((i) => sanitizeInline(this.names[i]!));
      let widths = order.map((i, c) => Math.max(this.natural[i] ?? 0, displayWidth(header[c]!)));
      let note = '';
      const cut = fits(terminal);
      if (cut) {
        // The key column is never cut either: it names the object. Other columns give way first.
        const whole = order.map((i) => this.names[i] === key || !!this.opts.whole?.includes(this.names[i]!));
        const plan = planColumns(widths, header.map(displayWidth), terminal.columns, whole);
        const dropped = order.length - plan.widths.length;
        if (dropped > 0) {
          const plural = dropped === 1 ? 'column' : 'columns';
          note = truncate(`(${dropped} more ${plural}: use --fields or -o yaml)`, terminal.columns) + '\n';
        }
        widths = plan.widths;
        header = widths.map((width, c) => truncate(header[c]!, width));
      }
      if (terminal.color) header = header.map((text) => paint('bold', text));
      if (this.opts.headers !== false) yield lineOf(header, widths) + '\n';
      const last = widths.length - 1;
      const texts: string[] = [];
      const lineOfRecord = (record: string): string => {
        const cells = cellsOf(record);
        for (let c = 0; c <= last; c++)
          texts[c] = cut ? truncate(cells[order[c]!] ?? '', widths[c]!) : (cells[order[c]!] ?? '');
        return lineOf(texts, widths);
      };
      // Cells in their own order, uncut: a block of plain records is laid out by one replace, each
      // separator becoming the padding after its cell (a cell of printable ASCII is as wide as long).
      const inPlace = !cut && order.every((i, c) => i === c);
      let column = 0;
      let from = 0;
      const pad = (separator: string, at: number): string => {
        if (separator === '\n') {
          column = 0;
          from = at + 1;
          return separator;
        }
        const padding = spaces(Math.max(0, widths[column++]! - (at - from)) + GAP);
        from = at + 1;
        return padding;
      };
      for (const block of this.spool.blocks()) {
        if (inPlace && !AWKWARD.test(block)) {
          column = 0;
          from = 0;
          yield block.replace(BREAKS, pad) + '\n';
        } else {
          const lines = block.split('\n');
          for (let i = 0; i < lines.length; i++) lines[i] = lineOfRecord(lines[i]!);
          yield lines.join('\n') + '\n';
        }
      }
      if (note) yield note;
    } finally {
      this.spool.close();
    }
  }
}

function objectTable(object: Row, opts: RenderOptions): string {
  const names = chooseColumns([object], {
    keyField: opts.keyField,
    fields: opts.fields,
    hideMeta: true,
    showMeta: opts.showMeta,
  });
  if (names.length === 0) return '';
  const { terminal } = opts;
  let labels = names.map(sanitizeInline);
  let values = names.map((name) => valueLines(object[name]));
  if (fits(terminal)) {
    const nameWidth = Math.min(Math.max(...labels.map(displayWidth)), Math.max(12, Math.floor(terminal.columns * 0.4)));
    const valueWidth = Math.max(MIN_VALUE, terminal.columns - nameWidth - GAP);
    labels = labels.map((label) => truncate(label, nameWidth));
    values = values.map((lines) => lines.flatMap((line) => wrap(line, valueWidth)));
  }
  const rows = labels.map((label, i) => [terminal.color ? paint('bold', label) : label, values[i]!.join('\n')]);
  return layout(rows, naturalWidths(rows));
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
      return (opts.terminal.color ? paint('bold', title) : title) + '\n' + body;
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
