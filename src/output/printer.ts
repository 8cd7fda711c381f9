// The only writer of stdout and stderr: data in the chosen format, what commands did, notices,
// warnings, progress, the --verbose exchange log and errors. Commands say what happened; the printer
// decides how it looks (format, --raw, terminal, colour).
import { decideColor, loadPalette, terminalFor } from './color.js';
import { formatError, formatNotice, formatWarning, type ErrorReport } from './messages.js';
import { createRowSink, render } from './index.js';
import { StatusLine } from './status.js';
import { sanitizeMultiline } from './text.js';
import type { Exchange } from '../api/client.js';
import { UsageError } from '../errors.js';
import type { BulkSink, PageSink, Run } from './outcomes.js';
import type {
  IO,
  OutputFormat,
  OutStream,
  Printable,
  PrintHooks,
  Read,
  Row,
  RowSink,
  ShapeOptions,
  Shaped,
  Started,
  Terminal,
  View,
} from './types.js';

/** What the printer needs to know of the run, asked when it prints (a bad -o fails only then). */
export interface PrintSettings {
  format(): OutputFormat;
  /** -o or CMDB_OUTPUT, when either names a format. */
  explicitFormat?(): OutputFormat | undefined;
  /** The command's own format when the run names none (export: yaml), else undefined. */
  ownFormat?(): OutputFormat | undefined;
  readonly raw: boolean;
  readonly noColor: boolean;
  /** Errors go out as one JSON line (json, yaml or ndjson asked for). */
  readonly machineErrors?: boolean;
}

/** What a run had put on stdout when it stopped midway (Ctrl-C, a device lost mid-stream). */
export interface PartialOutput {
  /** Rows handed to the output page by page (`list --all`, bulk results), printed or kept. */
  rows: number;
  /** Whether any data reached stdout. */
  printed: boolean;
  /** Output was cut short: a page-by-page output (`list --all`, bulk results) was still open. */
  cut: boolean;
  /** A json array begun on stdout was closed, so what was printed still parses. */
  closed: boolean;
}

export class Printer {
  /** Rows given to row sinks, whether anything reached stdout, and the sinks still open. */
  private readonly partial = { rows: 0, printed: false, open: new Set<RowSink>() };
  /** Where what this printer lowers goes: its own streams, or what `route` made of them. */
  private readonly to: PrintHooks;

  /**
   * `route` redirects what this printer lowers and its messages (one device of several): it is given
   * this printer's own ways out, and returns those it replaces.
   */
  constructor(
    readonly io: IO,
    private readonly env: NodeJS.ProcessEnv,
    private readonly settings: PrintSettings,
    route?: (own: PrintHooks) => Partial<PrintHooks>,
  ) {
    const own: PrintHooks = {
      emit: (shaped, options) => this.write(shaped, options),
      rows: async (options) => this.rows(options),
      notice: (message) => this.err(formatNotice(message, this.color())),
      warn: (message) => this.err(formatWarning(message, this.color())),
      error: (report) => this.error(report, !!settings.machineErrors),
      summarize: (report) =>
        settings.machineErrors ? this.error(report, true) : this.err(formatNotice(report.message, this.color())),
    };
    this.to = route ? { ...own, ...route(own) } : own;
  }

  /** The terminal's status line (progress), cleared before anything else is written. */
  private get statusLine(): StatusLine {
    return StatusLine.of(this.io.stderr);
  }

  /**
   * Output this printer does not write itself (the document of a run over several devices): until
   * `done()`, a run stopped midway counts as cut short, and `printed()` says stdout has some of it.
   */
  outputElsewhere(): { printed(): void; done(): void } {
    const open: RowSink = { write: async () => undefined, end: async () => undefined, abandon: () => '' };
    this.partial.open.add(open);
    return {
      printed: () => void (this.partial.printed = true),
      done: () => void this.partial.open.delete(open),
    };
  }

  /** Takes the status line away (before a question on the terminal). */
  clearStatus(): void {
    this.statusLine.clear();
  }

  /** Text on stdout, the status line taken away first. */
  private out(text: string): void {
    if (!text) return;
    this.statusLine.clear();
    this.partial.printed = true;
    this.io.stdout.write(text);
  }

  /** Text on stderr, the status line taken away first. */
  private err(text: string): void {
    this.statusLine.clear();
    this.io.stderr.write(text);
  }

  /**
   * The run stops midway: closes what stdout began where that keeps it parsing (a json array), and
   * says what had been put out. Nothing is written after this.
   */
  endPartial(): PartialOutput {
    let closed = false;
    const cut = this.partial.open.size > 0;
    for (const sink of this.partial.open) {
      const closing = sink.abandon?.() ?? '';
      if (closing) {
        this.out(closing);
        closed = true;
      }
    }
    this.partial.open.clear();
    this.statusLine.clear();
    return { rows: this.partial.rows, printed: this.partial.printed, cut, closed };
  }

  terminal(): Terminal {
    return terminalFor(this.io.stdout, this.env, this.settings.noColor);
  }

  private color(): boolean {
    return decideColor(this.io.stderr, this.env, this.settings.noColor);
  }

  /** Loads the colour library when colour goes to stderr (or, with `stdout`, to stdout too), and only then. */
  async prepareColor(stdout = true): Promise<void> {
    if (this.color() || (stdout && decideColor(this.io.stdout, this.env, this.settings.noColor))) await loadPalette();
  }

  /**
   * Data or an outcome: lowered to shapes in the run's format (--raw prints the device's answer),
   * which `to.emit` prints, and messages on stderr.
   */
  async print(data: Printable, view: View = {}): Promise<void> {
    const to = this.to;
    const own = view.format ?? this.settings.ownFormat?.();
    const format = own ?? this.settings.format();
    const { tableFields, ...options } = own ? { ...view, format: own } : view;
    if (tableFields && format === 'table' && !options.fields) options.fields = tableFields;
    // What a table leaves out to fit the terminal is said once on stderr, as the run's notices are.
    if (format === 'table') options.note ??= (message) => to.notice(message);
    switch (data.kind) {
      case 'done':
        return format === 'table'
          ? to.emit({ kind: 'write', result: { status: 'success' }, message: data.message }, options)
          : to.emit({ kind: 'object', object: data.object }, options);
      case 'written':
        return (await import('./outcomes.js')).printWritten(data, this.run(format), options, to);
      case 'read':
        return (await import('./outcomes.js')).printRead(data, this.run(format), options, to);
      case 'forPeople':
        if (this.settings.raw && data.body !== undefined) return to.emit({ kind: 'raw', body: data.body }, options);
        if (format !== 'table') return to.emit(data.data, options);
        if (data.none && data.table.kind === 'list' && !data.table.rows.length) return to.notice(data.none);
        return to.emit(data.table, { ...options, ...data.tableView });
      case 'plan':
        return (await import('./outcomes.js')).printPlan(data, this.run(format), options, to);
      case 'applied':
        return (await import('./outcomes.js')).printApplied(data, this.run(format), options, to);
      case 'document':
        return (await import('./outcomes.js')).printDocument(data, this.run(format), options, to);
      case 'started':
        return this.started(data, to);
      case 'answer':
        if (data.bytes) {
          // Not JSON (a configuration backup): exactly as the device sent it, whatever the format.
          this.io.stdout.write(data.bytes);
          return;
        }
        if (this.settings.raw) return to.emit({ kind: 'raw', body: data.body }, options);
        return data.data ? to.emit(data.data, options) : undefined;
      case 'requests':
        if (format !== 'table') return to.emit({ kind: 'list', rows: data.requests as unknown as Row[] }, options);
        await to.emit(
          { kind: 'text', text: (await import('./requests.js')).formatRequestLines(data.requests) },
          options,
        );
        if (!data.requests.length) to.notice('dry run: nothing would be sent');
        return;
      default:
        return to.emit(data, options);
    }
  }

  /** Exactly one compact JSON line when -o json is asked for, for scripts; else a few lines for people. */
  private async started(data: Started, to: PrintHooks): Promise<void> {
    if (this.settings.explicitFormat?.() === 'json')
      return to.emit({ kind: 'text', text: `${JSON.stringify(data.object)}\n` }, {});
    const width = Math.max(...data.settings.map(([label]) => label.length));
    const settings = data.settings.map(([label, value]) => `  ${label.padEnd(width)}  ${value}\n`).join('');
    const use = data.use.commands.map((command) => `  ${command}\n`).join('');
    await to.emit({ kind: 'text', text: `${data.title}\n\n${settings}\n${data.use.how}\n\n${use}\n` }, {});
    this.status(`${data.status}\n`);
  }

  private run(format = this.settings.format()): Run {
    return { format, raw: this.settings.raw, color: this.terminal().color };
  }

  /** The format of a document written to a file (export --dir): the run's, which must be a document's. */
  fileFormat(): OutputFormat {
    const format = this.settings.explicitFormat?.() ?? this.settings.ownFormat?.() ?? this.settings.format();
    // A table is a preview for people: a file holds the document itself.
    if (format === 'table')
      throw new UsageError(
        '--dir writes the document itself: a table (a preview for people) does not fit a file',
        'use -o yaml (the default), -o json or -o cli',
      );
    return format;
  }

  /**
   * The text of a document for a file (export --dir), in the command's format, and the file's extension
   * (`conf` for the device's syntax).
   */
  async document(data: Shaped, view: ShapeOptions = {}): Promise<{ text: string; extension: string }> {
    const format = this.fileFormat();
    return {
      text: await render(data, { ...view, format, terminal: { isTTY: false, columns: 80, color: false } }),
      extension: format === 'cli' ? 'conf' : format,
    };
  }

  /** The items of a bulk write, printed as they come. */
  async bulk(what: { tablePath: string; verb: string }): Promise<BulkSink> {
    return (await import('./outcomes.js')).bulkSink(what, this.run(), this.to);
  }

  /** The pages of a read (`list --all`), printed as they come where the format allows. */
  async pages(
    what: Omit<Read, 'kind' | 'data' | 'body' | 'refusals' | 'byKey' | 'table'>,
    view: ShapeOptions,
  ): Promise<PageSink> {
    const note = view.note ?? ((message: string) => this.to.notice(message));
    return (await import('./outcomes.js')).pageSink(what, this.run(), { ...view, note }, this.to);
  }

  /** A shape in the run's format on stdout. */
  async write(data: Shaped, options: Omit<View, 'tableFields'> = {}): Promise<void> {
    const { format, note, ...rest } = options;
    // A table's note (columns left out) follows the table.
    const notes: string[] = [];
    const text = await render(data, {
      format: format ?? this.settings.format(),
      terminal: this.terminal(),
      ...rest,
      ...(note ? { note: (message: string) => void notes.push(message) } : {}),
    });
    this.out(text);
    for (const message of notes) note!(message);
  }

  /** Rows that arrive page by page (`list --all`): written as the format allows. */
  rows(view: View = {}): RowSink {
    const stdout = this.io.stdout as OutStream & Partial<NodeJS.EventEmitter>;
    // The stream as the sink sees it: the status line cleared before each write, drain waited for.
    const writer = {
      write: (text: string) => {
        this.statusLine.clear();
        if (text) this.partial.printed = true;
        return stdout.write(text);
      },
      once: stdout.once?.bind(stdout),
      off: stdout.off?.bind(stdout),
    };
    const sink = createRowSink(writer, { format: this.settings.format(), terminal: this.terminal(), ...view });
    this.partial.open.add(sink);
    return {
      write: async (rows) => {
        this.partial.rows += rows.length;
        await sink.write(rows);
      },
      end: async () => {
        this.partial.open.delete(sink);
        await sink.end();
      },
    };
  }

  /** Text that is its own format (a completion script, the emulator's start): printed as is. */
  text(text: string): void {
    this.out(text);
  }

  /** A line for people on stderr, as is (the emulator's "serving until Ctrl-C"). */
  status(text: string): void {
    this.err(text);
  }

  warn(message: string): void {
    this.to.warn(message);
  }

  notice(message: string): void {
    this.to.notice(message);
  }

  /** An error of one part of the run (a VDOM, a bulk item), as the run reports errors; the run goes on. */
  report(report: ErrorReport): void {
    this.to.error(report);
  }

  /** An error as `cmdb: ...` with its hint, or as one JSON line for scripts. */
  error(report: ErrorReport, json = false): void {
    this.err(formatError(report, { json, color: this.color() }));
  }

  /** A stack trace or cause under an error (--verbose). */
  detail(text: string): void {
    this.err(`${text}\n`);
  }

  /**
   * `fetched N objects…` (or `N/total tables`) on a terminal's stderr, rewritten in place; nothing when stderr is
   * not a terminal.
   */
  progress(what = 'objects', total?: number): { update(count: number): void; done(): void } {
    const line = this.statusLine;
    return {
      update: (n) =>
        line.show(
          `fetched ${n.toLocaleString('en-US')}${total === undefined ? '' : `/${total.toLocaleString('en-US')}`} ` +
            `${what === 'objects' && n === 1 && total === undefined ? 'object' : what}…`,
        ),
      done: () => line.clear(),
    };
  }

  /**
   * --verbose: one exchange on stderr (each line after `label`). Device headers and bodies may hold escape sequences:
   * shown, never obeyed.
   */
  exchange(ex: Exchange, label = ''): void {
    const lines = [`> ${ex.method} ${ex.url}`];
    for (const [k, v] of Object.entries(ex.requestHeaders)) lines.push(`> ${k}: ${v}`);
    if (ex.requestBody) lines.push(`> ${ex.requestBody}`);
    if (ex.error) lines.push(`< failed after ${ex.durationMs} ms: ${ex.error}`);
    else {
      lines.push(`< ${ex.status} (${ex.durationMs} ms)`);
      for (const [k, v] of Object.entries(ex.responseHeaders ?? {}))
        lines.push(`< ${k}: ${Array.isArray(v) ? v.join(' | ') : v}`);
      const body = ex.responseBody ?? '';
      if (body) lines.push(`< ${body.length > 4096 ? `${body.slice(0, 4096)}… (${body.length} bytes)` : body}`);
    }
    const text = sanitizeMultiline(lines.join('\n'));
    // `label`: the device, on each line, when a run works on several.
    this.err((label ? text.replace(/^/gm, label) : text) + '\n');
  }
}
