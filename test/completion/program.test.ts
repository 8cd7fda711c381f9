// Drift checks: the program model completion uses against the program, and the scripts the build
// writes under completions/ against what `cmdb completion` prints.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { SHELLS } from '../../src/grammar/types.js';
import { commandModelOf, type CommandModel } from '../../src/completion/model.js';
import { PROGRAM } from '../../src/completion/program.js';
import { completionScript } from '../../src/commands/completion.js';
import { ROOT, cmdb } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

const program = () => buildProgram(captureIO(), async () => undefined);

function* commands(c: CommandModel, path: string[] = []): Generator<{ command: CommandModel; path: string[] }> {
  yield { command: c, path };
  for (const sub of c.commands) yield* commands(sub, [...path, sub.name]);
}

/** The model without what only the registry knows (value kinds, table rules), as commander shows it. */
function shape(c: CommandModel): CommandModel {
  return {
    name: c.name,
    aliases: c.aliases,
    description: c.description,
    args: c.args.map(({ kind: _, ...a }) => a),
    options: c.options.map(({ kind: _, repeatable: __, ...o }) => o),
    commands: c.commands.map(shape),
  };
}

describe('the completion model (generated from the registry)', () => {
  it('is the program commander builds from the same registry', () => {
    assert.deepEqual(shape(PROGRAM), commandModelOf(program()));
  });

  it('says what every option value and argument is (kind in src/commands/registry.ts)', () => {
    const missing: string[] = [];
    for (const { command, path } of commands(PROGRAM)) {
      for (const o of command.options) {
        const long = o.flags.find((f) => f.startsWith('--'))!;
        if (o.value !== 'none' && !o.choices && !o.kind) missing.push(`option ${long} of '${path.join(' ')}'`);
      }
      for (const a of command.args) if (!a.kind) missing.push(`argument <${a.name}> of '${path.join(' ')}'`);
    }
    assert.deepEqual(missing, [], 'give these a kind in the registry');
  });

  it('has table rules only for commands that take a table', () => {
    for (const { command, path } of commands(PROGRAM)) {
      if (command.tables)
        assert.ok(
          command.args.some((a) => a.kind === 'table'),
          path.join(' '),
        );
    }
  });
});

describe('the scripts under completions/', () => {
  for (const shell of SHELLS) {
    it(`completions/cmdb.${shell}, written by the build, is what 'cmdb completion ${shell}' prints`, async () => {
      const run = await cmdb(['completion', shell]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, completionScript(shell));
      assert.equal(readFileSync(join(ROOT, 'completions', `cmdb.${shell}`), 'utf8'), run.stdout);
    });
  }

  it('refuses a shell it has no script for', async () => {
    const run = await cmdb(['completion', 'tcsh']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /tcsh.*\n.*bash, zsh, fish/);
  });
});
