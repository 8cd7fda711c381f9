import type { Dispatcher } from 'undici';
import type { ApiRequest, CmdbClient, DescribedRequest, Exchange } from '../api/client.js';
import type { Catalogue } from '../catalogue/provider.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import type { FormatRule } from '../commands/spec.js';
import type { Connection } from '../device/connect.js';
import { selectedProfile } from '../device/select.js';
import {
  decideColor,
  defaultFormat,
  loadPalette,
  type BulkSink,
  type ErrorReport,
  type IO,
  type PageSink,
  type OutputFormat,
  type OutStream,
  type Printable,
  type RenderOptions,
  type RowSink,
  type Shaped,
  type Terminal,
} from '../output/index.js';
import { Printer, type PrintHooks, type View } from '../output/printer.js';
import type { PlannedRequest } from '../output/requests.js';
import { sanitizeMultiline } from '../output/text.js';
import { describeError, type Shown } from './hints.js';
import { otherDeviceEnv, Settings, variable, type GlobalOptions } from './options.js';

export type { GlobalOptions } from './options.js';
export { DEFAULT_TIMEOUT_SECONDS, parsePrefix, parseVdoms, truthy } from './options.js';

export type { IO, OutStream } from '../output/index.js';

/** Work that takes SIGINT over (interruptible()) is running: Ctrl-C is its to handle, not main()'s. */
let takeovers = 0;

export function interruptTakenOver(): boolean {
  return takeovers > 0;
}

/** How a Context reaches its device: the device layer's connect(), or a stand-in in tests. */
export type Connector = (ctx: Context) => Promise<Connection>;

const deviceConnect: Connector = async (ctx) => (await import('../device/connect.js')).connect(ctx);

/**
 * Everything a command needs, passed in: streams, environment, settings, and a lazy device.
 * Commands never write to streams, read the environment or build URLs themselves.
 */
/** A question answered no (or left unanswered): nothing was done, at the user's word (exit 2). */
export function declined(): CmdbError {
  return new CmdbError('cancelled: nothing was changed', EXIT.USAGE, 'give --yes to go ahead without the question');
}

export class Context {
  readonly settings: Settings;
  /** The one writer of stdout and stderr. */
  readonly out: Printer;
  /** Injected transport for every client of this run (undici MockAgent in command tests). */
  dispatcher?: Dispatcher;
  private clientPromise: Promise<CmdbClient> | undefined;
  private cataloguePromise: Promise<Catalogue> | undefined;
  private readonly cleanups: (() => Promise<void>)[] = [];
  /** --dry-run: the writes the command would have sent, in order. */
  private readonly planned: PlannedRequest[] = [];
  private confirmation: Promise<boolean> | undefined;
  private plannedTaken = false;

  constructor(
    readonly io: IO,
    readonly env: NodeJS.ProcessEnv,
    readonly options: GlobalOptions,
    readonly connector: Connector = deviceConnect,
    /** The output formats the command prints (its registry entry's), when not every one. */
    readonly formats?: FormatRule,
  ) {
    this.settings = new Settings(options, env);
    const settings = this.settings;
    this.out = new Printer(io, env, {
      format: () => this.format,
      explicitFormat: () => this.explicitFormat,
      ownFormat: () => (this.explicitFormat === undefined ? formats?.default : undefined),
      raw: settings.raw,
      noColor: settings.noColor,
    });
  }

  /**
   * Checks the global options' values up front, and that the command prints the format asked for,
   * so a bad one stops the command before anything is sent.
   */
  validateGlobals(): void {
    this.settings.validate();
    if (!this.formats) return;
    const { what, formats, default: own } = this.formats;
    const format = this.explicitFormat ?? own ?? this.format;
    if (formats.includes(format)) return;
    const others = formats.filter((f) => f !== own);
    const hint = own
      ? `use -o ${own} (the default) or -o ${others.join(' or -o ')}`
      : `use -o ${others.slice(0, -1).join(', ')} or ${others.at(-1)}`;
    const asked = this.settings.formatAsked ?? `-o ${format}`;
    // The variable is named when it set the format, so the user knows what to unset or override.
    throw new UsageError(
      `${asked} does not fit ${what}`,
      asked.startsWith('-o') ? hint : `${hint}, which overrides CMDB_OUTPUT`,
    );
  }

  /** The format asked for with -o or CMDB_OUTPUT, or undefined. */
  get explicitFormat(): OutputFormat | undefined {
    return this.settings.explicitFormat;
  }

  get format(): OutputFormat {
    return this.explicitFormat ?? defaultFormat(!!this.io.stdout.isTTY);
  }

  get verbose(): boolean {
    return this.settings.verbose;
  }

  get insecure(): boolean {
    return this.settings.insecure;
  }

  get demo(): boolean {
    return this.settings.demo;
  }

  get force(): boolean {
    return this.settings.force;
  }

  /** Per-request timeout in milliseconds (flag, CMDB_TIMEOUT, then the profile's or 30 s). */
  timeoutMs(profileSeconds?: number): number {
    return this.settings.timeoutMs(profileSeconds);
  }

  /**
   * VDOMs from --vdom, CMDB_VDOM or the device profile; undefined means the device's management VDOM.
   * The profile is looked up here: commands build their query (with vdom) before they ask for the client.
   */
  vdoms(): string[] | undefined {
    return this.settings.vdoms(
      this.settings.vdomText === undefined && !this.demo ? selectedProfile(this)?.vdom : undefined,
    );
  }

  /**
   * Whether this Context is one device of a run on several (-d a,b): what one device would print to stdout, each must
   * put elsewhere.
   */
  get severalDevices(): boolean {
    return false;
  }

  /** Whether a person can answer a question: stdin is a terminal. */
  get interactive(): boolean {
    return !!this.io.stdin.isTTY;
  }

  /** Asks one line on the terminal (hidden for secrets). */
  async ask(question: string, options: { hidden?: boolean } = {}): Promise<string> {
    this.out.clearStatus();
    return (await import('../output/prompt.js')).ask(this.io, question, options);
  }

  /** A yes/no question; anything but y or yes is no. */
  async confirm(question: string): Promise<boolean> {
    this.out.clearStatus();
    return (await import('../output/prompt.js')).confirm(this.io, question);
  }

  /** Asks on a terminal, or fails with the flag that gives the answer without one. */
  async askOrFail(question: string, flag: string, options: { hidden?: boolean } = {}): Promise<string> {
    this.out.clearStatus();
    return (await import('../output/prompt.js')).askOrFail(this.io, question, flag, options);
  }

  /** Loads the colour library when this run writes colour to stdout or stderr (and only then). */
  async prepareColor(): Promise<void> {
    if (this.colorFor(this.io.stdout) || this.colorFor(this.io.stderr)) await loadPalette();
  }

  /** Opens text in the user's editor ($VISUAL, $EDITOR, else vi) and returns what was saved. */
  async editText(text: string, name: string): Promise<string> {
    const editor = variable(this.env, 'visual') ?? variable(this.env, 'editor');
    return (await import('./editor.js')).editText(this.io, editor, text, name);
  }

  colorFor(stream: OutStream): boolean {
    return decideColor(stream, this.env, this.settings.noColor);
  }

  terminal(): Terminal {
    return this.out.terminal();
  }

  async client(): Promise<CmdbClient> {
    this.clientPromise ??= this.connector(this).then(async ({ client, close }) => {
      this.cleanups.push(close);
      if (this.dryRun) client.recordWrites(await this.planRecorder());
      return client;
    });
    return this.clientPromise;
  }

  /** The catalogue of this run's device, from the device layer: the shipped one, or the device's own schema. */
  async catalogue(): Promise<Catalogue> {
    this.cataloguePromise ??= import('../device/catalogue.js').then(({ catalogueFor }) => catalogueFor(this));
    return this.cataloguePromise;
  }

  /** --dry-run on a write command: writes are shown, not sent (reads a command needs still are). */
  get dryRun(): boolean {
    return !!this.options.dryRun;
  }

  /** --yes: no question before a change. */
  get yes(): boolean {
    return !!this.options.yes;
  }

  /** Keeps each write of a dry run as it would be sent, its table's secrets hidden. */
  private async planRecorder(): Promise<(req: ApiRequest, described: DescribedRequest) => void> {
    const { findTable } = await import('../catalogue/index.js');
    const { redactSecrets } = await import('../catalogue/secrets.js');
    return (req, described) => {
      const body = described.body;
      const hidden =
        body && typeof body === 'object' && !Array.isArray(body)
          ? redactSecrets(findTable(req.tablePath)?.fields, body as Record<string, unknown>)
          : body;
      this.planned.push({ ...described, body: hidden });
    };
  }

  /** The writes a dry run kept, for a command that prints them in its own shape (apply: with its plan). */
  takePlanned(): PlannedRequest[] {
    this.plannedTaken = true;
    return [...this.planned];
  }

  /** Prints the writes a dry run kept (or `planned`, once they were taken). */
  async printPlanned(planned?: PlannedRequest[]): Promise<void> {
    if (this.plannedTaken && !planned) return;
    await this.print({ kind: 'requests', requests: planned ?? this.planned });
  }

  /**
   * Before a change a person should look at twice (a delete, a write to several VDOMs or devices):
   * on a terminal, shows what will happen and asks [y/N], once per run however many writes follow.
   * --yes, --dry-run or no terminal: goes ahead without asking. Declined: exit 2, nothing sent.
   */
  async confirmChange(question: string, details: string[] = []): Promise<void> {
    if (!(await this.approved(question, details))) throw declined();
  }

  /**
   * The question before a plan's `changes` are made (apply), answered. On several devices the run
   * asks once for all of them, after every device has shown its plan (cli/fleet.ts).
   */
  // biome-ignore lint/correctness/noUnusedFunctionParameters: the count is for several devices (cli/fleet.ts)
  async approvedPlan(changes: number, question: string): Promise<boolean> {
    return this.approved(question);
  }

  /** The question of confirmChange, answered: true to go ahead (also with --yes, --dry-run or no terminal). */
  private async approved(question: string, details: string[] = []): Promise<boolean> {
    if (this.yes || this.dryRun || !this.interactive) return true;
    this.confirmation ??= (async () => {
      for (const line of details) this.out.status(`  ${sanitizeMultiline(line)}\n`);
      return this.confirm(question);
    })();
    return this.confirmation;
  }

  /**
   * Data or what happened, on stdout in the run's format (or `view.format`, a command with its own
   * default): the printer decides how it looks, and hands the shape to printShaped().
   */
  async print(data: Printable, view: View = {}): Promise<void> {
    await this.out.print(data, view, this.hooks);
  }

  /** The items of a bulk write, printed as they come. */
  async bulkSink(what: { tablePath: string; verb: string }): Promise<BulkSink> {
    return this.out.bulk(what, this.hooks);
  }

  /** The pages of a read (`list --all`), printed as they come where the format allows. */
  async pageSink(what: Parameters<Printer['pages']>[0], view: Parameters<Printer['pages']>[1]): Promise<PageSink> {
    return this.out.pages(what, view, this.hooks);
  }

  /** The printer's way out through this Context (which a device of several overrides). */
  private get hooks(): PrintHooks {
    return {
      emit: (shaped, options) => this.printShaped(shaped, options),
      rows: (options) => this.rowSink(options),
      notice: (message) => this.notice(message),
      warn: (message) => this.warn(message),
      error: (report) => this.printError(report),
      summarize: (report) => this.summarize(report),
    };
  }

  /** A shape on stdout (a device of several keeps it for the document keyed by device). */
  async printShaped(
    data: Shaped,
    options: Omit<RenderOptions, 'format' | 'terminal'> & { format?: OutputFormat } = {},
  ): Promise<void> {
    await this.out.write(data, options);
  }

  /** A sink for rows that arrive page by page (`list --all`, bulk results), writing to stdout as the format allows. */
  async rowSink(options: Omit<RenderOptions, 'format' | 'terminal'> = {}): Promise<RowSink> {
    return this.out.rows(options);
  }

  /** Work done once per run and shared by every device of it (diff --from reads its reference once). */
  runCache = new Map<string, Promise<unknown>>();

  once<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (!this.runCache.has(key)) this.runCache.set(key, work());
    return this.runCache.get(key) as Promise<T>;
  }

  /** The same run against another saved device (its own profile and credential); close() it after use. */
  forDevice(name: string): Context {
    return new Context(
      this.io,
      otherDeviceEnv(this.env),
      { ...this.options, device: name, host: undefined, demo: undefined },
      this.connector,
    );
  }

  /**
   * For work that must clean up when interrupted (abort a device transaction): until `release()`,
   * SIGINT and SIGTERM fire `signal` instead of ending the process; a second one ends it at once.
   */
  interruptible(): { signal: AbortSignal; exitCode: () => number | undefined; release: () => void } {
    const controller = new AbortController();
    let received: NodeJS.Signals | undefined;
    const handler = (signal: NodeJS.Signals) => {
      received = signal;
      release();
      controller.abort();
    };
    let held = true;
    const release = () => {
      if (held) takeovers--;
      held = false;
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    };
    takeovers++;
    process.once('SIGINT', handler);
    process.once('SIGTERM', handler);
    return {
      signal: controller.signal,
      exitCode: () => (received === undefined ? undefined : received === 'SIGINT' ? 130 : 143),
      release,
    };
  }

  warn(message: string): void {
    this.out.warn(message);
  }

  /** What the user sees of an error: message, hint, exit code (the one map in hints.ts). */
  describe(err: unknown): Shown {
    return describeError(err);
  }

  /** An error on stderr, as `cmdb: ...` with its hint (one item of a bulk write). */
  printError(report: ErrorReport): void {
    // One JSON line when json, yaml or ndjson was asked for explicitly, as for the run's own error.
    this.out.error(report, this.machineErrors);
  }

  /** Whether errors go out as one JSON line: json, yaml or ndjson asked for with -o or CMDB_OUTPUT (CLI.md). */
  get machineErrors(): boolean {
    const format = this.explicitFormat;
    return format === 'json' || format === 'yaml' || format === 'ndjson';
  }

  /** A bulk run's summary on stderr: one JSON error line in the machine formats, else a notice. */
  summarize(report: ErrorReport & { counts: { failed: number; total: number } }): void {
    if (this.machineErrors) this.out.error(report, true);
    else this.notice(report.message);
  }

  notice(message: string): void {
    this.out.notice(message);
  }

  /** --verbose: one exchange on stderr; the api layer has already redacted credentials. */
  logExchange(ex: Exchange): void {
    this.out.exchange(ex);
  }

  async close(): Promise<void> {
    for (const cleanup of this.cleanups.splice(0).reverse()) await cleanup().catch(() => undefined);
  }
}
