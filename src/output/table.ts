// The table format: columns fitted to the terminal, objects as `field  value`, in bounded memory page by page.
import { cellText, valueLines } from './cells.js';
import { paint } from './color.js';
import { carriesInformation, columnRank, columnsSeenIn, isEmptyValue, isMetaField, tableColumns } from './columns.js';
import type { FieldSchema } from '../catalogue/index.js';
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
/** A block some record of which is not plain printable ASCII: its cells' widths are not their lengths. */
const NOT_PLAIN = new RegExp(`[^\\x20-\\x7e${SEPARATOR}\n]`);

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
 * MIN_COLUMN or the header; never below its natural width for a `whole` column), or every column
 * with `keepAll` (--columns: the line may then run past the width), then cuts the widest
 * columns first down to a common cap, handing any remainder back to the leftmost capped columns.
 */
function planColumns(
  natural: number[],
  headerWidths: number[],
  total: number,
  whole: boolean[] = [],
  keepAll = false,
): ColumnPlan {
  const floors = natural.map((w, i) =>
    whole[i] ? w : Math.min(w, Math.max(MIN_COLUMN, Math.min(headerWidths[i]!, HEADER_KEEP))),
  );
  let kept = 0;
  let used = 0;
  while (kept < natural.length) {
    const next = used + (kept > 0 ? GAP : 0) + floors[kept]!;
    // A column that is never cut is kept even past the width (the terminal wraps the line).
    if (next > total && kept > 0 && !whole[kept] && !keepAll) break;
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

/** Names of columns left out, as the note lists them: the first few. */
const NAMED_IN_NOTE = 5;

/** Room the notice's `cmdb: ` takes before a note on stderr. */
const NOTICE_PREFIX = 6;

/**
 * The one line a table says on stderr when columns did not fit: how many, how to see them, which (as
 * many as the terminal's width leaves room for). `read`: a table of a read (list, get).
 */
function leftOutNote(names: string[], width: number, read: boolean): string {
  const listed = names.slice(0, NAMED_IN_NOTE).map(sanitizeInline).join(', ');
  const more = names.length > NAMED_IN_NOTE ? ', …' : '';
  // A read's table takes --wide and --columns; other tables (`cmdb tables`) --fields, or another format.
  const how = read ? '--wide or --columns shows them' : 'use --fields or -o yaml';
  const text = `${names.length} more ${names.length === 1 ? 'column' : 'columns'} (${how})`;
  const full = `${text}: ${listed}${more}`;
  const room = width - NOTICE_PREFIX;
  // How to see them is never cut; the names give way first.
  return displayWidth(full) <= room ? full : room < text.length + 4 ? text : truncate(full, room);
}

/**
 * A list table built from rows that arrive page by page (`list --all`). Widths need every row, so
 * each row is kept only as its cells' text in a Spool (bounded memory), with the natural width of
 * every column updated as it goes, and whether some row fills it and carries information in it
 * (columns.ts); end() chooses the columns and lays the kept cells out.
 */
export class ListTable implements RowFormatter {
  /** Columns in first-seen order (or exactly --fields), and the natural width of each. */
  private readonly names: string[] = [];
  private readonly index = new Map<string, number>();
  private readonly natural: number[] = [];
  /** Per column: some row has a value in it; some row's value carries information (tableColumns). */
  private readonly filled: boolean[] = [];
  private readonly informative: boolean[] = [];
  /** Per column, its field in the catalogue (undefined when it has none). */
  private readonly schemas: (FieldSchema | undefined)[] = [];
  /** Each field seen: its column, or -1 when not shown. */
  private readonly slots = new Map<string, number>();
  private readonly spool = new Spool();
  private readonly fixed: boolean;
  /** The columns depend on the values (a table of a catalogued read without --wide). */
  private readonly judging: boolean;
  /** Columns not yet known to carry information: while none is left, rows are not judged. */
  private undecided = 0;
  private rows = 0;

  constructor(private readonly opts: RenderOptions) {
    this.fixed = !!opts.fields && opts.fields.length > 0;
    if (this.fixed) this.names.push(...opts.fields!);
    this.judging = !this.fixed && !opts.wide && !!opts.schema;
  }

  private column(name: string): number {
    let i = this.index.get(name);
    if (i === undefined) {
      i = this.names.push(name) - 1;
      this.index.set(name, i);
      this.filled[i] = this.informative[i] = false;
      this.schemas[i] = this.opts.schema?.fields[name];
      if (this.judging) this.undecided++;
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

  /** Whether the rows so far fill column `i`, and carry information in it (asked until they do). */
  private judge(value: unknown, i: number): void {
    if (this.informative[i]) return;
    if (!this.filled[i]) this.filled[i] = !isEmptyValue(value);
    if (carriesInformation(value, this.schemas[i])) {
      this.informative[i] = true;
      this.undecided--;
    }
  }

  /**
   * The first row's fields take their columns in the order the table shows them (columnRank): when every
   * column is shown, the kept cells are already in place (end() lays out a block with one replace).
   */
  private placeColumns(row: Row): void {
    const rank = columnRank(this.opts);
    const names = Object.keys(row);
    const order = names.map((name, i) => ({ name, i, rank: rank(name) }));
    order.sort((a, b) => a.rank - b.rank || a.i - b.i);
    for (const { name } of order) this.slot(name);
  }

  add(rows: readonly Row[]): string {
    const names = this.names;
    if (!this.fixed && this.rows === 0 && rows.length) this.placeColumns(rows[0]!);
    for (const row of rows) {
      const cells: string[] = [];
      if (this.fixed) for (let i = 0; i < names.length; i++) cells[i] = this.cell(row[names[i]!], i);
      else {
        for (const name of Object.keys(row)) {
          const i = this.slot(name);
          if (i < 0) continue;
          const value = row[name];
          cells[i] = this.cell(value, i);
          if (this.undecided) this.judge(value, i);
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

  /** The shown columns, as indexes into the kept cells, in order. */
  private order(): number[] {
    if (this.fixed) return this.names.map((_, i) => i);
    const at = (name: string) => this.index.get(name)!;
    const columns = tableColumns(
      {
        names: this.names,
        filled: (name) => this.filled[at(name)]!,
        informative: (name) => this.informative[at(name)]!,
      },
      this.opts,
      true,
    );
    return columns.map(at);
  }

  *end(): Generator<string> {
    try {
      if (this.rows === 0) return;
      const key = this.opts.keyField;
      const order = this.order();
      if (order.length === 0) return;
      const { terminal } = this.opts;
      let header = order.map((i) => sanitizeInline(this.names[i]!));
      let widths = order.map((i, c) => Math.max(this.natural[i] ?? 0, displayWidth(header[c]!)));
      let leftOut: string[] = [];
      // --wide: every column whole, as piped (for a pager that scrolls sideways).
      const cut = fits(terminal) && !this.opts.wide;
      if (cut) {
        // The key column is never cut either: it names the object. Other columns give way first.
        const whole = order.map((i) => this.names[i] === key || !!this.opts.whole?.includes(this.names[i]!));
        const plan = planColumns(widths, header.map(displayWidth), terminal.columns, whole, this.opts.keepColumns);
        leftOut = order.slice(plan.widths.length).map((i) => this.names[i]!);
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
      const inPlace = !cut && order.length === this.names.length && order.every((i, c) => i === c);
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
      // Plain cells in another order (the key and `name` first), uncut: each as wide as it is long.
      const plainLine = (record: string): string => {
        const cells = record.split(SEPARATOR);
        let line = '';
        for (let c = 0; c < last; c++) {
          const text = cells[order[c]!] ?? '';
          line += text + spaces(widths[c]! - text.length + GAP);
        }
        line += cells[order[last]!] ?? '';
        return line.charCodeAt(line.length - 1) === 32 ? line.trimEnd() : line;
      };
      for (const block of this.spool.blocks()) {
        if (inPlace && !AWKWARD.test(block)) {
          column = 0;
          from = 0;
          yield block.replace(BREAKS, pad) + '\n';
        } else if (!cut && !NOT_PLAIN.test(block)) {
          const lines = block.split('\n');
          for (let i = 0; i < lines.length; i++) lines[i] = plainLine(lines[i]!);
          yield lines.join('\n') + '\n';
        } else {
          const lines = block.split('\n');
          for (let i = 0; i < lines.length; i++) lines[i] = lineOfRecord(lines[i]!);
          yield lines.join('\n') + '\n';
        }
      }
      // Said after the rows, so that it is the last line a person sees of the table.
      if (leftOut.length) this.opts.note?.(leftOutNote(leftOut, terminal.columns, !!this.opts.schema));
    } finally {
      this.spool.close();
    }
  }
}

/** One object as `field  value` rows: its table's chosen set first, then every other field that says something. */
function objectTable(object: Row, opts: RenderOptions): string {
  const seen = columnsSeenIn(
    [object],
    { keyField: opts.keyField, hideMeta: true, showMeta: opts.showMeta },
    opts.schema,
  );
  const names = tableColumns(seen, opts, false);
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

function vdomSections(vdoms: Record<string, Row[] | Row>, given: RenderOptions): string {
  const entries = Object.entries(vdoms);
  // One note for the run, however many sections left columns out.
  let noted = false;
  const note = given.note;
  const opts: RenderOptions = note
    ? { ...given, note: (message) => void (noted || ((noted = true), note(message))) }
    : given;
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
