// The floors of docs/architecture.md, checked on the TypeScript sources (type imports count): every
// import goes down the floors or stays in its folder, or is an arrow the document allows, and no
// modules import each other in a circle. Beside them, rules checked on the compiled tree: where the
// environment is read, who writes to stdout, what commands may import, that the api layer is a library
// without the CLI's words.
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

test('no command imports another command', () => {
  // The command modules are those the registry loads; the registry is the one module that names them all.
  const registry = compiled.find((f) => f.path === 'commands/registry.js')!;
  const commands = new Set(imports(registry.text).map((i) => i.replace(/^\.\//, '')));
  assert.ok(commands.size > 10, 'the commands are found');
  const wrong = compiled
    .filter((f) => f.path.startsWith('commands/') && f !== registry)
    .flatMap((f) =>
      imports(f.text)
        .filter((i) => commands.has(i.replace(/^\.\//, '')) || (i.startsWith('../cli/') && i !== '../run/context.js'))
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
  // The library's front door hands out the api and the catalogue, and nothing of the CLI.
  const index = compiled.find((f) => f.path === 'index.js')!;
  assert.deepEqual(
    imports(index.text).filter((i) => i.startsWith('.') && !/^\.\/(api|catalogue)\//.test(i)),
    [],
  );
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

/**
 * Every relative import of a source (`import`, `import type`, `export ... from`, `import()`), as the
 * path of the source it names.
 */
function sourceImports(path: string, text: string): string[] {
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)'(\.[^']+)'/gm)].map((m) => m[1]);
  return [...new Set(specifiers.map((i) => join(path, '..', i).replace(/\\/g, '/').replace(/\.js$/, '.ts')))];
}
const graph = new Map(sources.map((f) => [f.path, sourceImports(f.path, f.text)]));

/** The fenced block of docs/architecture.md with this info string, line by line. */
function fenced(info: string): string[] {
  const doc = readFileSync(join(ROOT, 'docs/architecture.md'), 'utf8');
  const block = new RegExp(`^\`\`\`${info}\n([\\s\\S]*?)^\`\`\`$`, 'm').exec(doc);
  assert.ok(block, `docs/architecture.md has a \`\`\`${info} block`);
  return block[1].split('\n').filter((line) => line.trim());
}

/** The floors, top first: a folder (`plan/`) or a file (`settings.ts`) each. */
const FLOORS = fenced('floors').map((line) => line.split(/\s+/)[0]);
/** The arrows allowed up or across the floors: `from -> to: why`, each end a module or a floor. */
const ALLOWED = fenced('allowed').map((line) => {
  const [from, to] = line
    .split(':')[0]
    .split('->')
    .map((end) => end.trim());
  return { from, to };
});

/** Whether a module is a floor's, or an allowed arrow's end: a folder (`plan/`) or a file. */
const matches = (end: string, path: string) => (end.endsWith('/') ? path.startsWith(end) : path === end);

/** The floor a module stands on (its index in FLOORS), or -1. */
function floorOf(path: string): number {
  return FLOORS.findIndex((floor) => matches(floor, path));
}

test('every module stands on a floor of docs/architecture.md, and every import names a source', () => {
  assert.ok(FLOORS.length > 10 && FLOORS.includes('run/') && FLOORS.at(-1) === 'grammar/', FLOORS.join(' '));
  assert.deepEqual(
    sources.filter((f) => floorOf(f.path) < 0).map((f) => f.path),
    [],
  );
  const unresolved = [...graph].flatMap(([from, to]) => to.filter((t) => !graph.has(t)).map((t) => `${from} -> ${t}`));
  assert.deepEqual(unresolved, []);
});

test('every import goes down the floors of docs/architecture.md or stays in its folder, unless the document allows it', () => {
  const upward = [...graph].flatMap(([from, to]) =>
    to
      .filter(
        (t) =>
          floorOf(t) < floorOf(from) || (floorOf(t) === floorOf(from) && FLOORS[floorOf(t)] !== FLOORS[floorOf(from)]),
      )
      .filter((t) => !ALLOWED.some((a) => matches(a.from, from) && matches(a.to, t)))
      .map((t) => `${from} (${FLOORS[floorOf(from)]}) -> ${t} (${FLOORS[floorOf(t)]})`),
  );
  assert.deepEqual(upward, []);
  // An allowed arrow that the code no longer has is a stale line of the document.
  const stale = ALLOWED.filter(
    (a) => ![...graph].some(([from, to]) => matches(a.from, from) && to.some((t) => matches(a.to, t))),
  );
  assert.deepEqual(stale, []);
});

/** The circles among the sources' imports (Tarjan's strongly connected components of more than one module). */
function circles(): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const found: string[][] = [];
  const visit = (path: string) => {
    order.set(path, index);
    low.set(path, index++);
    stack.push(path);
    for (const next of graph.get(path) ?? []) {
      if (!graph.has(next)) continue;
      if (!order.has(next)) {
        visit(next);
        low.set(path, Math.min(low.get(path)!, low.get(next)!));
      } else if (stack.includes(next)) low.set(path, Math.min(low.get(path)!, order.get(next)!));
    }
    if (low.get(path) !== order.get(path)) return;
    const circle: string[] = [];
    let top: string;
    do {
      top = stack.pop()!;
      circle.push(top);
    } while (top !== path);
    if (circle.length > 1) found.push(circle.sort());
  };
  for (const path of graph.keys()) if (!order.has(path)) visit(path);
  return found;
}

test('no modules import each other in a circle (type imports and import() included, inside a folder too)', () => {
  assert.deepEqual(
    circles().map((c) => c.join(' ')),
    [],
  );
});

test('the commands folder holds commands: each module at its top is one the registry loads, or the registry', () => {
  const registry = compiled.find((f) => f.path === 'commands/registry.js')!;
  const loaded = new Set(imports(registry.text).map((i) => `commands/${i.replace(/^\.\//, '')}`));
  const top = compiled.filter((f) => /^commands\/[^/]+\.js$/.test(f.path)).map((f) => f.path);
  const others = top.filter((p) => !loaded.has(p) && p !== 'commands/registry.js' && p !== 'commands/define.js');
  assert.deepEqual(others, [], 'what commands share lives in commands/common/');
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
