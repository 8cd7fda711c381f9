// Tab runs the CLI every time: `cmdb __complete` must load only what the answer needs.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, cmdb, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

const register = fileURLToPath(new URL('../cli/trace-register.js', import.meta.url));
const HEAVY = ['commander', 'undici', 'yaml', '@napi-rs/keyring'];

/** The modules a run resolved, and Node's built-ins it loaded (spawnSync: no emulator may need this process meanwhile). */
function modulesLoaded(args: string[], env: NodeJS.ProcessEnv): string[] {
  const trace = join(tempDir('cmdb-trace-'), 'modules.txt');
  const run = spawnSync(process.execPath, ['--import', register, BIN, ...args], {
    env: { ...env, CMDB_TRACE_FILE: trace },
    encoding: 'utf8',
  });
  assert.equal(run.status, 0, run.stderr);
  return readFileSync(trace, 'utf8').split('\n');
}

/** The heavy packages among them. */
function packagesLoaded(args: string[], env: NodeJS.ProcessEnv): string[] {
  const modules = modulesLoaded(args, env);
  return HEAVY.filter((name) => modules.some((m) => m.includes(`/node_modules/${name}/`)));
}

/** Whether the run loaded the program (dist/src/bundle/cli.cjs) or node:crypto, which Tab answered from complete.cjs never does. */
function programOrCrypto(args: string[], env: NodeJS.ProcessEnv): string[] {
  const modules = modulesLoaded(args, env);
  return [
    modules.some((m) => m.endsWith('/dist/src/bundle/cli.cjs')) && 'cli.cjs',
    modules.includes('node:crypto') && 'node:crypto',
  ].filter((m): m is string => !!m);
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

it('answers static completions and keys from a warm cache without loading the program or node:crypto', async () => {
  for (const line of ['cmdb ', 'cmdb get --', 'cmdb get fire', 'cmdb update log.disk/setting --set roll-day=']) {
    assert.deepEqual(programOrCrypto(['__complete', 'bash', '--', line], isolatedEnv()), [], line);
  }
  const env = isolatedEnv({ CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token });
  const args = ['__complete', 'zsh', '--', 'get', 'router/access-list', ''];
  const cold = await cmdb(args, { env });
  assert.match(cold.stdout, /mgmt nets/);
  assert.deepEqual(programOrCrypto(args, env), []);
  const warm = await cmdb(args, { env });
  assert.equal(warm.stdout, cold.stdout);
  // Keys not cached (another VDOM): the program asks the device.
  assert.deepEqual(
    programOrCrypto(['__complete', 'zsh', '--', '--vdom', 'dmz', 'get', 'router/access-list', ''], env),
    ['cli.cjs'],
  );
});
