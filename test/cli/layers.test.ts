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

test('the syntax floor imports only the catalogue, the errors and itself', () => {
  const syntax = compiled.filter((f) => f.path.startsWith('syntax/'));
  assert.ok(syntax.length > 3, 'the syntax modules are found');
  const wrong = syntax.flatMap((f) =>
    imports(f.text)
      .filter((i) => !/^(\.\/|\.\.\/catalogue\/|\.\.\/errors\.js$|node:)/.test(i))
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

// The source tree, for rules that type-only imports must keep too (the compiled tree has none of them).
const SOURCE = join(ROOT, 'src');
function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}
const sources = sourceFiles(SOURCE).map((path) => ({ path: relative(SOURCE, path), text: readFileSync(path, 'utf8') }));

test('nothing below the cli layer imports it, not even a type: only cli/ and the commands do', () => {
  const below = sources.filter((f) => !f.path.startsWith('cli/') && !f.path.startsWith('commands/'));
  assert.ok(below.some((f) => f.path.startsWith('device/')) && below.some((f) => f.path === 'settings.ts'));
  const wrong = below.flatMap((f) =>
    imports(f.text)
      .filter((i) => /(^|\/)cli\//.test(i))
      .map((i) => `${f.path} imports ${i}`),
  );
  assert.deepEqual(wrong, []);
});

test('the commands folder holds commands: each module at its top is one the registry loads, or the registry', () => {
  const registry = compiled.find((f) => f.path === 'commands/registry.js')!;
  const loaded = new Set(imports(registry.text).map((i) => `commands/${i.replace(/^\.\//, '')}`));
  const top = compiled.filter((f) => /^commands\/[^/]+\.js$/.test(f.path)).map((f) => f.path);
  const others = top.filter((p) => !loaded.has(p) && p !== 'commands/registry.js' && p !== 'commands/spec.js');
  assert.deepEqual(others, [], 'what commands share lives in commands/common/');
});

test('no import cycle between modules (the static imports of the compiled tree)', () => {
  const graph = new Map(
    compiled.map((f) => [
      f.path,
      [...f.text.matchAll(/^import [^;]*?from '(\.[^']+)'/gms)].map((m) =>
        join(f.path, '..', m[1]).replace(/\\/g, '/'),
      ),
    ]),
  );
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const visit = (path: string, trail: string[]) => {
    if (state.get(path) === 'done') return;
    if (state.get(path) === 'open') {
      cycles.push([...trail.slice(trail.indexOf(path)), path].join(' -> '));
      return;
    }
    state.set(path, 'open');
    for (const next of graph.get(path) ?? []) visit(next, [...trail, path]);
    state.set(path, 'done');
  };
  for (const path of graph.keys()) visit(path, []);
  assert.deepEqual(cycles, []);
});

test('the Context is one plain class: nothing extends it, nothing hangs state on it from outside', () => {
  const wrong = sources.filter((f) => /\bextends Context\b|WeakMap<\s*Context\b/.test(f.text)).map((f) => f.path);
  assert.deepEqual(wrong, []);
});

/**
 * The files a reader passes through following the Context from a command to its requests: the command,
 * then every module it reaches through imports that takes the Context (`ctx: Context`); the device,
 * request and plan code take plain values, so the walk stops there.
 */
function contextTrail(command: string): string[] {
  const byPath = new Map(sources.map((f) => [f.path, f.text]));
  const trail = new Set<string>();
  const walk = (path: string) => {
    if (trail.has(path)) return;
    trail.add(path);
    for (const i of imports(byPath.get(path)!).filter((i) => i.startsWith('.'))) {
      const next = join(path, '..', i.replace(/\.js$/, '.ts')).replace(/\\/g, '/');
      if (byPath.get(next) && /\b\w+: Context\b|\bclass Context\b/.test(byPath.get(next)!)) walk(next);
    }
  };
  walk(command);
  return [...trail];
}

test("following the Context from list's command to its request touches at most 6 files", () => {
  const trail = contextTrail('commands/list.ts');
  assert.ok(trail.length <= 6, trail.join(', '));
  // And each of the busiest commands stays within reach too.
  for (const command of ['commands/get.ts', 'commands/create.ts', 'commands/apply.ts']) {
    const files = contextTrail(command);
    assert.ok(files.length <= 8, `${command}: ${files.join(', ')}`);
  }
});
