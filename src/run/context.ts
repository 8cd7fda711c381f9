// What a command is handed: the streams and environment, the run's settings (computed once), the
// printer (the one writer of stdout and stderr), the prompt, the device (made on first use, by the
// device layer, from plain values) and signal handling. Commands never write to streams, read the
// environment or build URLs themselves; the device, request and plan code they call take plain values.
import type { Dispatcher } from 'undici';
import type { WriteTally } from '../api/client.js';
import { formatsOf, type FormatRule } from '../grammar/types.js';
import { Device } from '../device/device.js';
import type { DeviceDeps } from '../device/setup.js';
import { UsageError } from '../errors.js';
import { defaultFormat, type IO } from '../output/index.js';
import { Printer } from '../output/printer.js';
import { resolveSettings, type GlobalOptions, type Settings } from '../settings.js';
import { terminalPrompt, type Prompt } from './prompt.js';

export type { GlobalOptions } from '../settings.js';
export type { IO, OutStream } from '../output/index.js';
export type { Prompt } from './prompt.js';
export { declined } from './prompt.js';

/** Work that takes SIGINT over (interruptible()) is running: Ctrl-C is its to handle, not main()'s. */
let takeovers = 0;

export function interruptTakenOver(): boolean {
  return takeovers > 0;
}

/**
 * For work that must clean up when interrupted (abort a device transaction): until `release()`,
 * SIGINT and SIGTERM fire `signal` instead of ending the process; a second one ends it at once.
 */
function interruptible(): { signal: AbortSignal; exitCode: () => number | undefined; release: () => void } {
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

/**
 * What a run has done besides its output, for what an interruption says: the files it writes (once a
 * command says it writes some) and the writes its devices' clients sent. Shared by every device of a run.
 */
export interface RunRecord {
  /** The files written so far; undefined while the command writes none. */
  files?: string[];
  readonly writes: WriteTally;
}

export function newRunRecord(): RunRecord {
  return { writes: { sent: 0, applied: 0, refused: 0 } };
}

export interface ContextParts {
  io: IO;
  env: NodeJS.ProcessEnv;
  settings: Settings;
  out: Printer;
  prompt: Prompt;
  /** Makes the run's device (once, on first use). */
  device: () => Device;
  /** Work done once per run and shared by every device of it (diff --from reads its reference once). */
  cache?: Map<string, Promise<unknown>>;
  /** One device of a run on several (-d a,b): what one device would print to stdout, each must put elsewhere. */
  several?: boolean;
  /** What the run has done besides its output (shared by every device of it). */
  record?: RunRecord;
}

export class Context {
  readonly io: IO;
  readonly env: NodeJS.ProcessEnv;
  readonly settings: Settings;
  /** The one writer of stdout and stderr. */
  readonly out: Printer;
  readonly prompt: Prompt;
  readonly signals = { interruptible };
  /** One device of a run on several (-d a,b). */
  readonly several: boolean;
  /** Work done once per run, shared by every device of it. */
  readonly cache: Map<string, Promise<unknown>>;
  /** What the run has done besides its output: files written, writes sent (for what an interruption says). */
  readonly record: RunRecord;
  private readonly makeDevice: () => Device;
  private made: Device | undefined;

  constructor(parts: ContextParts) {
    this.io = parts.io;
    this.env = parts.env;
    this.settings = parts.settings;
    this.out = parts.out;
    this.prompt = parts.prompt;
    this.makeDevice = parts.device;
    this.cache = parts.cache ?? new Map();
    this.several = !!parts.several;
    this.record = parts.record ?? newRunRecord();
  }

  /** The device of this run, from the device layer: its profile, VDOMs, client and catalogue, each on first use. */
  device(): Device {
    this.made ??= this.makeDevice();
    return this.made;
  }

  once<T>(key: string, work: () => Promise<T>): Promise<T> {
    if (!this.cache.has(key)) this.cache.set(key, work());
    return this.cache.get(key) as Promise<T>;
  }

  async close(): Promise<void> {
    await this.made?.close();
  }
}

/** How a run's Context is made: its command's output formats, and in tests a transport or a stand-in device. */
export interface RunOptions {
  /** The output formats the command prints (its registry entry's), when not every one. */
  formats?: FormatRule;
  dispatcher?: Dispatcher;
  connect?: DeviceDeps['connect'];
}

/**
 * The format the command prints: -o/CMDB_OUTPUT, else the command's own default, else the terminal's;
 * a format the command does not print is a usage error before anything is sent.
 */
export function checkFormat(settings: Settings, rule: FormatRule | undefined, tty: boolean): void {
  const formats = formatsOf(rule);
  const own = rule?.default;
  const format = settings.format ?? own ?? defaultFormat(tty);
  if (formats.includes(format)) return;
  const others = formats.filter((f) => f !== own);
  const hint = own
    ? `use -o ${own} (the default) or -o ${others.join(' or -o ')}`
    : `use -o ${others.slice(0, -1).join(', ')} or ${others.at(-1)}`;
  const asked = settings.formatAsked ?? `-o ${format}`;
  // The device's syntax is for objects only; other commands have no rule that could name it.
  if (!rule) throw new UsageError(`${asked} is only for list, get and export`, hint);
  // The variable is named when it set the format, so the user knows what to unset or override.
  throw new UsageError(
    `${asked} does not fit ${rule.what}`,
    asked.startsWith('-o') ? hint : `${hint}, which overrides CMDB_OUTPUT`,
  );
}

/**
 * The run's settings for its command: `CMDB_OUTPUT=cli` (set for list, get and export) is no format
 * for the others, which print their default instead; `-o cli` stays, for checkFormat to refuse.
 */
export function settingsFor(settings: Settings, rule: FormatRule | undefined): Settings {
  if (settings.format !== 'cli' || settings.flags.output !== undefined || formatsOf(rule).includes('cli'))
    return settings;
  return Object.freeze({ ...settings, format: undefined, formatAsked: undefined });
}

/** The printer of a run: its format, --raw, colour and whether errors are machine-readable. */
export function runPrinter(io: IO, env: NodeJS.ProcessEnv, settings: Settings, formats?: FormatRule): Printer {
  const tty = !!io.stdout.isTTY;
  return new Printer(io, env, {
    format: () => settings.format ?? defaultFormat(tty),
    explicitFormat: () => settings.format,
    ownFormat: () => (settings.format === undefined ? formats?.default : undefined),
    raw: settings.raw,
    noColor: settings.noColor,
    machineErrors: settings.machineErrors,
  });
}

/**
 * The Context of one run: the settings computed from the global options and the environment, checked
 * up front with the command's formats, so a bad value stops the command before anything is sent.
 */
export function runContext(io: IO, env: NodeJS.ProcessEnv, options: GlobalOptions, run: RunOptions = {}): Context {
  const settings = settingsFor(resolveSettings(options, env), run.formats);
  checkFormat(settings, run.formats, !!io.stdout.isTTY);
  const out = runPrinter(io, env, settings, run.formats);
  const prompt = terminalPrompt(io, env, out);
  const record = newRunRecord();
  return new Context({
    io,
    env,
    settings,
    out,
    prompt,
    record,
    device: () =>
      new Device({
        settings,
        env,
        warn: (message) => out.warn(message),
        exchange: (ex) => out.exchange(ex),
        ask: async (question) => (prompt.interactive ? prompt.ask(question) : null),
        dispatcher: run.dispatcher,
        connect: run.connect,
        writes: record.writes,
      }),
  });
}
