// A global option is one record (src/settings.ts): what commander hands over (GlobalOptions), the run's
// value (Settings), the grammar a line is read against, the commander program, the help, the man page
// and the reference are derived from the records. An example flag added to them shows in each, the
// types included, and is in none without its record (docs/dev/architecture.md, "Adding a global option").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildProgram } from '../../src/cli/main.js';
import { mainHelp, manPage, referencePage } from '../../src/cli/help.js';
import { completionModel } from '../../src/completion/model.js';
import { readArgv } from '../../src/grammar/argv.js';
import type { OptionsOf } from '../../src/grammar/types.js';
import {
  GLOBAL_OPTIONS,
  resolveSettings,
  type GlobalOption,
  type GlobalOptions,
  type SettingsOf,
} from '../../src/settings.js';
import { captureIO } from '../helpers/io.js';

/** The example: a flag with a variable, a parser and a default. */
const RETRIES = {
  name: 'retries',
  flags: '--retries <n>',
  env: 'CMDB_RETRIES',
  kind: 'none',
  description: 'times a refused request is sent again (env CMDB_RETRIES)',
  parse: (text: string) => Number(text),
  default: 0,
} as const satisfies GlobalOption;

const WITH = [...GLOBAL_OPTIONS, RETRIES];

// The types come from the record too: commander's options object has its flag's text, the settings its
// parser's value (a mistyped use does not compile).
const given: OptionsOf<readonly [typeof RETRIES]> = { retries: '3' };
const parsed: SettingsOf<readonly [typeof RETRIES]>['retries'] = 3;
// @ts-expect-error: the setting is the parser's number, not the flag's text
const mistyped: SettingsOf<readonly [typeof RETRIES]>['retries'] = '3';

test('Settings: the flag, else its variable, through its parser, else its default; without the record, nothing', () => {
  const settings = (flags: object, env: NodeJS.ProcessEnv) =>
    resolveSettings(flags as GlobalOptions, env, WITH) as unknown as Record<string, unknown>;
  assert.equal(settings(given, { CMDB_RETRIES: '5' }).retries, parsed);
  assert.equal(settings({}, { CMDB_RETRIES: '5' }).retries, 5);
  assert.equal(settings({}, {}).retries, 0);
  assert.ok(!('retries' in resolveSettings({}, { CMDB_RETRIES: '5' })));
  assert.equal(mistyped, '3');
});

test('the grammar and commander read the flag wherever a global option stands; without the record, neither knows it', async () => {
  const grammar = completionModel(WITH);
  assert.ok(grammar.options.some((o) => o.flags.includes('--retries') && o.value === 'required'));
  for (const line of [
    ['--retries', '2', 'tables'],
    ['tables', '--retries=2'],
  ]) {
    const reading = readArgv(grammar, line);
    assert.equal(reading.doubt, undefined, line.join(' '));
    assert.equal(reading.globals.retries, '2');
    let read: Record<string, unknown> | undefined;
    const program = buildProgram(captureIO(), async () => void (read = program.opts()), WITH);
    await program.parseAsync(line, { from: 'user' });
    assert.equal(read?.retries, '2', line.join(' '));
  }
  assert.match(readArgv(completionModel(), ['tables', '--retries', '2']).doubt ?? '', /unknown option --retries/);
  const without = buildProgram(captureIO(), async () => undefined);
  without.exitOverride();
  await assert.rejects(without.parseAsync(['tables', '--retries', '2'], { from: 'user' }), /unknown option/);
});

test('the help, the man page and the reference list the flag and its variable; without the record, they do not', () => {
  for (const [name, page] of [
    ['--help', (o?: readonly GlobalOption[]) => mainHelp(o)],
    ['man page', (o?: readonly GlobalOption[]) => manPage('0.0.0', o)],
    ['reference', (o?: readonly GlobalOption[]) => referencePage(o)],
  ] as const) {
    // The man page escapes its dashes: what a reader sees has none.
    const text = page(WITH).replaceAll('\\-', '-');
    assert.ok(text.includes('--retries <n>') && text.includes('times a refused request is sent again'), name);
    assert.match(text, /CMDB_RETRIES/, name);
    assert.doesNotMatch(page().replaceAll('\\-', '-'), /--retries|CMDB_RETRIES/, name);
  }
});
