// The layering rules of ARCHITECTURE.md, checked on the compiled tree: where settings are read, what
// commands may import, and that the api layer is a library without the CLI's words.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const SRC = join(ROOT, 'dist/src');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.js') ? [join(dir, e.name)] : [],
  );
}

const compiled = files(SRC).map((path) => ({ path: relative(SRC, path), text: readFileSync(path, 'utf8') }));
const imports = (text: string) => [...text.matchAll(/(?:from |import\()\s*'([^']+)'/g)].map((m) => m[1]);

test('only the options table reads process.env or a CMDB_* variable', () => {
  const readers = compiled
    .filter((f) => /process\.env|\.CMDB_[A-Z_]|\[['"]CMDB_[A-Z_]/.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(readers, ['settings.js']);
});

test('no command imports another command, or the cli layer beyond its Context', () => {
  // The command modules are those the registry loads; the registry is the one module that names them all.
  const registry = compiled.find((f) => f.path === 'commands/registry.js')!;
  const commands = new Set(imports(registry.text).map((i) => i.replace(/^\.\//, '')));
  assert.ok(commands.size > 10, 'the commands are found');
  const wrong = compiled
    .filter((f) => f.path.startsWith('commands/') && f !== registry)
    .flatMap((f) =>
      imports(f.text)
        .filter((i) => commands.has(i.replace(/^\.\//, '')) || (i.startsWith('../cli/') && i !== '../cli/context.js'))
        .map((i) => `${f.path} imports ${i}`),
    );
  assert.deepEqual(wrong, []);
});

test('the api layer imports nothing outside itself and gives no CLI advice', () => {
  const api = compiled.filter((f) => f.path.startsWith('api/'));
  const outside = api.flatMap((f) =>
    imports(f.text)
      .filter((i) => i.startsWith('../'))
      .map((i) => `${f.path} imports ${i}`),
  );
  assert.deepEqual(outside, []);
  const advice = api
    .filter((f) =>
      /'cmdb [a-z]|--[a-z][a-z-]+ |\bCMDB_[A-Z]+\b(?!_MISMATCH)/.test(f.text.replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')),
    )
    .map((f) => f.path);
  assert.deepEqual(advice, []);
});

test('the output layer is the only writer of stdout and stderr', () => {
  // The keychain helper is a process of its own, answering its parent on its stdout; cli/quick.js
  // answers --version and --help from pre-rendered text before any other module is loaded.
  const exempt = new Set(['config/keychain-helper.js', 'cli/quick.js']);
  const writers = compiled
    .filter((f) => !f.path.startsWith('output/') && !exempt.has(f.path) && /(stdout|stderr)\.write\(/.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(writers, []);
});

test('no command decides how its output looks: none reads the output format or --raw', () => {
  // Commands hand the printer what happened (src/output/types.ts); the format, --raw and what each
  // format shows are the output layer's. `query.format` (the --fields of a request) is not the format.
  const commands = compiled.filter((f) => f.path.startsWith('commands/'));
  assert.ok(commands.length > 10, 'the commands are found');
  const deciding = commands
    .filter((f) => /\bctx\.(format|explicitFormat|machineErrors)\b|\b(options|settings)\.raw\b/.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(deciding, []);
});

test('the write-outcome module and the plan library take plain values: they import neither the cli layer nor a command', () => {
  const library = compiled.filter((f) => f.path.startsWith('outcome/') || f.path.startsWith('plan/'));
  assert.ok(
    library.some((f) => f.path.startsWith('outcome/')),
    'the write-outcome module is found',
  );
  const wrong = library.flatMap((f) =>
    imports(f.text)
      .filter((i) => /^\.\.\/(cli|commands)\//.test(i))
      .map((i) => `${f.path} imports ${i}`),
  );
  assert.deepEqual(wrong, []);
});

test('one module judges a write whose answer was lost', () => {
  // Every read back of a lost write goes through src/outcome: no other module tells lost answers apart.
  const judges = compiled
    .filter((f) => !f.path.startsWith('outcome/') && !f.path.startsWith('api/') && /\boutcomeUnknown\b/.test(f.text))
    .map((f) => f.path);
  assert.deepEqual(judges, []);
});
