// The output of a run over several devices (CLI.md, "Many devices"): the progress line, and each
// device's share of stdout put together keyed by device (src/output/devices.ts renders it).
import { deviceHeading, ndjsonLineWithDevice, renderByDevice, rowsByDevice, type DevicePart } from './devices.js';
import { render } from './index.js';
import { StatusLine } from './status.js';
import type { IO, OutputFormat, OutStream, RenderOptions, Shaped, Terminal } from './types.js';

/** What the fleet's output needs of the run. */
export interface FleetRun {
  io: IO;
  format: OutputFormat;
  raw: boolean;
  terminal: Terminal;
  /** Told when some of the run's output reaches stdout (for what an interruption says). */
  printed?: () => void;
}

/** On a terminal, `12/40 devices` on stderr; anything else written to the terminal goes above it. */
export class Progress {
  private done = 0;
  private paused = false;
  private readonly line: StatusLine;

  /** stderr for the devices' messages: the progress line is taken away, the text written, the line put back. */
  readonly stream: OutStream;

  constructor(
    private readonly stderr: OutStream,
    private readonly total: number,
  ) {
    this.line = StatusLine.of(stderr);
    this.stream = {
      write: (chunk: string) => {
        this.clear();
        const ok = this.stderr.write(chunk);
        this.draw();
        return ok;
      },
      isTTY: stderr.isTTY,
      columns: stderr.columns,
    };
  }

  private clear(): void {
    this.line.clear();
  }

  private draw(): void {
    if (this.paused || this.done >= this.total) return;
    this.line.show(`${this.done}/${this.total} devices`);
  }

  /** While a question is on the terminal: the line stays away. */
  pause(): void {
    this.paused = true;
    this.clear();
  }

  resume(): void {
    this.paused = false;
    this.draw();
  }

  step(): void {
    this.done++;
    this.clear();
    this.draw();
  }

  start(): void {
    this.draw();
  }

  end(): void {
    this.clear();
  }
}

export type PrintOptions = Omit<RenderOptions, 'format' | 'terminal'> & { format?: OutputFormat };

/** Where one device's output goes: printed shapes and any text a command streams to its stdout. */
export interface DeviceSink {
  stream: OutStream;
  /** The output is one document at the end (json, yaml, csv): shapes are kept, not text. */
  keepsData: boolean;
  print(data: Shaped, options: PrintOptions): Promise<void>;
}

/**
 * The whole run's stdout. ndjson: each device's lines as they come, whole, with `device` first.
 * table: one section per device, in the order of the selection, each as soon as the ones before it
 * are done. json, yaml, csv: kept until every device is done, then one document keyed by device.
 */
export class FleetOutput {
  private readonly parts: (DevicePart & {
    text: string;
    /** A table's notes (columns left out), said once its section is on stdout. */
    notes: (() => void)[];
    finished: boolean;
    failed: boolean;
  })[];
  private nextSection = 0;
  /** A section is on stdout already: the next one starts after a blank line. */
  private sectionShown = false;

  constructor(
    private readonly parent: FleetRun,
    devices: string[],
  ) {
    this.parts = devices.map((device) => ({
      device,
      prints: [],
      text: '',
      notes: [],
      finished: false,
      failed: false,
    }));
  }

  /** Text on stdout, the terminal's status line (the progress) taken away first. */
  private stdout(text: string): boolean {
    StatusLine.of(this.parent.io.stderr).clear();
    if (text) this.parent.printed?.();
    return this.parent.io.stdout.write(text);
  }

  /** Sections on stdout, then the notes of their tables on stderr. */
  private showSections(parts: (typeof this.parts)[number][]): void {
    const text = parts.map((part) => this.section(part)).join('');
    if (text) this.stdout(text);
    for (const part of parts) for (const note of part.notes.splice(0)) note();
  }

  /** A device's section: its heading, then what it printed since its heading was last shown. */
  private section(part: (typeof this.parts)[number]): string {
    const text = part.text;
    part.text = '';
    // A device with nothing to show (an empty list, only rows of the table of every device) has no section.
    if (part.failed || !text) return '';
    const first = !this.sectionShown;
    this.sectionShown = true;
    return (first ? '' : '\n') + deviceHeading(part.device) + text;
  }

  /**
   * table: prints what every device not yet done has printed so far, each under its heading (the
   * plans of an apply, before its one question); the rest of each follows under its heading again.
   */
  flush(): void {
    if (this.parent.format !== 'table' || this.streamsLines) return;
    this.showSections(this.parts.slice(this.nextSection));
  }

  private get streamsLines(): boolean {
    return this.parent.format === 'ndjson' && !this.parent.raw;
  }

  sink(index: number): DeviceSink {
    const part = this.parts[index];
    const stdout = this.parent.io.stdout;
    let partial = '';
    const terminal = this.parent.terminal;
    const write = (data: string | Uint8Array): boolean => {
      const chunk = typeof data === 'string' ? data : Buffer.from(data).toString('utf8');
      // Text a device wrote as it is (an answer that is not JSON): its value in the document keyed by device.
      if (!this.streamsLines && this.parent.format !== 'table') {
        part.prints.push({ data: { kind: 'text', text: chunk }, options: {} });
        return true;
      }
      if (!this.streamsLines) {
        part.text += chunk;
        return true;
      }
      partial += chunk;
      const end = partial.lastIndexOf('\n');
      if (end < 0) return true;
      const lines = partial.slice(0, end).split('\n');
      partial = partial.slice(end + 1);
      // One write of whole lines: the lines of two devices never mix within a line.
      return this.stdout(
        lines
          .filter((l) => l.trim() !== '')
          .map((l) => ndjsonLineWithDevice(part.device, l) + '\n')
          .join(''),
      );
    };
    return {
      stream: { write, isTTY: stdout.isTTY, columns: stdout.columns },
      keepsData: !this.streamsLines && this.parent.format !== 'table',
      print: async (data, options) => {
        // One row of a table of every device, printed once they are all done.
        if (this.parent.format === 'table' && !this.parent.raw && options.rowPerDevice)
          part.prints.push({ data, options });
        else if (this.streamsLines || this.parent.format === 'table') {
          if (data.kind === 'raw' && this.streamsLines) write(JSON.stringify(data.body) + '\n');
          else {
            // A table's note follows its section, which waits for the devices before it.
            const { note, ...rest } = options;
            const said = note && ((message: string) => void part.notes.push(() => note(message)));
            write(await render(data, { format: this.parent.format, terminal, ...rest, note: said }));
          }
        } else part.prints.push({ data, options });
      },
    };
  }

  /** A device is done (or failed: its section and key are left out). */
  finish(index: number, failed: boolean): void {
    Object.assign(this.parts[index], { finished: true, failed });
    if (this.parent.format !== 'table' || this.streamsLines) return;
    const done: (typeof this.parts)[number][] = [];
    while (this.nextSection < this.parts.length && this.parts[this.nextSection].finished)
      done.push(this.parts[this.nextSection++]);
    this.showSections(done);
  }

  async end(): Promise<void> {
    if (this.parent.format === 'table' && !this.streamsLines) return this.tableOfDevices();
    if (this.streamsLines) return;
    const parts = this.parts.filter((p) => !p.failed);
    // Nothing on stdout when no device answered, as with one device that fails, or none printed (export --dir).
    if (!parts.some((p) => p.prints.length)) return;
    const own = parts.flatMap((p) => p.prints).find((p) => p.options.format)?.options.format;
    const text = await renderByDevice(
      parts,
      this.parent.raw ? 'json' : (own ?? this.parent.format),
      this.parent.terminal,
    );
    if (text) this.stdout(text);
  }

  /** The rows printed as one row per device (`cmdb status`): one table, `device` first, after the sections. */
  private async tableOfDevices(): Promise<void> {
    const parts = this.parts.filter((p) => !p.failed && p.prints.length);
    const rows = rowsByDevice(parts);
    if (!rows.length) return;
    const { rowPerDevice: _, ...options } = parts[0].prints[0].options;
    const text = await render(
      { kind: 'list', rows },
      { ...options, format: 'table', terminal: this.parent.terminal, keyField: 'device' },
    );
    if (text) this.stdout((this.sectionShown ? '\n' : '') + text);
  }
}
