// Several devices in one run (CLI.md, "Many devices"): -d a,b or patterns. The command runs once per
// device, --parallel at a time, each in a Context of its own (its profile, credential, session, TLS
// settings and timeout); what each prints is put together keyed by device, and a device that fails
// does not stop the others. Loaded only when -d/CMDB_DEVICE names several devices.
import type { DeviceProfile } from '../config/profiles.js';
import { selectedProfiles, useProfile } from '../device/select.js';
import { prefetchSecretStores, useSecretStores, type SharedStores } from '../device/credentials.js';
import { UsageError, EXIT } from '../errors.js';
import { deviceHeading, ndjsonLineWithDevice, renderByDevice, type DevicePart } from '../output/devices.js';
import { formatError, render, type ErrorReport, type OutputFormat, type RenderOptions, type Row, type RowSink, type Shaped } from '../output/index.js';
import { mostSevere } from '../severity.js';
import { Context, type OutStream } from './context.js';
import { describeError } from './hints.js';

/** On a terminal, `12/40 devices` on stderr; anything else written to stderr goes above it. */
class Progress {
  private done = 0;
  private shown = false;

  /** stderr for the devices' messages: the progress line is taken away, the text written, the line put back. */
  readonly stream: OutStream;

  constructor(private readonly stderr: OutStream, private readonly total: number) {
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

  private get active(): boolean {
    return this.stderr.isTTY === true;
  }

  private clear(): void {
    if (this.shown) this.stderr.write('\r\x1b[K');
    this.shown = false;
  }

  private draw(): void {
    if (!this.active || this.done >= this.total) return;
    this.stderr.write(`\r\x1b[K${this.done}/${this.total} devices`);
    this.shown = true;
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

type PrintOptions = Omit<RenderOptions, 'format' | 'terminal'> & { format?: OutputFormat };

/** Where one device's output goes: printed shapes and any text a command streams to its stdout. */
interface DeviceSink {
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
class FleetOutput {
  private readonly parts: (DevicePart & { text: string; finished: boolean; failed: boolean })[];
  private nextSection = 0;

  constructor(private readonly parent: Context, devices: string[]) {
    this.parts = devices.map((device) => ({ device, prints: [], text: '', finished: false, failed: false }));
  }

  private get streamsLines(): boolean {
    return this.parent.format === 'ndjson' && !this.parent.settings.raw;
  }

  sink(index: number): DeviceSink {
    const part = this.parts[index];
    const stdout = this.parent.io.stdout;
    let partial = '';
    const terminal = this.parent.terminal();
    const write = (chunk: string): boolean => {
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
      return stdout.write(lines.filter((l) => l.trim() !== '').map((l) => ndjsonLineWithDevice(part.device, l) + '\n').join(''));
    };
    return {
      stream: { write, isTTY: stdout.isTTY, columns: stdout.columns },
      keepsData: !this.streamsLines && this.parent.format !== 'table',
      print: async (data, options) => {
        if (this.streamsLines || this.parent.format === 'table') {
          if (data.kind === 'raw' && this.streamsLines) write(JSON.stringify(data.body) + '\n');
          else write(await render(data, { format: this.parent.format, terminal, ...options }));
        } else part.prints.push({ data, options });
      },
    };
  }

  /** A device is done (or failed: its section and key are left out). */
  finish(index: number, failed: boolean): void {
    Object.assign(this.parts[index], { finished: true, failed });
    if (this.parent.format !== 'table' || this.streamsLines) return;
    let text = '';
    while (this.nextSection < this.parts.length && this.parts[this.nextSection].finished) {
      const part = this.parts[this.nextSection++];
      if (!part.failed) text += (text || this.nextSection > 1 ? '\n' : '') + deviceHeading(part.device) + part.text;
    }
    if (text) this.parent.io.stdout.write(text);
  }

  async end(): Promise<void> {
    if (this.parent.format === 'table' || this.streamsLines) return;
    const parts = this.parts.filter((p) => !p.failed);
    // Nothing on stdout when no device answered, as with one device that fails, or none printed (export --dir).
    if (!parts.some((p) => p.prints.length)) return;
    const own = parts.flatMap((p) => p.prints).find((p) => p.options.format)?.options.format;
    const text = await renderByDevice(parts, this.parent.settings.raw ? 'json' : (own ?? this.parent.format), this.parent.terminal());
    if (text) this.parent.io.stdout.write(text);
  }
}

/** What the devices of one run share. */
interface RunShared {
  warned: Set<string>;
  stores: SharedStores;
  /** The terminal said yes to the whole run's writes. */
  confirmed: boolean;
  /** Questions one at a time on the terminal. */
  questions: { turn: Promise<unknown> };
}

/** A device's own Context: its profile, and its output and messages going to the run's. */
class DeviceContext extends Context {
  private readonly warned: Set<string>;
  private readonly stores: SharedStores;

  constructor(parent: Context, readonly device: DeviceProfile, private readonly sink: DeviceSink, stderr: OutStream, private readonly run: RunShared) {
    super({ stdout: sink.stream, stderr, stdin: parent.io.stdin }, parent.env, { ...parent.options, device: device.name }, parent.connector);
    this.dispatcher = parent.dispatcher;
    this.runCache = parent.runCache;
    this.warned = run.warned;
    this.stores = run.stores;
    useProfile(this, device);
    useSecretStores(this, run.stores);
  }

  /** Asked once for all the devices already (a write), else one device's question at a time, naming it. */
  override async confirm(question: string): Promise<boolean> {
    if (this.run.confirmed) return true;
    const answer = this.run.questions.turn.then(() => super.confirm(`${this.device.name}: ${question}`));
    this.run.questions.turn = answer.catch(() => undefined);
    return answer;
  }

  /** Another device (diff --from): its secrets from the run's stores, its warnings said once too. */
  override forDevice(name: string): Context {
    const other = super.forDevice(name);
    useSecretStores(other, this.stores);
    other.warn = (message) => this.warn(message);
    return other;
  }

  override async printShaped(data: Shaped, options: PrintOptions = {}): Promise<void> {
    await this.sink.print(data, options);
  }

  /** Warnings are about the run (--insecure, --force, plain-text secrets): said once. */
  /** Rows page by page: ndjson and table text go to the device's share as they come; json, yaml, csv are kept for the document keyed by device. */
  override async rowSink(options: Omit<RenderOptions, 'format' | 'terminal'> = {}): Promise<RowSink> {
    if (this.sink.keepsData) {
      const rows: Row[] = [];
      return {
        write: async (page) => void rows.push(...page),
        end: () => this.printShaped({ kind: 'list', rows }, options),
      };
    }
    return super.rowSink(options);
  }

  override warn(message: string): void {
    if (this.warned.has(message)) return;
    this.warned.add(message);
    super.warn(message);
  }

  override notice(message: string): void {
    super.notice(`${this.device.name}: ${message}`);
  }

  override printError(report: ErrorReport): void {
    super.printError({ ...report, device: this.device.name });
  }
}

/** Runs `work` on every item, at most `size` at once (a slow device holds only its own place). */
async function pool<T, R>(items: T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(size, items.length) }, worker));
  return results;
}

/**
 * Runs a command that talks to devices on each of those -d/CMDB_DEVICE names when it names several
 * (one that works on one device: a usage error); returns the most severe exit code.
 */
/** The command being run, as the registry describes it. */
export interface FleetCommand {
  name: string;
  devices: 'each' | 'one';
  /** It will change the devices (a write command without --dry-run). */
  writes: boolean;
  /** --yes: do not ask. */
  yes: boolean;
}

export async function runSelected(ctx: Context, command: FleetCommand, action: (ctx: Context) => Promise<number>): Promise<number> {
  if (ctx.demo) return action(ctx);
  if (command.devices === 'one') {
    throw new UsageError(`'cmdb ${command.name}' works on one device, but -d '${ctx.settings.device}' names several`, 'name one device with -d <name>');
  }
  const profiles = selectedProfiles(ctx);
  if (!profiles) return action(ctx);
  // A write on several devices asks once on a terminal, naming them; the devices then ask nothing.
  const asked = command.writes && !command.yes && ctx.interactive;
  if (asked) {
    const names = profiles.map((p) => p.name).join(', ');
    if (!(await ctx.confirm(`${command.name} on ${profiles.length} device${profiles.length === 1 ? '' : 's'} (${names})?`))) {
      ctx.notice('nothing was changed');
      return EXIT.OK;
    }
  }
  return runOnDevices(ctx, profiles, action, asked);
}

async function runOnDevices(ctx: Context, profiles: DeviceProfile[], action: (ctx: Context) => Promise<number>, confirmed: boolean): Promise<number> {
  const parallel = ctx.settings.parallel;
  const output = new FleetOutput(ctx, profiles.map((p) => p.name));
  const progress = new Progress(ctx.io.stderr, profiles.length);
  const warned = new Set<string>();
  const questions = { turn: Promise.resolve() as Promise<unknown> };
  const machineErrors = ctx.explicitFormat !== undefined && ctx.explicitFormat !== 'table' && ctx.explicitFormat !== 'csv';
  const color = ctx.colorFor(ctx.io.stderr);
  const stores = await prefetchSecretStores(ctx, profiles);
  /** Usage errors are the same on every device (bad input): held, and said once when they are. */
  const usage: ErrorReport[] = [];
  const say = (report: ErrorReport) => progress.stream.write(formatError(report, { json: machineErrors, color }));
  progress.start();
  const codes = await pool(profiles, parallel, async (profile, index) => {
    const sub = new DeviceContext(ctx, profile, output.sink(index), progress.stream, { warned, stores, confirmed, questions });
    let failed = false;
    try {
      return await action(sub);
    } catch (err) {
      failed = true;
      const report = { ...describeError(err), device: profile.name };
      if (report.exit === EXIT.USAGE) usage.push(report);
      else say(report);
      if (ctx.verbose && err instanceof Error) progress.stream.write(`${err.stack}\n`);
      return report.exit;
    } finally {
      await sub.close();
      output.finish(index, failed);
      progress.step();
    }
  });
  progress.end();
  await output.end();
  if (usage.length === profiles.length && usage.every((u) => u.message === usage[0].message && u.hint === usage[0].hint)) {
    say({ ...usage[0], device: null });
  } else usage.forEach(say);
  return mostSevere(codes);
}
