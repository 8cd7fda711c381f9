import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const bin = join(root, 'bin/cmdb.js');
const register = fileURLToPath(new URL('./trace-register.js', import.meta.url));
const HEAVY = ['undici', 'yaml', '@napi-rs/keyring'];

/** Runs the CLI and returns the modules it resolved. */
function loaded(args: string[]): { modules: string[]; status: number | null } {
  const trace = join(mkdtempSync(join(tmpdir(), 'cmdb-trace-')), 'modules.txt');
  const run = spawnSync(process.execPath, ['--import', register, bin, ...args], {
    env: { ...process.env, CMDB_TRACE_FILE: trace, CMDB_CONFIG_DIR: join(tmpdir(), 'cmdb-none'), CMDB_TOKEN: 'unused' },
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

const heavyIn = (modules: string[]) => HEAVY.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));

test('the trace sees modules at all (so the assertions below can fail)', () => {
  const { modules } = loaded(['list', 'log.disk/setting', '--host', 'http://127.0.0.1:9', '--timeout', '1']);
  assert.ok(modules.some((m) => m.includes('/node_modules/commander/')), 'commander not traced');
  assert.ok(heavyIn(modules).includes('undici'), 'a network command should load undici');
});

for (const args of [['--version'], ['--help'], ['tables'], ['tables', '-o', 'json'], ['list', '--help']]) {
  test(`cmdb ${args.join(' ')} loads no heavy module`, () => {
    const { modules, status } = loaded(args);
    assert.equal(status, 0);
    assert.deepEqual(heavyIn(modules), []);
  });
}
