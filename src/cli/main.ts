// The program: reads a command line (the fast path, else commander built from the registry), makes
// the run's Context, runs the command on one device or several, and turns any error into its words
// and exit code. Ctrl-C is answered here unless the work under way took it over.
import { createRequire } from 'node:module';
import type { Command, CommanderError } from 'commander';
import { CmdbApiError } from '../api/errors.js';
import { CmdbError, EXIT } from '../errors.js';
import { COMMANDS, PARENTS } from '../commands/registry.js';
import { writesWith, type CommandDef, type Run } from '../commands/define.js';
import { readKeychainEarly } from '../device/early.js';
import { namesSeveral } from '../device/select.js';
import { readArgv } from '../grammar/argv.js';
import { PROGRAM } from '../completion/program.js';
import { dispatch } from './dispatch.js';
import { version } from './quick.js';
import { interruptTakenOver, runContext, type Context, type GlobalOptions, type IO } from '../run/context.js';
import { helpFor } from './help.js';
import { describeError, interruptedReport, partialWords, type TypedLine } from '../run/hints.js';
import { shellWord } from '../request/table.js';
import { Printer, type PartialOutput } from '../output/printer.js';
import { earlySettings, GLOBAL_OPTIONS, processEnv, type GlobalOption } from '../settings.js';

const collect = (value: string, previous: string[] = []) => [...previous, value];

// Loaded on first use, not at import: `cmdb __complete` runs on every Tab and never needs commander.
const commander = () => createRequire(import.meta.url)('commander') as typeof import('commander');

/** The names of a signature's arguments, as commander hands them over (`<new-key>` → newKey). */
function argumentNames(signature: string): string[] {
  return signature
    .split(' ')
    .slice(1)
    .map((word) => word.replace(/^[<[]|\.\.\.|[>\]]$/g, '').replace(/-(\w)/g, (_, c: string) => c.toUpperCase()));
}

/** What the program does with a command line it has read: the entry, its arguments and options, and the Command. */
export type Invoke = (def: CommandDef, args: Record<string, unknown>, options: object, cmd: Command) => Promise<void>;

/** `['device', 'list']` for `cmdb device list`: the names from the program down to a command. */
function commandPath(cmd: Command): string[] {
  const path: string[] = [];
  for (let c: Command | null = cmd; c?.parent; c = c.parent) path.unshift(c.name());
  return path;
}

/**
 * Builds the commander program from the registry and the global options' records (all of them but in
 * tests); each command's module is imported only when it runs.
 */
export function buildProgram(io: IO, run: Invoke, options: readonly GlobalOption[] = GLOBAL_OPTIONS): Command {
  const { Command, Option } = commander();
  const out = plainPrinter(io, {}, false);
  const program = new Command('cmdb')
    .description(
      'Administer the configuration database (CMDB) of a network security device (release 6.4.14) ' +
        'through its REST API.',
    )
    .version(version(), '-V, --version', 'print the version');
  for (const o of options) program.addOption(new Option(o.flags, o.description));
  program
    .showSuggestionAfterError(true)
    // The help text comes from the registry (src/cli/help.ts), the same source as the man page.
    .configureHelp({ formatHelp: (cmd, helper) => helpFor(commandPath(cmd)) ?? helper.formatHelp(cmd, helper) })
    .configureOutput({
      writeOut: (s) => out.text(s),
      writeErr: (s) => out.status(s),
      outputError: () => undefined,
    })
    .exitOverride();

  const parents = new Map<string, Command>();
  const parentOf = (name: string | undefined): Command => {
    if (!name) return program;
    if (!parents.has(name)) parents.set(name, program.command(name).description(PARENTS[name]));
    return parents.get(name)!;
  };
  for (const def of COMMANDS) {
    const command = parentOf(def.parent).command(def.signature).description(def.description);
    for (const o of def.options ?? []) {
      const option = new Option(o.flags, o.description);
      if (o.choices) option.choices(o.choices);
      if (o.default !== undefined) option.default(o.default);
      if (o.repeatable) option.argParser(collect);
      command.addOption(option);
    }
    const names = argumentNames(def.signature);
    command.action(async (...params: unknown[]) => {
      // commander passes the positional arguments, the options, then the Command itself.
      const args = Object.fromEntries(
        names.map((name, i) => [name, params[i]]).filter(([, value]) => value !== undefined),
      );
      await run(def, args, params[names.length] as object, params[names.length + 1] as Command);
    });
  }
  return program;
}

/** A printer for what comes before a Context exists: help, parse errors, the last error. */
function plainPrinter(io: IO, env: NodeJS.ProcessEnv, noColor: boolean): Printer {
  return new Printer(io, env, { format: () => 'table', raw: false, noColor });
}

async function printError(
  out: Printer,
  early: ReturnType<typeof earlySettings>,
  typed: TypedLine,
  err: unknown,
  partial?: PartialOutput,
): Promise<number> {
  const described = describeError(err, typed);
  // A run cut midway (a device lost mid-stream) says what it had printed, as an interruption does.
  const report = partial?.cut ? { ...described, message: `${described.message}, ${partialWords(partial)}` } : described;
  if (!early.machineErrors) await out.prepareColor(false);
  out.error(report, early.machineErrors);
  const known = err instanceof CmdbError || err instanceof CmdbApiError;
  if (early.verbose && err instanceof Error && !known) out.detail(`${err.stack}`);
  if (early.verbose && known && err.cause instanceof Error)
    out.detail(`cause: ${err.cause.stack ?? err.cause.message}`);
  return report.exit;
}

function commanderMessage(err: CommanderError, argv: string[], program: Command): { message: string; hint: string } {
  const [first, ...rest] = err.message.replace(/^error:\s*/, '').split('\n');
  const known = new Set(program.commands.map((c) => c.name()));
  const command = argv.find((a) => known.has(a));
  const help = command ? `see 'cmdb ${command} --help'` : "see 'cmdb --help'";
  const suggestion = /\(Did you mean (.+)\?\)/.exec(rest.join(' '));
  return { message: first, hint: suggestion ? `did you mean ${suggestion[1]}? ${help}` : help };
}

export function processIO(): IO {
  // A reader that stops early (`cmdb list ... | head -1`) closes the pipe: stop quietly, as Unix tools
  // do, instead of an unhandled EPIPE with a stack trace.
  for (const stream of [process.stdout, process.stderr]) {
    stream.on('error', (err: NodeJS.ErrnoException) => {
      if (err.code === 'EPIPE') process.exit(EXIT.OK);
      throw err;
    });
  }
  // stdin is made on first use: setting up the stream (a socket, or for a file fs streams and
  // fs/promises) costs a command that reads nothing from it.
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    get stdin() {
      return process.stdin;
    },
  };
}

/** The table and keys a command line names, as typed (quoted where a shell needs it): what a fleet's question names. */
function typedTargets(def: CommandDef, args: Record<string, unknown>): string | undefined {
  const words = Object.entries(def.args ?? {}).flatMap(([name, kind]) => {
    const value = args[name.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())];
    if (value === undefined || !['table', 'key', 'keys'].includes(kind)) return [];
    // `update <table> [args...]`: only its first word is a key.
    const values = Array.isArray(value) ? (kind === 'keys' ? value : value.slice(0, 1)) : [value];
    return values.map((v) => (kind === 'table' ? String(v) : shellWord(String(v))));
  });
  return words.length ? words.join(' ') : undefined;
}

/** The early settings of a command line (the launcher's: whether --verbose traces map to the sources). */
export function earlySettingsOf(argv: string[], env: NodeJS.ProcessEnv): ReturnType<typeof earlySettings> {
  return earlySettings(readArgv(PROGRAM, argv).globals as GlobalOptions, env);
}

/** Runs one invocation and returns its exit code; never throws, never prints a stack unless --verbose. */
export async function main(
  argv: string[],
  io: IO = processIO(),
  env: NodeJS.ProcessEnv = processEnv(),
): Promise<number> {
  // Tab completion: answered without building the commander program.
  if (argv[0] === '__complete')
    return (await import('../completion/complete.js')).completeCommand(argv.slice(1), io, env);
  let exitCode: number = EXIT.OK;
  let ctx: Context | undefined;
  // The line as the reader understands it, before commander: a plain line runs from it (dispatch), and
  // errors raised before commander has read the line know its -o, --verbose and --no-color.
  const reading = readArgv(PROGRAM, argv);
  const early = earlySettings(reading.globals as GlobalOptions, env);
  // What a hint may repeat of the line: its words, and the device its -d and --host named.
  const { device, host } = reading.globals as GlobalOptions;
  const typed: TypedLine = { words: argv, device, host };
  const out = plainPrinter(io, env, early.noColor);
  /** The command under way may send a write (for what an interruption says). */
  let writing = false;
  const run = async (def: CommandDef, args: Record<string, unknown>, options: object, globals: object) => {
    writing = writesWith(def, options);
    // Device resolution (profiles, keychain, HTTP) is loaded only by commands that reach a device.
    const made = runContext(io, env, globals as GlobalOptions, { formats: def.output });
    ctx = made;
    const several = def.devices && namesSeveral(made.settings.device);
    // One device: its keychain read starts now, while the command loads.
    if (def.devices && !several) readKeychainEarly(made.settings, env, () => made.device().profile);
    await made.out.prepareColor();
    const action = async (c: Context) => ((await def.load()) as Run<object, object>)(c, args, options);
    if (several) {
      const name = [def.parent, def.signature.split(' ')[0]].filter(Boolean).join(' ');
      const opts = options as { dryRun?: boolean; yes?: boolean };
      const command = {
        name,
        devices: def.devices,
        writes: writesWith(def, options),
        yes: !!opts.yes,
        what: typedTargets(def, args),
        asks: def.asks,
        formats: def.output,
      };
      exitCode = await (await import('./fleet.js')).runSelected(made, command, action);
    } else exitCode = await action(made);
  };
  // A plain command line is read from the registry; commander reads the rest (and prints help).
  const direct = dispatch(argv, reading);
  let program: Command | undefined;
  // Ctrl-C (unless the work under way takes it over to clean up): the run stops at once and says
  // what it had done, closing a json array it had begun.
  let stop!: () => void;
  const interrupted = new Promise<'interrupted'>((resolve) => (stop = () => resolve('interrupted')));
  const onSigint = () => {
    if (!interruptTakenOver()) stop();
  };
  process.on('SIGINT', onSigint);
  try {
    const work = (async () => {
      if (direct) await run(direct.def, direct.args, direct.options, direct.globals);
      else {
        program = buildProgram(io, (def, args, options) => run(def, args, options, program!.opts()));
        await program.parseAsync(argv, { from: 'user' });
      }
    })();
    if ((await Promise.race([work, interrupted])) === 'interrupted') {
      // What it was doing is left as it is: the process ends as soon as this line is out.
      work.catch(() => undefined);
      const printer = ctx?.out ?? out;
      const writes = ctx?.record.writes;
      const report = interruptedReport({
        partial: printer.endPartial(),
        files: ctx?.record.files,
        writes: writing || writes?.sent ? writes : undefined,
      });
      printer.error(report, !!ctx?.settings.machineErrors);
      ctx = undefined;
      return report.exit;
    }
  } catch (err) {
    if (program && err instanceof commander().CommanderError) {
      if (err.exitCode === 0) return 0;
      // Help shown because no command was given: the help itself is the message.
      if (err.code === 'commander.help') return EXIT.USAGE;
      const { message, hint } = commanderMessage(err, argv, program);
      const { UsageError } = await import('../errors.js');
      return printError(out, early, typed, new UsageError(message, hint));
    }
    exitCode = await printError(out, early, typed, err, ctx?.out.endPartial());
  } finally {
    process.off('SIGINT', onSigint);
    await ctx?.close();
  }
  return exitCode;
}
