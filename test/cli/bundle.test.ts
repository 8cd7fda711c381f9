// The command-line program runs from the bundle scripts/bundle.js writes (dist/src/bundle/), with the
// V8 code cache written beside it; a cache of another build, a damaged one or none changes nothing but
// the time (bin/cmdb.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, isolatedEnv } from '../helpers/cli.js';

// Prints, at exit, what bin/cmdb.js did with the code cache.
const REPORT = `data:text/javascript,${encodeURIComponent("process.on('exit', () => process.stderr.write('\\ncode cache: ' + globalThis.cmdbCodeCache + '\\n'))")}`;

function run(root: string, args: string[], nodeArgs: string[] = []) {
  const result = spawnSync(process.execPath, ['--import', REPORT, ...nodeArgs, join(root, 'bin/cmdb.js'), ...args], { env: isolatedEnv(), encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, cache: /code cache: (\w+)/.exec(result.stderr)?.[1] };
}

/** The files a run of the program reads, copied into a folder of their own (node_modules linked). */
function copyOfProgram(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cmdb-bundle-'));
  for (const path of ['bin', 'dist/src/bundle', 'dist/src/cli/help.json', 'src/catalogue/tables-6.4.14.json', 'package.json']) {
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
      ['another build', Buffer.concat([Buffer.from(header.replace(/[0-9a-f]{16}/, '0123456789abcdef')), cache.subarray(header.length)])],
      ['one byte changed', flipped],
      ['cut short', cache.subarray(0, Math.floor(cache.length / 2))],
      ['garbage after the header', Buffer.concat([Buffer.from(header), Buffer.alloc(cache.length - header.length, 0xa5)])],
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

test('the bundle keeps every package outside it, so the startup tests see each one load', () => {
  const meta = JSON.parse(readFileSync(join(ROOT, 'dist/src/bundle/meta.json'), 'utf8')) as Record<string, string[]>;
  assert.deepEqual(Object.keys(meta).sort(), ['cli.cjs', 'quick.cjs']);
  assert.ok(meta['cli.cjs']!.includes('dist/src/cli/main.js'));
  assert.deepEqual(Object.values(meta).flat().filter((input) => !input.startsWith('dist/src/')), []);
});
