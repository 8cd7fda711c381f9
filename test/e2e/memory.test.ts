// The memory bound of `list --all`: 200,000 objects from the emulator, printed by a CLI whose heap is
// capped at 64 MB. Every page held at once would need several times that; the run only finishes
// when the output keeps at most a page (json, ndjson, csv, cli) or the cells' text in bounded memory (table).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const TABLE = 'firewall.ipmacbinding/table';
const N = 200_000;
const HEAP_MB = 64;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  emu.populate(
    TABLE,
    'root',
    Array.from({ length: N }, (_, i) => ({
      'seq-num': i + 1,
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
      mac: `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
      name: `host-${i + 1}`,
      status: i % 2 ? 'disable' : 'enable',
    })),
  );
});
after(async () => {
  await emu.close();
});

interface Streamed {
  code: number | null;
  signal: NodeJS.Signals | null;
  lines: number;
  head: string;
  tail: string;
  stderr: string;
}

/** Runs the CLI with a capped heap, reading stdout as it comes: only its line count, start and end are kept. */
function capped(args: string[]): Promise<Streamed> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [`--max-old-space-size=${HEAP_MB}`, BIN, ...args], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let lines = 0;
    let head = '';
    let tail = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      for (let i = d.indexOf('\n'); i >= 0; i = d.indexOf('\n', i + 1)) lines++;
      if (head.length < 400) head += d.slice(0, 400);
      tail = (tail + d).slice(-400);
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    const timer = setTimeout(() => child.kill('SIGKILL'), 240_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, lines, head, tail, stderr });
    });
  });
}

describe(`list --all of ${N.toLocaleString('en')} objects with the heap capped at ${HEAP_MB} MB`, {
  timeout: 600_000,
}, () => {
  const list = (format: string) => capped(['list', TABLE, '--all', '--page-size', '2000', '-o', format]);
  const ok = (r: Streamed) => assert.ok(r.code === 0, `exit ${r.code} ${r.signal ?? ''}: ${r.stderr}`);

  test('ndjson: one line per object', async () => {
    const r = await list('ndjson');
    ok(r);
    assert.equal(r.lines, N);
    assert.match(r.head, /^\{"seq-num":1,/);
    assert.match(r.tail, /"name":"host-200000","status":"disable"\}\n$/);
  });

  test('json: one array of every object', async () => {
    const r = await list('json');
    ok(r);
    assert.equal(r.lines, 1);
    assert.match(r.head, /^\[\{"seq-num":1,/);
    assert.match(r.tail, /"name":"host-200000","status":"disable"\}\]\n$/);
  });

  test('csv: a header and one line per object', async () => {
    const r = await list('csv');
    ok(r);
    assert.equal(r.lines, N + 1);
    // The device's bookkeeping fields (q_origin_key) are left out without --with-meta.
    assert.match(r.head, /^seq-num,ip,mac,name,status\n1,10\.0\.0\.0,/);
    assert.match(r.tail, /,host-200000,disable\n$/);
  });

  test('cli: one block, an edit block per object, written as the pages come', async () => {
    const r = await list('cli');
    ok(r);
    // `config`, then per object `edit`, four `set` lines and `next`, then `end`.
    assert.equal(r.lines, 6 * N + 2);
    assert.match(r.head, /^config firewall ipmacbinding table\n {4}edit 1\n {8}set ip 10\.0\.0\.0\n/);
    assert.match(r.tail, /set name "host-200000"\n {8}set status disable\n {4}next\nend\n$/);
  });

  test('table: a header and one line per object', async () => {
    const r = await list('table');
    ok(r);
    assert.equal(r.lines, N + 1);
    // The key, the name, then the fields that carry information in the catalogue's order.
    assert.match(r.head, /^seq-num +name +ip +mac +status\n1 +host-1 +10\.0\.0\.0 /);
    assert.match(r.tail, /host-200000 +10\.3\.13\.63 +02:00:00:03:0d:3f +disable\n$/);
  });
});

// `create -f` of a large NDJSON file reads it once to check every object, then again to send them:
// the young generation must stay at its start size from the first read (it grew to 8-16 MB when
// only the writes were covered, a third of the peak). Its size is read at exit, in the CLI's process.
describe('create -f of a 20,000-object NDJSON file', { timeout: 240_000 }, () => {
  test('keeps the young generation at its start size', async () => {
    const dir = tempDir('cmdb-bulk-');
    const file = join(dir, 'bulk.ndjson');
    writeFileSync(file, Array.from({ length: 20_000 }, (_, i) => `{"id":${i + 1},"name":"bulk-${i + 1}"}\n`).join(''));
    const hook = `data:text/javascript,${encodeURIComponent("import { writeSync } from 'node:fs'; import { getHeapSpaceStatistics } from 'node:v8'; process.on('exit', () => writeSync(2, 'NEW_SPACE ' + getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size + '\\n'));")}`;
    // Asynchronous: the emulator answers from this process.
    const r = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
      const child = spawn(
        process.execPath,
        ['--import', hook, BIN, 'create', 'dlp/filepattern', '-f', file, '-o', 'json'],
        { env, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, stdout, stderr }));
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).filter((o: { status: string }) => o.status === 'success').length, 20_000);
    const size = Number(/NEW_SPACE (\d+)/.exec(r.stderr)?.[1]);
    // Two semi-spaces of 1 MB at the start, each growth doubling them: at most one growth (start-up's).
    assert.ok(size > 0 && size <= 4 << 20, `new space ${size} bytes at exit: ${r.stderr.slice(-500)}`);
  });
});
