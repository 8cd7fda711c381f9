// The command-line program runs from the bundle scripts/bundle.js writes (dist/src/bundle/), with the
// V8 code cache written beside it; a cache of another build, a damaged one or none changes nothing but
// the time (bin/cmdb.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator } from '../../src/emulator/index.js';
import { ROOT, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

// Prints, at exit, what bin/cmdb.js did with the code cache.
const REPORT = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write('\\ncode cache: ' + JSON.stringify(globalThis.cmdbCodeCache ?? {}) + '\\n'))")}`;

/** What bin/cmdb.js did with each file's code cache: used, rejected (by V8), none. */
function cacheReport(stderr: string): Record<string, string> {
  return JSON.parse(/code cache: (.*)/.exec(stderr)?.[1] ?? 'null') as Record<string, string>;
}

function run(root: string, args: string[], nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, ['--import', REPORT, ...nodeArgs, join(root, 'bin/cmdb.js'), ...args], {
    env: isolatedEnv(),
    encoding: 'utf8',
  });
  return {
    status: result.status,
    stdout: result.stdout,
    stderr: result.stderr,
    cache: cacheReport(result.stderr)['cli.cjs'],
  };
}

/** The files a run of the program reads, copied into a folder of their own (node_modules linked). */
function copyOfProgram(): string {
  const dir = tempDir('cmdb-bundle-');
  for (const path of ['bin', 'dist/src/bundle', 'dist/src/cli/help.json', 'dist/src/catalogue/data', 'package.json']) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    cpSync(join(ROOT, path), join(dir, path), { recursive: true });
  }
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

test('the program runs from the bundle with its code cache, and a changed V8 flag makes V8 ignore the cache', () => {
  const expected = run(ROOT, ['tables', '-o', 'json']);
  assert.equal(expected.status, 0, expected.stderr);
  assert.equal(expected.cache, 'used');
  assert.ok((JSON.parse(expected.stdout) as { path: string }[]).some((t) => t.path === 'log.disk/setting'));
  const otherFlags = run(ROOT, ['tables', '-o', 'json'], ['--max-old-space-size=64']);
  assert.equal(otherFlags.cache, 'rejected');
  assert.equal(otherFlags.stdout, expected.stdout);
});

test('a cache of another build, a damaged cache or none: the same output, the cache not used', () => {
  const dir = copyOfProgram();
  try {
    const cacheFile = join(dir, 'dist/src/bundle/cli.cjs.cache');
    const cache = readFileSync(cacheFile);
    // The bundle's first line, the checksum of V8's data, the data.
    const header = cache.subarray(0, cache.indexOf(10, cache.indexOf(10) + 1) + 1).toString('latin1');
    assert.match(header, /^\/\/ cmdb [0-9a-f]{16}\n[0-9a-f]{8}\n$/);
    assert.equal(header.split('\n')[0], readFileSync(join(dir, 'dist/src/bundle/cli.cjs'), 'utf8').split('\n')[0]);
    const expected = run(dir, ['tables', '-o', 'json']);
    assert.equal(expected.cache, 'used', expected.stderr);

    // One byte of V8's data changed: V8 does not notice it (and may crash), the checksum does.
    const flipped = Buffer.from(cache);
    flipped[header.length + Math.floor((cache.length - header.length) * 0.8)]! ^= 0xff;
    const variants: [string, Buffer | null][] = [
      [
        'another build',
        Buffer.concat([Buffer.from(header.replace(/[0-9a-f]{16}/, '0123456789abcdef')), cache.subarray(header.length)]),
      ],
      ['one byte changed', flipped],
      ['cut short', cache.subarray(0, Math.floor(cache.length / 2))],
      [
        'garbage after the header',
        Buffer.concat([Buffer.from(header), Buffer.alloc(cache.length - header.length, 0xa5)]),
      ],
      ['empty', Buffer.alloc(0)],
      ['absent', null],
    ];
    for (const [name, data] of variants) {
      if (data) writeFileSync(cacheFile, data);
      else rmSync(cacheFile);
      const result = run(dir, ['tables', '-o', 'json']);
      assert.equal(result.status, 0, `${name}: ${result.stderr}`);
      assert.equal(result.stdout, expected.stdout, name);
      assert.equal(result.cache, 'none', name);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the bundle: the program without any package, undici apart with only what the client uses', () => {
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist/src/bundle/meta.json'), 'utf8')) as Record<string, string[]>;
  assert.deepEqual(Object.keys(meta).sort(), ['cli.cjs', 'complete.cjs', 'early.cjs', 'quick.cjs', 'undici.cjs']);
  assert.ok(meta['cli.cjs']!.includes('dist/src/cli/main.js'));
  // Every package outside cli.cjs: the startup tests see each one load (commander, yaml, chalk...).
  assert.deepEqual(
    [...meta['cli.cjs']!, ...meta['quick.cjs']!].filter((input) => !input.startsWith('dist/src/')),
    [],
  );
  // Tab's file: no package, none of the commands or formatters (each import() there is a stub that throws),
  // nothing of the device layer: the early keychain read a cache miss starts is a file of its own.
  const complete = meta['complete.cjs']!;
  assert.deepEqual(
    complete.filter((input) => !input.startsWith('dist/src/') && !input.startsWith('not-in-complete:')),
    [],
  );
  assert.deepEqual(
    complete.filter((input) =>
      /dist\/src\/(commands\/(?!registry|define)|output\/(?!index|stdout|types)|api\/client|device\/|config\/(?!paths))/.test(
        input,
      ),
    ),
    [],
  );
  assert.ok(
    meta['early.cjs']!.includes('dist/src/device/early.js') &&
      !meta['early.cjs']!.some((input) => /completion\/|commands\//.test(input)),
  );
  assert.ok(complete.includes('dist/src/completion/engine.js') && complete.includes('dist/src/completion/cache.js'));
  const undici = meta['undici.cjs']!;
  for (const part of ['dispatcher/agent.js', 'core/connect.js', 'api/api-request.js'])
    assert.ok(undici.includes(`node_modules/undici/lib/${part}`), part);
  assert.deepEqual(
    undici.filter(
      (input) =>
        !input.startsWith('node_modules/undici/lib/') && input !== '<stdin>' && !input.startsWith('without-http2:'),
    ),
    [],
  );
  // Not its package entry (fetch, WebSocket, caches, mocks), its HTTP/2 client or the request API's other verbs.
  assert.deepEqual(
    undici.filter((input) =>
      /undici\/index\.js$|client-h2\.js$|api-(stream|pipeline|upgrade|connect)\.js$/.test(input),
    ),
    [],
  );
});

test('a request loads undici from the bundle, with its code cache', async () => {
  const emulator = await startEmulator({ port: 0, seed: 'demo' });
  try {
    // Asynchronous: the emulator answers from this process.
    const child = spawn(process.execPath, ['--import', REPORT, join(ROOT, 'bin/cmdb.js'), 'get', 'log.disk/setting'], {
      env: isolatedEnv({ CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token }),
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const result = { status, stdout, stderr };
    assert.equal(result.status, 0, result.stderr);
    assert.equal(JSON.parse(result.stdout).status, 'enable');
    assert.deepEqual(cacheReport(result.stderr), { 'cli.cjs': 'used', 'undici.cjs': 'used' });
  } finally {
    await emulator.close();
  }
});

test('--verbose: an unexpected error prints a stack trace that names the TypeScript sources, not the bundle', () => {
  // stdout refuses what the program writes: an error no part of cmdb expects (an internal error).
  const refuse = `data:text/javascript,${encodeURIComponent(
    "const write = process.stdout.write.bind(process.stdout); process.stdout.write = (chunk, ...rest) => { if (chunk === '') return write(chunk, ...rest); throw new Error('refused by the test'); };",
  )}`;
  const args = ['tables', '--spec', '-o', 'table'];
  const verbose = spawnSync(process.execPath, ['--import', refuse, join(ROOT, 'bin/cmdb.js'), ...args, '--verbose'], {
    env: isolatedEnv(),
    encoding: 'utf8',
  });
  assert.equal(verbose.status, 1, verbose.stderr);
  assert.match(verbose.stderr, /internal error: refused by the test/);
  const frames = verbose.stderr.split('\n').filter((line) => /^\s+at /.test(line));
  assert.ok(
    frames.some((line) => line.includes(join(ROOT, 'src/output/printer.ts:'))),
    `no frame in src/output/printer.ts:\n${verbose.stderr}`,
  );
  assert.ok(!frames.some((line) => line.includes('dist/src/bundle/')), `a frame in the bundle:\n${verbose.stderr}`);
  // CMDB_DEBUG is --verbose too; without either, no stack trace at all.
  const debug = spawnSync(process.execPath, ['--import', refuse, join(ROOT, 'bin/cmdb.js'), ...args], {
    env: isolatedEnv({ CMDB_DEBUG: '1' }),
    encoding: 'utf8',
  });
  assert.match(debug.stderr, /src\/output\/printer\.ts:\d+:\d+/);
  const quiet = spawnSync(process.execPath, ['--import', refuse, join(ROOT, 'bin/cmdb.js'), ...args], {
    env: isolatedEnv(),
    encoding: 'utf8',
  });
  assert.equal(quiet.status, 1);
  assert.doesNotMatch(quiet.stderr, /^\s+at /m);
});

test('the library knows nothing of the bundle: src/api neither names it nor patches the module loader', () => {
  const api = join(ROOT, 'src/api');
  for (const name of readdirSync(api).filter((f) => f.endsWith('.ts'))) {
    const text = readFileSync(join(api, name), 'utf8');
    assert.doesNotMatch(text, /dist\/src\/bundle|\.cjs\b|require\.cache|\.cache\[|new Module\(|CMDB_LOAD|__cmdb/, name);
  }
});
