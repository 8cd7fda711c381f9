// The registry's own reading of a command line (src/cli/dispatch.ts) against commander's, which it
// stands in for: wherever it reads a line, commander reads the same command, arguments and options.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { dispatch } from '../../src/cli/dispatch.js';
import { buildProgram } from '../../src/cli/main.js';
import { GLOBAL_OPTIONS } from '../../src/settings.js';
import { COMMANDS } from '../../src/commands/registry.js';
import type { OptionDef } from '../../src/grammar/types.js';
import { captureIO } from '../helpers/io.js';
import { base, words } from '../helpers/lines.js';

interface Reading {
  command: string;
  args: Record<string, unknown>;
  options: object;
  globals: object;
}

/** What commander hands the action for this line, or null when it refuses the line (or shows help). */
async function commanderReading(argv: string[]): Promise<Reading | null> {
  let reading: Reading | null = null;
  const program = buildProgram(captureIO(), async (def, args, options, cmd) => {
    reading = {
      command: `${def.parent ?? ''} ${def.signature}`,
      args,
      options: { ...options },
      globals: cmd.optsWithGlobals(),
    };
  });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch {
    return null;
  }
  return reading;
}

function registryReading(argv: string[]): Reading | null {
  const d = dispatch(argv);
  return (
    d && {
      command: `${d.def.parent ?? ''} ${d.def.signature}`,
      args: d.args,
      options: d.options,
      globals: { ...d.globals, ...d.options },
    }
  );
}

/** Each way of giving an option: long, long=, short, twice; a value from its choices. */
function uses(o: Pick<OptionDef, 'flags' | 'choices'>): string[][] {
  const m = /^(?:-(\w), )?--([\w-]+)( <[^>]+>)?$/.exec(o.flags)!;
  const value = o.choices?.[0] ?? 'v1';
  if (!m[3]) return [[`--${m[2]}`], ...(m[1] ? [[`-${m[1]}`]] : [])];
  return [
    [`--${m[2]}`, value],
    [`--${m[2]}=${value}`],
    [`--${m[2]}`, value, `--${m[2]}`, o.choices?.[1] ?? 'v2'],
    ...(m[1] ? [[`-${m[1]}`, value]] : []),
  ];
}

/** Lines the registry reads itself. */
function plainLines(): string[][] {
  const lines: string[][] = [];
  for (const def of COMMANDS) {
    const line = base(def);
    lines.push(line);
    const optional = def.signature
      .split(' ')
      .slice(1)
      .filter((w) => w.startsWith('['));
    if (optional.length) lines.push([...line, ...optional.map((_, i) => `o${i}`)]);
    for (const o of def.options ?? [])
      for (const use of uses(o))
        lines.push([...line, ...use], [...words(def), ...use, ...line.slice(words(def).length)]);
    for (const o of GLOBAL_OPTIONS) for (const use of uses(o)) lines.push([...use, ...line], [...line, ...use]);
  }
  return lines;
}

/** Lines left to commander: its errors, help, version, and the forms not read here. */
function otherLines(): string[][] {
  const lines: string[][] = [
    [],
    ['--help'],
    ['-h'],
    ['--version'],
    ['-V'],
    ['help', 'list'],
    ['device'],
    ['nosuch'],
    ['-vo', 'json', 'tables'],
    ['tables', '--', 'x'],
  ];
  for (const def of COMMANDS) {
    const line = base(def);
    lines.push(
      [...line, '--bogus'],
      [...line, '-Z'],
      [...line, '--help'],
      [...line, 'extra', 'more', 'args'],
      [...line, '-o'],
      [...line, '--output', '-x'],
    );
    if (line.length > words(def).length) lines.push(words(def));
    for (const o of def.options ?? [])
      if (o.choices) lines.push([...line, o.flags.split(' ')[0]!.replace(/,$/, ''), 'not-a-choice']);
    for (const o of def.options ?? []) if (!/</.test(o.flags)) lines.push([...line, `${o.flags.split(' ').pop()}=x`]);
  }
  return lines;
}

describe('the registry reads a command line as commander does', () => {
  it('reads every command, argument and option in its plain forms, to what commander hands the action', async () => {
    for (const argv of plainLines()) {
      const ours = registryReading(argv);
      assert.ok(ours, `read by the registry: ${argv.join(' ')}`);
      assert.deepEqual(ours, await commanderReading(argv), argv.join(' '));
    }
  });

  it('leaves to commander what it does not read, and never reads a line commander refuses', async () => {
    for (const argv of otherLines()) {
      const ours = registryReading(argv);
      const theirs = await commanderReading(argv);
      if (ours) assert.deepEqual(ours, theirs, argv.join(' '));
      if (!theirs) assert.equal(ours, null, argv.join(' '));
    }
  });
});
