// --version and --help without commander (src/cli/quick.ts, help rendered at build time): the same
// bytes commander prints, at every width where the rendered text is used.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Command } from 'commander';
import { buildProgram } from '../../src/cli/main.js';
import { quickAnswer } from '../../src/cli/quick.js';
import { cmdb } from '../helpers/cli.js';

/** What commander prints for `cmdb <path> --help` when it wraps to `width` (undefined: not a terminal). */
function commanderHelp(path: string[], width: number | undefined): string {
  let out = '';
  const program = buildProgram(
    { stdout: { write: (s: string) => ((out += s), true) }, stderr: { write: () => true }, stdin: process.stdin },
    async () => undefined,
  );
  const all = (c: Command): Command[] => [c, ...c.commands.flatMap(all)];
  for (const c of all(program)) c.configureOutput({ getOutHelpWidth: () => width as number });
  try {
    program.parse([...path, '--help'], { from: 'user' });
  } catch {
    // --help ends with an exception under exitOverride
  }
  return out;
}

const program = buildProgram(
  { stdout: { write: () => true }, stderr: { write: () => true }, stdin: process.stdin },
  async () => undefined,
);
const paths = (c: Command, prefix: string[]): string[][] => [
  prefix,
  ...c.commands.flatMap((sub) => paths(sub, [...prefix, sub.name()])),
];

describe('--help and --version without commander', () => {
  it('prints the version of package.json', () => {
    assert.match(quickAnswer(['--version'], undefined) ?? '', /^\d+\.\d+\.\d+\n$/);
    assert.equal(quickAnswer(['-V'], 100), quickAnswer(['--version'], undefined));
    assert.equal(quickAnswer(['--version', 'x'], undefined), null);
  });

  it('prints the help of the program and of every command as commander does, piped or on any terminal where it is used', () => {
    for (const path of paths(program, [])) {
      const expected80 = commanderHelp(path, undefined);
      assert.ok(expected80.startsWith('Usage: cmdb'), path.join(' '));
      for (const flag of ['--help', '-h'])
        assert.equal(quickAnswer([...path, flag], undefined), expected80, path.join(' '));
      assert.equal(quickAnswer([...path, '--help'], 80), commanderHelp(path, 80));
      let served = 0;
      for (let width = 40; width <= 260; width++) {
        const quick = quickAnswer([...path, '--help'], width);
        if (quick === null) continue;
        served++;
        assert.equal(quick, commanderHelp(path, width), `${path.join(' ')} at ${width} columns`);
      }
      assert.ok(served > 100, `served on wide terminals: ${path.join(' ')}`);
    }
  });

  it('leaves anything else to main()', () => {
    for (const argv of [
      [],
      ['list'],
      ['--help', 'list'],
      ['list', '-o', 'json', '--help'],
      ['nosuch', '--help'],
      ['-V', '--help'],
    ])
      assert.equal(quickAnswer(argv, undefined), null, argv.join(' '));
  });

  it('is what the built CLI prints, with exit 0', async () => {
    const help = await cmdb(['list', '--help']);
    assert.equal(help.code, 0);
    assert.equal(help.stdout, commanderHelp(['list'], undefined));
    const version = await cmdb(['--version']);
    assert.equal(version.code, 0);
    assert.equal(version.stdout, quickAnswer(['--version'], undefined));
  });
});
