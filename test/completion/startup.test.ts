// Tab runs the CLI every time: `cmdb __complete` must load only what the answer needs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, cmdb, isolatedEnv } from '../helpers/cli.js';

const register = fileURLToPath(new URL('../cli/trace-register.js', import.meta.url));
const HEAVY = ['commander', 'undici', 'yaml', '@napi-rs/keyring'];

/** The packages a run resolved (spawnSync: no emulator may need this process meanwhile). */
function packagesLoaded(args: string[], env: NodeJS.ProcessEnv): string[] {
  const trace = join(mkdtempSync(join(tmpdir(), 'cmdb-trace-')), 'modules.txt');
  const run = spawnSync(process.execPath, ['--import', register, BIN, ...args], { env: { ...env, CMDB_TRACE_FILE: trace }, encoding: 'utf8' });
  assert.equal(run.status, 0, run.stderr);
  const modules = readFileSync(trace, 'utf8').split('\n');
  return HEAVY.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));
}

let emulator: RunningEmulator;
before(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
});
after(() => emulator.close());

it('completes commands, options, tables and fields without commander, undici or yaml', () => {
  for (const line of ['cmdb ', 'cmdb get --', 'cmdb get fire', 'cmdb update log.disk/setting --set roll-day=']) {
    assert.deepEqual(packagesLoaded(['__complete', 'bash', '--', line], isolatedEnv()), [], line);
  }
});

it('answers keys from a warm cache without undici', async () => {
  const env = isolatedEnv({ CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token });
  const args = ['__complete', 'bash', '--', 'cmdb get router/access-list '];
  const cold = await cmdb(args, { env });
  assert.match(cold.stdout, /mgmt\\ nets/);
  assert.deepEqual(packagesLoaded(args, env), []);
});
