import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from '../helpers/temp.js';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/cmdb.js');
const register = fileURLToPath(new URL('./trace-register.js', import.meta.url));
const HEAVY = ['undici', 'yaml', '@napi-rs/keyring'];

/** The environment without the variables that turn colour on or off, so a pipe decides. */
function withoutColorVariables(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { FORCE_COLOR: _force, NO_COLOR: _no, ...rest } = env;
  return rest;
}

/** Runs the CLI and returns the modules it resolved. */
function loaded(
  args: string[],
  configFiles: Record<string, string> = {},
  extraEnv: NodeJS.ProcessEnv = {},
): { modules: string[]; status: number | null } {
  const dir = tempDir('cmdb-trace-');
  const trace = join(dir, 'modules.txt');
  for (const [name, text] of Object.entries(configFiles)) writeFileSync(join(dir, name), text);
  const run = spawnSync(process.execPath, ['--import', register, bin, ...args], {
    env: {
      ...withoutColorVariables(process.env),
      CMDB_TRACE_FILE: trace,
      CMDB_CONFIG_DIR: dir,
      CMDB_TOKEN: 'unused',
      ...extraEnv,
    },
    encoding: 'utf8',
  });
  let modules: string[] = [];
  try {
    modules = readFileSync(trace, 'utf8').split('\n').filter(Boolean);
  } catch {
    /* nothing resolved */
  }
  return { modules, status: run.status };
}

const heavyIn = (modules: string[]) =>
  HEAVY.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));

test('the trace sees modules at all, ESM and CommonJS (so the assertions below can fail)', () => {
  const { modules } = loaded(['list', 'log.disk/setting', '--host', 'http://127.0.0.1:9', '--timeout', '1']);
  assert.ok(
    modules.some((m) => m.includes('/node_modules/undici/')),
    'undici (loaded with createRequire) not traced',
  );
  assert.ok(heavyIn(modules).includes('undici'), 'a network command should load undici');
  // Only the parts of undici the client uses: its package entry (fetch, WebSocket, caches, mocks) costs ~50 ms.
  assert.ok(!modules.some((m) => m.endsWith('/node_modules/undici/index.js')), 'undici/index.js loaded');
  // Nor its HTTP/2 client, which no CLI request uses, nor the request API's other verbs.
  assert.ok(modules.includes('node:http'), 'builtins are traced');
  assert.ok(!modules.includes('node:http2'), 'node:http2 loaded');
  assert.ok(
    !modules.some((m) => /undici\/lib\/api\/api-(stream|pipeline|upgrade|connect)\.js$/.test(m)),
    'unused request verbs loaded',
  );
  // A profile file as cmdb writes it is read without yaml; anything unusual goes through the yaml package.
  const plain = loaded(['device', 'list', '-o', 'json'], {
    'config.yaml': 'default: fw1\ndevices:\n  fw1:\n    host: https://fw1.example\n    auth: token\n',
  });
  assert.equal(plain.status, 0);
  assert.deepEqual(heavyIn(plain.modules), [], 'a plain config.yaml loaded yaml');
  const unusual = loaded(['device', 'list', '-o', 'json'], {
    'config.yaml': 'default: fw1\ndevices: {fw1: {host: https://fw1.example, auth: token}}\n',
  });
  assert.equal(unusual.status, 0);
  assert.ok(heavyIn(unusual.modules).includes('yaml'), 'reading an unusual profile file should load yaml');
});

for (const args of [['--version'], ['--help'], ['tables'], ['tables', '-o', 'json'], ['list', '--help']]) {
  test(`cmdb ${args.join(' ')} loads no heavy module`, () => {
    const { modules, status } = loaded(args);
    assert.equal(status, 0);
    assert.deepEqual(heavyIn(modules), []);
  });
}

for (const args of [
  ['--version'],
  ['--help'],
  ['list', '--help'],
  ['tables', '-o', 'json'],
  ['tables', '--area', 'log', '--output=csv'],
]) {
  test(`cmdb ${args.join(' ')} does not load commander (help rendered at build time, the line read from the registry)`, () => {
    const { modules, status } = loaded(args);
    assert.equal(status, 0);
    assert.ok(
      modules.some((m) => m.includes('/dist/src/cli/quick.js')),
      'traced',
    );
    assert.ok(!modules.some((m) => m.includes('/node_modules/commander/')), 'commander loaded');
  });
}

test('a line the registry does not read is still read by commander', () => {
  const { modules, status } = loaded(['tables', '-o', 'json', '--', 'extra']);
  assert.notEqual(status, null);
  assert.ok(modules.some((m) => m.includes('/node_modules/commander/')));
});

const chalkIn = (modules: string[]) => modules.some((m) => m.includes('/node_modules/chalk/'));

test('chalk is loaded only when colour is on: never for --version, a piped run or Tab', () => {
  for (const args of [
    ['--version'],
    ['--help'],
    ['tables', '-o', 'table'],
    ['get', 'nope'],
    ['__complete', 'bash', '--', 'cmdb li'],
  ]) {
    assert.ok(!chalkIn(loaded(args).modules), `${args.join(' ')} loaded chalk`);
  }
  assert.ok(
    !chalkIn(loaded(['__complete', 'bash', '--', 'cmdb li'], {}, { FORCE_COLOR: '1' }).modules),
    'Tab loaded chalk',
  );
  assert.ok(
    !chalkIn(loaded(['tables', '-o', 'table', '--no-color'], {}, { FORCE_COLOR: '1' }).modules),
    '--no-color loaded chalk',
  );
  // Colour forced into the pipe: the table header is bold, so chalk is needed (the trace can see it).
  assert.ok(
    chalkIn(loaded(['tables', '-o', 'table'], {}, { FORCE_COLOR: '1' }).modules),
    'FORCE_COLOR=1 did not load chalk',
  );
  assert.ok(chalkIn(loaded(['get', 'nope'], {}, { FORCE_COLOR: '1' }).modules), 'a coloured error did not load chalk');
});
