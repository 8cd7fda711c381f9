// Drift checks: the program model completion uses, and the checked-in scripts, against their sources.
// CMDB_UPDATE_COMPLETION=1 rewrites src/completion/program.ts and completions/* instead of failing.
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { buildProgram } from '../../src/cli/main.js';
import { ARGUMENT_KINDS, OPTION_KINDS, SHELLS, TABLE_RULES } from '../../src/completion/kinds.js';
import { describeCommand, programSource, type CommandModel } from '../../src/completion/model.js';
import { PROGRAM } from '../../src/completion/program.js';
import { completionScript } from '../../src/completion/scripts.js';
import { ROOT, cmdb } from '../helpers/cli.js';
import { captureIO } from '../helpers/io.js';

const UPDATE = !!process.env.CMDB_UPDATE_COMPLETION;
const program = () => buildProgram(captureIO(), async () => undefined);

function* commands(c: CommandModel, path: string[] = []): Generator<{ command: CommandModel; path: string[] }> {
  yield { command: c, path };
  for (const sub of c.commands) yield* commands(sub, [...path, sub.name]);
}

describe('the program model (src/completion/program.ts)', () => {
  it('is what buildProgram() defines', () => {
    const file = join(ROOT, 'src/completion/program.ts');
    if (UPDATE) writeFileSync(file, programSource(program()));
    assert.deepEqual(
      PROGRAM,
      describeCommand(program()),
      'commands or options changed: run `npx tsc -p tsconfig.json && CMDB_UPDATE_COMPLETION=1 node --test dist/test/completion/`, rebuild, and review what completion should offer (src/completion/kinds.ts)',
    );
  });

  it('says what every option value and argument is (src/completion/kinds.ts)', () => {
    const missing: string[] = [];
    for (const { command, path } of commands(describeCommand(program()))) {
      for (const o of command.options) {
        const long = o.flags.find((f) => f.startsWith('--'))!;
        if (o.value !== 'none' && !o.choices && !(long in OPTION_KINDS)) missing.push(`option ${long}`);
      }
      for (const a of command.args) {
        if (!(`${path.join(' ')} ${a.name}` in ARGUMENT_KINDS) && !(a.name in ARGUMENT_KINDS)) missing.push(`argument <${a.name}> of '${path.join(' ')}'`);
      }
    }
    assert.deepEqual(missing, [], 'add these to OPTION_KINDS or ARGUMENT_KINDS');
  });

  it('has table rules only for commands that exist', () => {
    const names = PROGRAM.commands.map((c) => c.name);
    for (const command of Object.keys(TABLE_RULES)) assert.ok(names.includes(command), command);
  });
});

describe('the scripts under completions/', () => {
  for (const shell of SHELLS) {
    it(`completions/cmdb.${shell} is what 'cmdb completion ${shell}' prints`, async () => {
      const file = join(ROOT, 'completions', `cmdb.${shell}`);
      if (UPDATE) writeFileSync(file, completionScript(shell));
      const run = await cmdb(['completion', shell]);
      assert.equal(run.code, 0, run.stderr);
      assert.equal(run.stdout, completionScript(shell));
      assert.equal(readFileSync(file, 'utf8'), run.stdout, `regenerate it: cmdb completion ${shell} > completions/cmdb.${shell}`);
    });
  }

  it('refuses a shell it has no script for', async () => {
    const run = await cmdb(['completion', 'tcsh']);
    assert.equal(run.code, 2);
    assert.equal(run.stdout, '');
    assert.match(run.stderr, /tcsh.*\n.*bash, zsh, fish/);
  });
});
