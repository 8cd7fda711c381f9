// Several devices in one run (CLI.md, "Many devices"): -d a,b or patterns. The command runs once per
// device, --parallel at a time, each in a Context of its own (its profile, credential, session, TLS
// settings and timeout); what each prints is put together keyed by device, and a device that fails
// does not stop the others. Loaded only when -d/CMDB_DEVICE names several devices.
import type { DeviceProfile } from '../config/profiles.js';
import type { Exchange } from '../api/client.js';
import type { FormatRule } from '../grammar/types.js';
import { prefetchSecretStores } from '../device/credentials.js';
import { Device } from '../device/device.js';
import type { DeviceDeps, SharedStores } from '../device/setup.js';
import { selectedProfiles } from '../device/select.js';
import { UsageError, EXIT } from '../errors.js';
import { FleetOutput, Progress, type DeviceSink, type PrintOptions } from '../output/fleet.js';
import { defaultFormat, type ErrorReport, type OutStream, type Row } from '../output/index.js';
import { Printer } from '../output/printer.js';
import { sanitizeMultiline } from '../output/text.js';
import { mostSevere } from '../severity.js';
import { Context } from '../run/context.js';
import { describeError } from '../run/hints.js';
import { declined, terminalPrompt, type Prompt } from '../run/prompt.js';

/** What the devices of one run share. */
interface RunShared {
  warned: Set<string>;
  stores: SharedStores;
  /** The terminal said yes to the whole run's writes. */
  confirmed: boolean;
  /** Questions one at a time on the terminal. */
  questions: { turn: Promise<unknown> };
  /** apply: every device's plan first, then one question (absent: no question, or asked already). */
  gate?: PlanGate;
  slots: Slots;
  /** The output formats of the command (its registry entry's). */
  formats?: FormatRule;
  /** The transport and connector the run's own device has (stand-ins in tests). */
  device: Pick<DeviceDeps, 'dispatcher' | 'connect'>;
}

/** Places for devices at work, --parallel of them; a device waiting for the run's question gives its place up. */
class Slots {
  private free: number;
  private readonly waiting: (() => void)[] = [];

  constructor(size: number) {
    this.free = size;
  }

  async acquire(): Promise<void> {
    if (this.free > 0) {
      this.free--;
      return;
    }
    await new Promise<void>((resolve) => this.waiting.push(resolve));
  }

  release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.free++;
  }
}

/**
 * apply on several devices: each device reads and shows its plan, then waits here; once every device
 * has a plan (or is done: in sync, failed), the plans are on the screen and the run asks once, for
 * the changes of all of them ("apply 7 changes on 2 devices?"), naming those already in sync.
 */
class PlanGate {
  private readonly arrived = new Map<number, number>();
  private readonly inSync: number[] = [];
  private settled = 0;
  private answer: Promise<boolean> | undefined;
  private open!: (yes: boolean) => void;
  private readonly decided = new Promise<boolean>((resolve) => (this.open = resolve));

  constructor(
    private readonly names: string[],
    private readonly ask: (question: string, inSync: string[]) => Promise<boolean>,
  ) {}

  /** A device with `changes` to make: waits for the others, then for the answer. */
  arrive(index: number, changes: number): Promise<boolean> {
    this.arrived.set(index, changes);
    this.settle();
    return this.decided;
  }

  /** A device done without a question: in sync (exit 0), failed, or nothing it may do. */
  leave(index: number, code: number): void {
    if (this.arrived.has(index)) return;
    if (code === EXIT.OK) this.inSync.push(index);
    this.settle();
  }

  private settle(): void {
    if (++this.settled < this.names.length || this.answer) return;
    const changes = [...this.arrived.values()].reduce((a, b) => a + b, 0);
    const devices = [...this.arrived.keys()].sort((a, b) => a - b).map((i) => this.names[i]);
    const inSync = this.inSync.sort((a, b) => a - b).map((i) => this.names[i]);
    if (!devices.length) {
      this.answer = Promise.resolve(true);
      return this.open(true);
    }
    const question =
      `apply ${changes} change${changes === 1 ? '' : 's'} on ` +
      `${devices.length} device${devices.length === 1 ? '' : 's'} (${devices.join(', ')})?`;
    this.answer = this.ask(question, inSync).catch(() => false);
    void this.answer.then(this.open);
  }
}

/**
 * A device's own Context: its profile and the run's secret stores; its output goes to its share of the
 * run's document, its messages name it (warnings said once for the run), its questions wait their turn.
 */
function deviceContext(
  parent: Context,
  profile: DeviceProfile,
  index: number,
  sink: DeviceSink,
  stderr: OutStream,
  run: RunShared,
): Context {
  const name = profile.name;
  const settings = Object.freeze({ ...parent.settings, device: name });
  const io = { stdout: sink.stream, stderr, stdin: parent.io.stdin };
  const out = new Printer(
    io,
    parent.env,
    {
      format: () => settings.format ?? defaultFormat(!!parent.io.stdout.isTTY),
      explicitFormat: () => settings.format,
      ownFormat: () => (settings.format === undefined ? run.formats?.default : undefined),
      raw: settings.raw,
      noColor: settings.noColor,
      machineErrors: settings.machineErrors,
    },
    (own) => ({
      emit: (data, options: PrintOptions) => sink.print(data, options),
      // Rows page by page: ndjson and table text go to the device's share as they come; json, yaml,
      // csv are kept for the document keyed by device.
      rows: async (options) => {
        if (!sink.keepsData) return own.rows(options);
        const rows: Row[] = [];
        return {
          write: async (page) => void rows.push(...page),
          end: () => sink.print({ kind: 'list', rows }, options),
        };
      },
      // Warnings are about the run (--insecure, --force, plain-text secrets): said once.
      warn: (message) => {
        if (run.warned.has(message)) return;
        run.warned.add(message);
        own.warn(message);
      },
      notice: (message) => own.notice(`${name}: ${message}`),
      error: (report: ErrorReport) => own.error({ ...report, device: name }),
      // A bulk run's summary: as the run's own in the machine formats, else a notice naming the device.
      summarize: (report) =>
        settings.machineErrors ? own.summarize(report) : own.notice(`${name}: ${report.message}`),
    }),
  );
  // Questions on the device's streams (its stderr clears the run's progress line first).
  const base = terminalPrompt(io, parent.env, out);
  let confirmation: Promise<boolean> | undefined;
  const prompt: Prompt = {
    ...base,
    get interactive() {
      return base.interactive;
    },
    // Asked once for all the devices already (a write), else one device's question at a time, naming it.
    confirm: async (question) => {
      if (run.confirmed) return true;
      const answer = run.questions.turn.then(() => base.confirm(`${name}: ${question}`));
      run.questions.turn = answer.catch(() => undefined);
      return answer;
    },
    // Once per device however many writes follow, as on one device.
    confirmChange: async (question, details = []) => {
      if (!base.interactive) return;
      confirmation ??= (async () => {
        for (const line of details) out.status(`  ${sanitizeMultiline(line)}\n`);
        return prompt.confirm(question);
      })();
      if (!(await confirmation)) throw declined();
    },
    // apply: the run's one question after every device's plan (see PlanGate); this device's place is
    // given up meanwhile.
    approvedPlan: async (changes, question) => {
      const gate = run.gate;
      if (!base.interactive) return true;
      if (!gate) return (confirmation ??= prompt.confirm(question));
      run.slots.release();
      try {
        return await gate.arrive(index, changes);
      } finally {
        await run.slots.acquire();
      }
    },
  };
  const deps = {
    settings,
    env: parent.env,
    warn: (message: string) => out.warn(message),
    // --verbose: each line starts with the device.
    exchange: (ex: Exchange) => out.exchange(ex, `[${name}] `),
    ask: async (question: string) => (prompt.interactive ? prompt.ask(question) : null),
    dispatcher: run.device.dispatcher,
    connect: run.device.connect,
    profile,
    stores: run.stores,
    writes: parent.record.writes,
  };
  return new Context({
    io,
    env: parent.env,
    settings,
    out,
    prompt,
    device: () => new Device(deps),
    cache: parent.cache,
    record: parent.record,
    several: true,
  });
}

/** Runs `work` on every item, each once it has a place (a slow device holds only its own place). */
async function pool<T, R>(items: T[], slots: Slots, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  return Promise.all(
    items.map(async (item, index) => {
      await slots.acquire();
      try {
        return await work(item, index);
      } finally {
        slots.release();
      }
    }),
  );
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
  /** What it acts on, as typed (`firewall.address web "mgmt nets"`), for its question. */
  what?: string;
  /** 'plan': every device's plan is shown before the one question (apply). */
  asks?: 'plan';
  /** The output formats it prints (its registry entry's). */
  formats?: FormatRule;
}

export async function runSelected(
  ctx: Context,
  command: FleetCommand,
  action: (ctx: Context) => Promise<number>,
): Promise<number> {
  if (ctx.settings.demo) return action(ctx);
  if (command.devices === 'one') {
    throw new UsageError(
      `'cmdb ${command.name}' works on one device, but -d '${ctx.settings.device}' names several`,
      'name one device with -d <name>',
    );
  }
  const profiles = selectedProfiles(ctx.settings, ctx.env);
  if (!profiles) return action(ctx);
  // A write on several devices asks once on a terminal, naming what and where; the devices then ask
  // nothing. apply asks after every device has shown its plan instead.
  const asked = command.writes && !command.yes && ctx.prompt.interactive;
  if (asked && command.asks !== 'plan') {
    const names = profiles.map((p) => p.name).join(', ');
    if (
      !(await ctx.prompt.confirm(
        `${command.name}${command.what ? ` ${command.what}` : ''} on ` +
          `${profiles.length} device${profiles.length === 1 ? '' : 's'} (${names})?`,
      ))
    ) {
      throw declined();
    }
  }
  return runOnDevices(ctx, profiles, action, asked, asked && command.asks === 'plan', command.formats);
}

async function runOnDevices(
  ctx: Context,
  profiles: DeviceProfile[],
  action: (ctx: Context) => Promise<number>,
  confirmed: boolean,
  plansFirst: boolean,
  formats: FormatRule | undefined,
): Promise<number> {
  const slots = new Slots(ctx.settings.parallel);
  const format = ctx.settings.format ?? defaultFormat(!!ctx.io.stdout.isTTY);
  // The devices' output is written by the fleet's own writer: main()'s printer hears of it for Ctrl-C.
  let printed: () => void = () => {};
  const output = new FleetOutput(
    { io: ctx.io, format, raw: ctx.settings.raw, terminal: ctx.out.terminal(), printed: () => printed() },
    profiles.map((p) => p.name),
  );
  const progress = new Progress(ctx.io.stderr, profiles.length);
  /** The question itself failed (Ctrl-C at it): the run ends with that, once no device writes. */
  let unanswered: unknown;
  const gate = plansFirst
    ? new PlanGate(
        profiles.map((p) => p.name),
        async (question, inSync) => {
          // The plans so far on the screen, the progress line away while the terminal asks.
          output.flush();
          progress.pause();
          try {
            if (inSync.length) ctx.out.notice(`in sync, nothing to apply: ${inSync.join(', ')}`);
            return await ctx.prompt.confirm(question);
          } catch (err) {
            unanswered = err;
            return false;
          } finally {
            progress.resume();
          }
        },
      )
    : undefined;
  const warned = new Set<string>();
  const questions = { turn: Promise.resolve() as Promise<unknown> };
  const machineErrors = ctx.settings.machineErrors;
  const parent = ctx.device();
  const stores = await prefetchSecretStores(parent, profiles);
  /** Usage errors are the same on every device (bad input): held, and said once when they are. */
  const usage: ErrorReport[] = [];
  const messages = new Printer({ stdout: ctx.io.stdout, stderr: progress.stream, stdin: ctx.io.stdin }, ctx.env, {
    format: () => format,
    raw: ctx.settings.raw,
    noColor: ctx.settings.noColor,
  });
  const say = (report: ErrorReport) => messages.error(report, machineErrors);
  progress.start();
  const elsewhere = ctx.out.outputElsewhere();
  printed = elsewhere.printed;
  const codes = await pool(profiles, slots, async (profile, index) => {
    const sub = deviceContext(ctx, profile, index, output.sink(index), progress.stream, {
      warned,
      stores,
      confirmed: confirmed && !gate,
      questions,
      gate,
      slots,
      formats,
      device: { dispatcher: parent.deps.dispatcher, connect: parent.deps.connect },
    });
    let failed = false;
    let code: number = EXIT.INTERNAL;
    try {
      return (code = await action(sub));
    } catch (err) {
      failed = true;
      const report = { ...describeError(err), device: profile.name };
      if (report.exit === EXIT.USAGE) usage.push(report);
      else say(report);
      if (ctx.settings.verbose && err instanceof Error) messages.detail(`${err.stack}`);
      return (code = report.exit);
    } finally {
      gate?.leave(index, code);
      await sub.close();
      output.finish(index, failed);
      progress.step();
    }
  });
  progress.end();
  try {
    await output.end();
  } finally {
    elsewhere.done();
  }
  if (unanswered) throw unanswered;
  if (
    usage.length === profiles.length &&
    usage.every((u) => u.message === usage[0].message && u.hint === usage[0].hint)
  ) {
    say({ ...usage[0], device: null });
  } else usage.forEach(say);
  return mostSevere(codes);
}
