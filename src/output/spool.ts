import { closeSync, openSync, readSync, unlinkSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { StringDecoder } from 'node:string_decoder';

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
      this.fd = openSync(this.path, 'wx+', 0o600);
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

  /** Every record, in the order pushed. */
  *records(): Generator<string> {
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
        yield* text.slice(0, end).split('\n');
      }
    }
    yield* this.buffer;
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
