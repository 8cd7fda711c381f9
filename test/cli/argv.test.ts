// One grammar, one reader (src/grammar/argv.ts): the same command lines fed to a normal run's reading
// (commander, building the program from the registry) and to Tab's (the completion engine's reading
// against the grammar generated from the same registry) give the same command, arguments, options and
// global options; the early settings (errors raised before commander has read the line) agree with the
// settings of the run; and a line commander refuses is one the reader has a doubt about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { commandPath } from '../../src/grammar/argv.js';
import { COMMANDS } from '../../src/commands/registry.js';
import { buildProgram } from '../../src/cli/main.js';
import { readLine } from '../../src/completion/engine.js';
import { PROGRAM } from '../../src/completion/program.js';
import { earlySettings, type GlobalOptions, resolveSettings } from '../../src/settings.js';
import { captureIO } from '../helpers/io.js';
import { base, words } from '../helpers/lines.js';

interface Understood {
  command: string;
  args: Record<string, unknown>;
  options: Record<string, unknown>;
  globals: Record<string, unknown>;
}

/** What a normal run understood: what commander hands the action, or null when it refuses the line or prints help. */
async function runReading(argv: string[]): Promise<Understood | null> {
  let understood: Understood | null = null;
  const program = buildProgram(captureIO(), async (def, args, options, cmd) => {
    let root: Command = cmd;
    while (root.parent) root = root.parent;
    understood = {
      command: [def.parent, def.signature.split(' ')[0]].filter(Boolean).join(' '),
      args,
      options: { ...options },
      globals: { ...root.opts() },
    };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return null;
  }
  return understood;
}

/** What Tab understood of the same words. */
function tabReading(argv: string[]): Understood & { doubt?: string } {
  const r = readLine(PROGRAM, argv);
  return {
    command: commandPath(r).join(' '),
    args: r.args,
    options: r.options,
    globals: r.globals,
    ...(r.doubt !== undefined ? { doubt: r.doubt } : {}),
  };
}

/** Global options in the forms people type them, before and after the command. */
const GLOBALS: string[][] = [
  ['-o', 'json'],
  ['--output', 'yaml'],
  ['--output=ndjson'],
  ['-ocsv'],
  ['--no-color'],
  ['-v'],
  ['-vo', 'json'],
  ['-d', 'lab'],
  ['--device=branch-*'],
  ['-vd', 'lab,hq'],
  ['--vdom', 'root,dmz'],
  ['--vdom=*'],
  ['--demo'],
  ['--host', 'https://fw.example:8443'],
  ['--insecure', '--timeout', '5', '--parallel=3'],
  ['--ca-file', 'ca.pem', '--raw', '--force'],
  ['-o', 'json', '-o', 'table'],
];

function lines(): string[][] {
  const out: string[][] = [
    [],
    ['nosuch'],
    ['device'],
    ['-o', 'json'],
    ['--bogus', 'tables'],
    ['-Z', 'tables'],
    ['tables', '--bogus'],
    ['tables', '--', 'x'],
    ['--', 'tables'],
    ['list', '--', 'firewall.address'],
    ['list', 'firewall.address', '--', '-x'],
    ['list', 'firewall.address', '--', '-o', 'json'],
    ['get', 'firewall.address', '--', '-o', 'json'],
    ['list', 'firewall.address', '--filter', '-o', 'json'],
    ['list', 'firewall.address', '-o'],
    ['list', 'firewall.address', '-o', '--bogus'],
    ['list', 'firewall.address', '--all=x'],
    ['list', 'firewall.address', '--page-size', '5', '--all', '-v'],
    ['list', 'firewall.address', '--no-headers', '--filter=name==a', '--filter', 'name==b'],
    ['--page-size', '5', 'list', 'firewall.address'],
    ['list', 'firewall.address', 'extra'],
    ['list'],
    ['update', 'firewall.address', 'a', '--set', 'comment=x', '--set', 'color=3', '--dry-run', '-y'],
    ['delete', 'firewall.address', 'a', 'b', '-yv'],
    ['delete', 'firewall.address', 'a', 'b', '-vy'],
    ['delete', 'firewall.address', '-y', 'a', '--atomic'],
    ['device', 'list', '-o', 'json'],
    ['-d', 'lab', 'device', 'show', 'lab'],
    ['device', 'set', 'lab', 'host=fw', 'vdom=root'],
    ['device', 'nosuch'],
    ['completion', 'bash'],
    ['completion', 'tcsh'],
    ['-o', 'json', 'device', 'use'],
    ['api', '-X', 'GET', 'monitor/system/status'],
    ['api', 'monitor/system/status', '-XGET'],
    ['help', 'list'],
  ];
  for (const def of COMMANDS) {
    const line = base(def);
    out.push(line, [...line, '--bogus'], [...line, 'extra', 'more']);
    for (const g of GLOBALS)
      out.push([...g, ...line], [...line, ...g], [...words(def), ...g, ...line.slice(words(def).length)]);
    for (const o of def.options ?? []) {
      const long = o.flags.split(' ').find((w) => w.startsWith('--'))!;
      const value = /</.test(o.flags) ? [o.choices?.[0] ?? 'v1'] : [];
      out.push([...line, long, ...value], [...line, ...(value.length ? [`${long}=${value[0]}`] : [long])]);
      if (o.repeatable) out.push([...line, long, 'v1', '-o', 'json', long, 'v2']);
      if (o.choices) out.push([...line, long, 'not-a-choice']);
    }
  }
  return out;
}

describe('a run and Tab read a command line alike (one grammar, one reader)', () => {
  it('understand the same command, arguments, options and global options; a line commander refuses is in doubt', async () => {
    let compared = 0;
    for (const argv of lines()) {
      const run = await runReading(argv);
      const tab = tabReading(argv);
      const line = argv.join(' ') || '(empty)';
      if (!run) {
        assert.ok(tab.doubt !== undefined, `commander refuses '${line}': the reader must have a doubt`);
        continue;
      }
      // Read without a doubt or not, the reading is commander's (the fast path runs a line without a doubt).
      compared++;
      const { doubt: _, ...understood } = tab;
      assert.deepEqual(understood, run, line);
      // The early settings (errors before commander has read the line) are the run's.
      const early = earlySettings(tab.globals as GlobalOptions, {});
      try {
        const settings = resolveSettings(run.globals as GlobalOptions, {});
        assert.deepEqual(
          early,
          { machineErrors: settings.machineErrors, verbose: settings.verbose, noColor: settings.noColor },
          line,
        );
      } catch {
        // a value resolveSettings refuses (a bad --timeout): the early settings stand alone
      }
    }
    assert.ok(compared > 1000, `lines compared: ${compared}`);
  });
});
