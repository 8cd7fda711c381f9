// The one status line of a terminal (a progress count on stderr): anything else written to the
// terminal clears it first, so that no output lands after it on the same line.
import type { OutStream } from './types.js';

const lines = new WeakMap<OutStream, StatusLine>();

export class StatusLine {
  private shown = false;

  private constructor(private readonly stderr: OutStream) {}

  /** The status line of this stderr (one per stream, whichever printer draws or clears it). */
  static of(stderr: OutStream): StatusLine {
    let line = lines.get(stderr);
    if (!line) lines.set(stderr, (line = new StatusLine(stderr)));
    return line;
  }

  /** Only a terminal has one. */
  get active(): boolean {
    return this.stderr.isTTY === true;
  }

  /** Draws `text` in place of what the line showed. */
  show(text: string): void {
    if (!this.active) return;
    this.stderr.write(`\r\x1b[K${text}`);
    this.shown = true;
  }

  /** Takes the line away, when it shows anything: before any other output. */
  clear(): void {
    if (!this.shown) return;
    this.shown = false;
    this.stderr.write('\r\x1b[K');
  }
}
