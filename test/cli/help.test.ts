// Help that teaches: `cmdb --help` and every command's --help through the built CLI, and the man page
// the build writes from the same source.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { COMMANDS } from '../../src/commands/registry.js';
import { commandName } from '../../src/cli/help.js';
import { GLOBAL_OPTIONS, VARIABLES } from '../../src/settings.js';
import { EXIT_CODES } from '../../src/errors.js';
import { cmdb, ROOT } from '../helpers/cli.js';

const CMDB_VARIABLES = [
  ...GLOBAL_OPTIONS.flatMap((o) => (o.env ? [o.env] : [])),
  ...Object.values(VARIABLES).filter((v) => v.startsWith('CMDB_')),
];

/** The lines of a section (`Title:` up to the next blank line). */
function sectionOf(text: string, title: string): string[] {
  const lines = text.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`${title}:`) || l.startsWith(`${title} (`));
  assert.ok(start >= 0, `no section ${title}:\n${text}`);
  const end = lines.findIndex((l, i) => i > start && l === '');
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

test('cmdb --help: the commands by group, global options once, examples, environment, exit codes, where to read more', async () => {
  const r = await cmdb(['--help']);
  assert.equal(r.code, 0, r.stderr);
  const help = r.stdout;
  const titles = help
    .split('\n')
    .filter((l) => /^[A-Z][^:]*:/.test(l) && !l.startsWith('Usage:'))
    .map((l) => l.replace(/[ :(].*$/, ''));
  assert.deepEqual(titles, [
    'Objects',
    'Metadata',
    'Configuration',
    'Devices',
    'Tools',
    'Global',
    'Examples',
    'Environment',
    'Exit',
    'More',
  ]);
  const listed = ['Objects', 'Metadata', 'Configuration as code', 'Devices and login', 'Tools']
    .flatMap((t) => sectionOf(help, t))
    .join('\n');
  for (const def of COMMANDS) assert.match(listed, new RegExp(`^  ${commandName(def)}\\b`, 'm'), commandName(def));
  for (const o of GLOBAL_OPTIONS) assert.equal(help.split(`  ${o.flags}  `).length - 1, 1, `${o.flags} shown once`);
  const environment = sectionOf(help, 'Environment').join('\n');
  for (const name of CMDB_VARIABLES) assert.match(environment, new RegExp(`^  ${name}\\b`, 'm'), name);
  const exits = sectionOf(help, 'Exit codes').join('\n');
  for (const [code, meaning] of EXIT_CODES)
    assert.match(exits, new RegExp(`^  ${code} +${meaning.split(' ')[0]}`, 'm'));
  assert.ok(sectionOf(help, 'Examples').length >= 3);
  assert.match(sectionOf(help, 'More').join(' '), /man cmdb/);
  assert.match(help, /CMDB_TOKEN +API token/);
});

test('every command has two to four real examples, each a cmdb command line', () => {
  for (const def of COMMANDS) {
    const examples = def.examples ?? [];
    assert.ok(examples.length >= 2 && examples.length <= 4, `${commandName(def)}: ${examples.length} examples`);
    // Global options may stand before the command: `cmdb -d fw1 export ...`.
    for (const e of examples)
      assert.match(e, new RegExp(`\\bcmdb (-\\S+ (?!${commandName(def)})\\S+ |--?\\S+ )*${commandName(def)}\\b`), e);
  }
});

test("a command's --help: its arguments as they are, its own options, examples, global options only by reference", async () => {
  const update = await cmdb(['update', '--help']);
  assert.equal(update.code, 0, update.stderr);
  assert.equal(update.stdout.split('\n')[0], 'Usage: cmdb update <table> [key] [body] [options]');
  assert.deepEqual(
    sectionOf(update.stdout, 'Examples').map((l) => l.trim().split(' ').slice(0, 2).join(' ')),
    ['cmdb update', 'cmdb update', 'cmdb update'],
  );
  assert.match(update.stdout, /^ {2}--set <field=value> /m);
  assert.doesNotMatch(update.stdout, /--vdom <list>|--ca-file <pem>/, 'global options repeated');
  assert.match(update.stdout, /see 'cmdb --help'/);

  const move = await cmdb(['move', '--help']);
  assert.equal(
    move.stdout.split('\n')[0],
    'Usage: cmdb move <table> <key> (--before <key> | --after <key> | --top | --bottom) [options]',
  );
  assert.match(move.stdout, /exactly one of --before, --after, --top or --bottom/);

  const login = await cmdb(['login', '--help']);
  assert.equal(
    login.stdout.split('\n')[0],
    'Usage: cmdb login --host <url> (--token-stdin | --username <name>) [options]',
  );
  assert.match(login.stdout.replace(/\n/g, ' '), /Needs --host .* and one of --token-stdin .* or --username/);

  const remove = await cmdb(['device', 'remove', '--help']);
  assert.equal(remove.stdout.split('\n')[0], 'Usage: cmdb device remove <name> [options]');
  const group = await cmdb(['device', '--help']);
  assert.match(group.stdout, /^ {2}device list +list the saved devices$/m);
});

test('every command answers --help with its usage and examples', async () => {
  for (const def of COMMANDS) {
    const r = await cmdb([...commandName(def).split(' '), '--help']);
    assert.equal(r.code, 0, `${commandName(def)}: ${r.stderr}`);
    assert.match(r.stdout.split('\n')[0]!, new RegExp(`^Usage: cmdb ${commandName(def)}\\b`));
    assert.ok(sectionOf(r.stdout, 'Examples').length >= 2, commandName(def));
  }
});

const MAN = join(ROOT, 'man/cmdb.1');

test('the build writes the man page: roff, every command, the environment and the exit codes', () => {
  assert.ok(existsSync(MAN), 'man/cmdb.1 is missing: npm run build writes it');
  const page = readFileSync(MAN, 'utf8');
  assert.match(page, /^\.TH CMDB 1 /);
  for (const s of [
    'NAME',
    'SYNOPSIS',
    'DESCRIPTION',
    'COMMANDS',
    'GLOBAL OPTIONS',
    'EXAMPLES',
    'ENVIRONMENT',
    'EXIT STATUS',
    'FILES',
    'SEE ALSO',
  ])
    assert.match(page, new RegExp(`^\\.SH ${s}$`, 'm'), s);
  for (const def of COMMANDS)
    assert.match(page, new RegExp(`^\\.B cmdb ${commandName(def).replace(/-/g, '\\\\-')}\\b`, 'm'), commandName(def));
  for (const name of CMDB_VARIABLES) assert.match(page, new RegExp(`^\\.B ${name.replace(/_/g, '_')}`, 'm'), name);
  for (const [code] of EXIT_CODES) assert.match(page, new RegExp(`^\\.B ${code}$`, 'm'));
  assert.ok(
    !page.split('\n').some((l) => /^[.'](?!TH|SH|SS|TP|B |B$|I |RS|RE|PP|nf|fi|br)/.test(l)),
    'a text line starting with a control character',
  );
});

test('man renders the page without warnings, and package.json installs it', () => {
  const groff = spawnSync('groff', ['-man', '-ww', '-z', MAN], { encoding: 'utf8' });
  if (groff.error && process.env.CI !== 'true') return;
  assert.equal(groff.status, 0, groff.stderr);
  assert.equal(groff.stderr, '');
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { man: string[]; files: string[] };
  assert.deepEqual(pkg.man, ['./man/cmdb.1']);
  assert.ok(pkg.files.includes('man'));
  const pack = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' });
  assert.equal(pack.status, 0, pack.stderr);
  const files = (JSON.parse(pack.stdout) as { files: { path: string }[] }[])[0]!.files.map((f) => f.path);
  assert.ok(files.includes('man/cmdb.1'), 'npm pack leaves out man/cmdb.1');
});
