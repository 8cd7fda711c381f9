// Rows kept for a second pass (a table's column widths, a csv's header) in bounded memory: past a few
// MB they go to a private temporary file.
import { closeSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { openPrivateFile } from '../files.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

// Rows of cells as records: cells apart by U+001F (the unit separator), and a newline, U+001F or
// U+001E in a cell as U+001E and a letter. Not JSON: JSON.parse interns every short string value in
// V8's string table, which lives outside the heap and grew by 10-15 MB over a 200,000-row second pass.
export const SEPARATOR = '\x1f';
const ESCAPE = '\x1e';
const SPECIAL = /[\n\x1e\x1f]/;
const SPECIALS = /[\n\x1e\x1f]/g;
const UNESCAPE = /\x1e(.)/g;
const ESCAPED: Record<string, string> = { '\n': 'n', '\x1e': 'e', '\x1f': 's' };
const UNESCAPED: Record<string, string> = { n: '\n', e: '\x1e', s: '\x1f' };

/** The cells of one record (a row pushed as cells). */
export function cellsOf(record: string): string[] {
  const cells = record.split(SEPARATOR);
  if (record.includes(ESCAPE))
    for (let i = 0; i < cells.length; i++) cells[i] = cells[i]!.replace(UNESCAPE, (_, c: string) => UNESCAPED[c]!);
  return cells;
}

/**
 * Records (one-line strings) kept for a second pass, in bounded memory: the first `limit` characters
 * stay in memory, the rest goes to a temporary file (mode 0600, unlinked at once where the system
 * allows it, so nothing is left behind even if the process is killed). A table and a csv of
 * `list --all` need every row before their first line (widths, columns); this keeps their memory
 * flat however large the table is.
 */
export class Spool {
  private buffer: string[] = [];
  private buffered = 0;
  private fd: number | null = null;
  private path: string | null = null;
  private spilled = false;

  constructor(private readonly limit = 256 * 1024) {}

  /** Adds one record; it must not contain "\n". */
  push(record: string): void {
    this.buffer.push(record);
    this.buffered += record.length + 1;
    if (this.buffered >= this.limit) this.spill();
  }

  private spill(): void {
    if (this.fd === null) {
      this.path = join(tmpdir(), `cmdb-${process.pid}-${Math.random().toString(36).slice(2)}.spool`);
      this.fd = openPrivateFile(this.path, 'wx+');
      try {
        unlinkSync(this.path);
        this.path = null;
      } catch {
        // Windows: an open file cannot be removed; close() removes it.
      }
    }
    writeSync(this.fd, this.buffer.join('\n') + '\n');
    this.spilled = true;
    this.buffer = [];
    this.buffered = 0;
  }

  /**
   * Every record, in the order pushed, as blocks of whole records joined by "\n" (a block of one
   * empty record is ""): a reader that can work on many records at once need not split them.
   */
  *blocks(): Generator<string> {
    if (this.spilled && this.fd !== null) {
      const chunk = Buffer.alloc(1 << 16);
      const decoder = new StringDecoder('utf8');
      let position = 0;
      let rest = '';
      for (;;) {
        const n = readSync(this.fd, chunk, 0, chunk.length, position);
        if (n === 0) break;
        position += n;
        // The decoder keeps a character cut at the chunk's end for the next chunk.
        const text = rest + decoder.write(chunk.subarray(0, n));
        const end = text.lastIndexOf('\n');
        if (end < 0) {
          rest = text;
          continue;
        }
        rest = text.slice(end + 1);
        yield text.slice(0, end);
      }
    }
    if (this.buffer.length) yield this.buffer.join('\n');
  }

  /** Every record, in the order pushed. */
  *records(): Generator<string> {
    for (const block of this.blocks()) yield* block.split('\n');
  }

  /** Adds one row of cells (text of any characters; a missing cell reads back as ""). */
  pushCells(cells: readonly (string | undefined)[]): void {
    let record = '';
    for (let i = 0; i < cells.length; i++) {
      const cell = cells[i] ?? '';
      record +=
        (i ? SEPARATOR : '') + (SPECIAL.test(cell) ? cell.replace(SPECIALS, (c) => ESCAPE + ESCAPED[c]!) : cell);
    }
    this.push(record);
  }

  /**
   * Adds one row of cells that hold no newline, U+001E or U+001F (sanitised text: a table's cells).
   * Empty cells at the end are left out (they read back as missing): a record then ends in text.
   */
  pushPlainCells(cells: string[]): void {
    let n = cells.length;
    while (n > 0 && cells[n - 1] === '') n--;
    if (n < cells.length) cells.length = n;
    this.push(cells.join(SEPARATOR));
  }

  /** Every row of cells, in the order pushed. */
  *cellRecords(): Generator<string[]> {
    for (const record of this.records()) yield cellsOf(record);
  }

  close(): void {
    if (this.fd !== null) closeSync(this.fd);
    if (this.path) {
      try {
        unlinkSync(this.path);
      } catch {
        // already gone
      }
    }
    this.fd = null;
    this.path = null;
    this.buffer = [];
  }
}
