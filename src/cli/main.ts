import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Command, CommanderError } from 'commander';
import { CmdbApiError } from '../api/errors.js';
import { CmdbError, EXIT } from '../errors.js';
import { Context, type GlobalOptions, type IO } from './context.js';
import { describeError } from './hints.js';
import { earlySettings, GLOBAL_OPTIONS, processEnv } from './options.js';

function version(): string {
  const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as { version: string };
  return pkg.version;
}

const collect = (value: string, previous: string[] = []) => [...previous, value];

// Loaded on first use, not at import: `cmdb __complete` runs on every Tab and never needs commander.
const commander = () => createRequire(import.meta.url)('commander') as typeof import('commander');

type Handler = (ctx: Context, ...args: never[]) => Promise<number>;

/** Builds the commander program; each command's module is imported only when it runs. */
export function buildProgram(io: IO, run: (action: (ctx: Context) => Promise<number>, cmd: Command) => Promise<void>): Command {
  const { Command, Option } = commander();
  const program = new Command('cmdb')
    .description('Administer the configuration database (CMDB) of a network security device (release 6.4.14) through its REST API.')
    .version(version(), '-V, --version', 'print the version');
  for (const o of GLOBAL_OPTIONS) program.addOption(new Option(o.flags, o.description));
  program
    .showSuggestionAfterError(true)
    .configureHelp({ sortSubcommands: false, showGlobalOptions: true })
    .configureOutput({
      writeOut: (s) => void io.stdout.write(s),
      writeErr: (s) => void io.stderr.write(s),
      outputError: () => undefined,
    })
    .exitOverride();

  const command = (spec: string, description: string, load: () => Promise<{ run: Handler }>, map: (...args: unknown[]) => unknown[], parent: Command = program) =>
    parent
      .command(spec)
      .description(description)
      .action(async (...args: unknown[]) => {
        // commander passes the positional arguments, the options, then the Command itself.
        const cmd = args[args.length - 1] as Command;
        const params = map(...args);
        await run(async (ctx) => (await load()).run(ctx, ...(params as never[])), cmd);
      });

  const readOptions = (c: Command) =>
    c
      .option('--datasource', 'include datasource information for linked objects')
      .option('--with-meta', 'include meta information (q_ref, q_type...) per object')
      .option('--skip', 'apply the CLI skip operator to hide skipped properties')
      .option('--fields <a,b>', 'only these fields (sent as format=a|b)');

  command('tables', 'print the catalogue of tables (sends nothing)', () => import('../commands/tables.js'), (o) => [o])
    .option('--group <group>', 'only tables of this access group')
    .option('--area <area>', 'only tables of this area (log, firewall, ...)');

  readOptions(command('list <table>', 'list the objects of a table', () => import('../commands/list.js'), (t, o) => [t, o]))
    .option('--filter <expr>', 'field<op>value with == != =@ !@ <= < >= > (repeat: AND; commas: OR)', collect)
    .option('--start <n>', 'first entry index')
    .option('--count <n>', 'maximum number of entries (with --all: in total)')
    .option('--all', 'fetch every page')
    .option('--page-size <n>', 'entries per request with --all (default 1000)')
    .option('--with-contents-hash', "include a checksum of each object's contents")
    .option('--key <name>', 'filter on this property (with --pattern)')
    .option('--pattern <value>', 'value for --key')
    .addOption(new Option('--scope <scope>', 'global, vdom or both').choices(['global', 'vdom', 'both']))
    .option('--exclude-default-values', 'leave out properties that hold their default value');

  readOptions(command('get <table> [key]', 'read one object, or a singleton table', () => import('../commands/get.js'), (t, k, o) => [t, k, o]));

  const bodyOptions = (c: Command) =>
    c
      .option('-f, --file <path>', "body from a JSON or YAML file ('-' for stdin)")
      .option('--data <json>', 'body as JSON')
      .option('--set <field=value>', 'set one field, typed by the table schema (repeatable)', collect);

  bodyOptions(command('create <table> [body]', 'create an object (an array body creates each element)', () => import('../commands/create.js'), (t, b, o) => [t, b, o]))
    .option('--concurrency <n>', 'parallel requests for an array body (default 4)');
  command('clone <table> <key> <new-key>', 'copy an object under a new key', () => import('../commands/clone.js'), (t, k, n) => [t, k, n]);
  bodyOptions(command('update <table> [args...]', 'change fields of an object ([key] [body]), or of a singleton ([body])', () => import('../commands/update.js'), (t, a, o) => [t, a, o]));
  command('move <table> <key>', 'move an object before or after another', () => import('../commands/move.js'), (t, k, o) => [t, k, o])
    .option('--before <key>', 'move in front of this object')
    .option('--after <key>', 'move behind this object');
  command('delete <table> <keys...>', 'delete objects by key', () => import('../commands/delete.js'), (t, k, o) => [t, k, o])
    .option('--concurrency <n>', 'parallel requests for several keys (default 4)');

  const actions: [string, string][] = [
    ['schema <table>', 'print the CLI schema of a table (action=schema)'],
    ['defaults <table>', 'print the default values of a table (action=default)'],
    ['meta <table>', 'print the meta data of a table (action=meta)'],
    ['revision <table> [key]', 'print the CMDB revision of a table (action=revision)'],
    ['transactions <table> [key]', 'list configuration transactions (action=transaction-list)'],
  ];
  for (const [spec, description] of actions) {
    const name = spec.split(' ')[0];
    command(spec, description, () => import('../commands/action.js') as Promise<{ run: Handler }>, (t, k) => [name, t, typeof k === 'string' ? k : undefined]);
  }

  command('completion <shell>', 'print the completion script for bash, zsh or fish', () => import('../commands/completion.js'), (shell) => [shell]);

  command('login', 'check a credential against a device and save it (keychain) with a device profile', () => import('../commands/login.js'), (o) => [o])
    .option('--token-stdin', 'read an API token from stdin')
    .option('--username <name>', 'log in as this administrator (password prompted, or --password-stdin)')
    .option('--password-stdin', 'read the password from stdin')
    .option('--token-code <code>', 'second-factor code, when the device asks for one')
    .option('--accept-disclaimer', "accept the device's login banner")
    .option('--fingerprint <sha256>', "pin the device's certificate (SHA-256, colons optional)")
    .option('--insecure-storage', 'without a keychain: keep the secret in credentials.yaml (plain text, mode 0600)')
    .option('--prefix <path>', 'API prefix of the device (default /api/v2/cmdb)');
  command('logout', 'end the device session and delete the saved session', () => import('../commands/logout.js'), (o) => [o])
    .option('--forget', 'also delete the saved credential (API token or password)');
  const authGroup = program.command('auth').description('credentials of the device');
  command('status', 'device, host, auth kind, where the secret is stored, whether it works', () => import('../commands/auth.js'), () => [], authGroup);
  const demoGroup = program.command('demo').description('the built-in emulated device used by --demo');
  command('reset', 'forget the changes made with --demo', () => import('../commands/demo.js'), () => [], demoGroup);
  const deviceGroup = program.command('device').description('saved device profiles');
  command('list', 'list the saved devices', () => import('../commands/device.js'), () => ['list'], deviceGroup);
  command('show [name]', 'show the settings of a device (default: the one in use)', () => import('../commands/device.js'), (n) => ['show', n], deviceGroup);
  command('use <name>', 'make a device the default', () => import('../commands/device.js'), (n) => ['use', n], deviceGroup);
  command('remove <name>', 'delete a device, its saved credential and session', () => import('../commands/device.js'), (n) => ['remove', n], deviceGroup);

  command('emulator', 'run the local emulated device in the foreground (--host sets where it listens)', () => import('../commands/emulator.js'), (o, cmd) => [
    { ...(o as object), host: ((cmd as Command).optsWithGlobals() as GlobalOptions).host ?? '127.0.0.1' },
  ])
    .option('--port <n>', 'port (0 picks a free one)')
    .option('--tls', 'serve HTTPS with a self-signed certificate generated at start')
    .option('--state <file>', 'persist the state in this file across restarts')
    .addOption(new Option('--seed <seed>', 'initial data when there is no state').choices(['demo', 'empty']).default('demo'))
    .option('--vdoms <list>', 'VDOM names, the management VDOM first', 'root,dmz')
    .option('--config <file>', 'administrators, API tokens with access profiles, and limits (YAML or JSON)');
  return program;
}

async function printError(io: IO, env: NodeJS.ProcessEnv, argv: string[], err: unknown): Promise<number> {
  const report = describeError(err);
  const early = earlySettings(argv, env);
  const { formatError, decideColor } = await import('../output/index.js');
  io.stderr.write(formatError(report, { json: early.machineErrors, color: decideColor(io.stderr, env, early.noColor) }));
  const known = err instanceof CmdbError || err instanceof CmdbApiError;
  if (early.verbose && err instanceof Error && !known) io.stderr.write(`${err.stack}\n`);
  if (early.verbose && known && err.cause instanceof Error) io.stderr.write(`cause: ${err.cause.stack ?? err.cause.message}\n`);
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
  return { stdout: process.stdout, stderr: process.stderr, stdin: process.stdin };
}

/** Runs one invocation and returns its exit code; never throws, never prints a stack unless --verbose. */
export async function main(argv: string[], io: IO = processIO(), env: NodeJS.ProcessEnv = processEnv()): Promise<number> {
  // Tab completion: answered without building the commander program.
  if (argv[0] === '__complete') return (await import('../completion/complete.js')).completeCommand(argv.slice(1), io, env);
  let exitCode: number = EXIT.OK;
  let ctx: Context | undefined;
  const program = buildProgram(io, async (action, cmd) => {
    // Device resolution (profiles, keychain, HTTP) is loaded only by commands that reach a device.
    ctx = new Context(io, env, cmd.optsWithGlobals() as GlobalOptions);
    ctx.validateGlobals();
    exitCode = await action(ctx);
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (err) {
    if (err instanceof commander().CommanderError) {
      if (err.exitCode === 0) return 0;
      // Help shown because no command was given: the help itself is the message.
      if (err.code === 'commander.help') return EXIT.USAGE;
      const { message, hint } = commanderMessage(err, argv, program);
      const { UsageError } = await import('../errors.js');
      return printError(io, env, argv, new UsageError(message, hint));
    }
    exitCode = await printError(io, env, argv, err);
  } finally {
    await ctx?.close();
  }
  return exitCode;
}
