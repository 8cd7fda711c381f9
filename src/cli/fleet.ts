// Several devices in one run (CLI.md, "Many devices"): -d a,b or patterns. The command runs once per
// device, --parallel at a time, each in a Context of its own (its profile, credential, session, TLS
// settings and timeout); what each prints is put together keyed by device, and a device that fails
// does not stop the others. Loaded only when -d/CMDB_DEVICE names several devices.
import type { DeviceProfile } from '../config/profiles.js';
import { selectedProfiles, useProfile } from '../device/select.js';
import { prefetchSecretStores, useSecretStores, type SharedStores } from '../device/credentials.js';
import { CmdbError, UsageError, EXIT } from '../errors.js';
import { FleetOutput, Progress, type DeviceSink, type PrintOptions } from '../output/fleet.js';
import type { ErrorReport, RenderOptions, Row, RowSink, Shaped } from '../output/index.js';
import { Printer } from '../output/printer.js';
import type { Exchange } from '../api/client.js';
import { mostSevere } from '../severity.js';
import { Context, type OutStream } from './context.js';
import { describeError } from './hints.js';

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
    super({ stdout: sink.stream, stderr, stdin: parent.io.stdin }, parent.env, { ...parent.options, device: device.name }, parent.connector, parent.formats);
    this.dispatcher = parent.dispatcher;
    this.runCache = parent.runCache;
    this.warned = run.warned;
    this.stores = run.stores;
    useProfile(this, device);
    useSecretStores(this, run.stores);
  }

  override get severalDevices(): boolean {
    return true;
  }

  /** --verbose: each line starts with the device. */
  override logExchange(ex: Exchange): void {
    this.out.exchange(ex, `[${this.device.name}] `);
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
      throw new CmdbError('cancelled: nothing was changed', EXIT.USAGE, 'give --yes to go ahead without the question');
    }
  }
  return runOnDevices(ctx, profiles, action, asked);
}

async function runOnDevices(ctx: Context, profiles: DeviceProfile[], action: (ctx: Context) => Promise<number>, confirmed: boolean): Promise<number> {
  const parallel = ctx.settings.parallel;
  const output = new FleetOutput({ io: ctx.io, format: ctx.format, raw: ctx.settings.raw, terminal: ctx.terminal() }, profiles.map((p) => p.name));
  const progress = new Progress(ctx.io.stderr, profiles.length);
  const warned = new Set<string>();
  const questions = { turn: Promise.resolve() as Promise<unknown> };
  const machineErrors = ctx.explicitFormat !== undefined && ctx.explicitFormat !== 'table' && ctx.explicitFormat !== 'csv';
  const stores = await prefetchSecretStores(ctx, profiles);
  /** Usage errors are the same on every device (bad input): held, and said once when they are. */
  const usage: ErrorReport[] = [];
  const messages = new Printer({ stdout: ctx.io.stdout, stderr: progress.stream, stdin: ctx.io.stdin }, ctx.env, { format: () => ctx.format, raw: ctx.settings.raw, noColor: ctx.settings.noColor });
  const say = (report: ErrorReport) => messages.error(report, machineErrors);
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
      if (ctx.verbose && err instanceof Error) messages.detail(`${err.stack}`);
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
