// runInProcess() (test/helpers/inprocess.ts), which most end-to-end tests use, answers as the built CLI
// does: the same command lines, in-process and spawned, print the same stdout and stderr and end with
// the same exit code, on success, on refusals and device errors, with stdin, in every output format.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, isolatedEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

async function same(args: string[], stdin?: string): Promise<{ code: number; stdout: string; stderr: string }> {
  const spawned = await cmdb(args, { env, stdin });
  const inProcess = await runInProcess(args, { env, stdin });
  assert.deepEqual(inProcess, spawned, `cmdb ${args.join(' ')}`);
  return inProcess;
}

test('the same command lines print the same and exit with the same code in-process as spawned', async () => {
  const codes: number[] = [];
  for (const args of [
    ['list', 'firewall/address', '--vdom', 'root', '-o', 'json'],
    ['list', 'firewall/address', '--vdom', 'root', '-o', 'table', '--fields', 'name,subnet'],
    ['list', 'firewall/address', '--vdom', 'root', '-o', 'csv'],
    ['get', 'log.disk/setting', '-o', 'yaml'],
    ['list', 'firewall.address'],
    ['list', 'firewall/address', '-o', 'xml'],
    ['get', 'firewall/address', 'no-such-address', '--vdom', 'root'],
    ['delete', 'firewall/address', 'no-such-address', '--vdom', 'root', '-o', 'json'],
    ['list', 'firewall/address', '--vdom', 'nosuchvdom'],
    ['nosuchcommand'],
  ]) {
    codes.push((await same(args)).code);
  }
  // Printed, refused (2), not found (6), forbidden VDOM (5), unknown command (2).
  assert.deepEqual(codes, [0, 0, 0, 0, 2, 2, 6, 6, 5, 2]);
});

test('stdin reaches the program in-process as it does a spawned one', async () => {
  const exported = await runInProcess(['export', 'firewall/address', '--vdom', 'root'], { env });
  assert.equal(exported.code, 0, exported.stderr);
  const unchanged = await same(['diff', '-f', '-', '-o', 'json'], exported.stdout);
  assert.equal(unchanged.code, 0, unchanged.stderr);
  const changed = await same(
    ['diff', '-f', '-', '-o', 'json'],
    exported.stdout.replace(/^(\s+comment: ).*$/m, '$1"changed"'),
  );
  assert.equal(changed.code, 10, changed.stderr);
  assert.notEqual(changed.stdout, unchanged.stdout);
});
