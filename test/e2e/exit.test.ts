// How a run ends (bin/cmdb.js): the process exits as soon as its work is done and what it printed has
// been written, without waiting for the connections' sockets to close; but never before every byte has
// reached a reader that is slow to read it (on Linux a pipe's writes block, elsewhere they may queue:
// bin/cmdb.js waits for them), and never before an ephemeral session has logged out.
import { spawn } from 'node:child_process';
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, cmdb, isolatedEnv } from '../helpers/cli.js';

const TABLE = 'firewall.ipmacbinding/table';
const N = 20_000;

describe('the end of a run', () => {
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
        ip: `10.0.${(i >> 8) & 255}.${i & 255}`,
        name: `host-${i + 1}`,
      })),
    );
  });
  after(async () => {
    await emu.close();
  });

  test('every line reaches a reader that starts reading only after the run has finished its work', async () => {
    const child = spawn(process.execPath, [BIN, 'list', TABLE, '--all', '-o', 'ndjson'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    // The pipe fills (64 KB) and the writes queue in the process; nothing is read for a while.
    child.stdout.pause();
    await new Promise((resolve) => setTimeout(resolve, 1500));
    let text = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (text += d));
    child.stdout.resume();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 0, stderr);
    const lines = text.split('\n');
    assert.equal(lines.pop(), '', 'the output ends with a whole line');
    assert.equal(lines.length, N);
    const last = JSON.parse(lines.at(-1)!) as { 'seq-num': number; name: string };
    assert.deepEqual([last['seq-num'], last.name], [N, `host-${N}`]);
  });

  test('a session from the environment logs out before the process ends', async () => {
    const before = emu.requests.filter((r) => r.path === '/logout').length;
    const sessionEnv = isolatedEnv({ CMDB_HOST: emu.url, CMDB_USERNAME: emu.username, CMDB_PASSWORD: emu.password });
    const r = await cmdb(['get', 'log.disk/setting', '-o', 'json'], { env: sessionEnv });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(emu.requests.filter((q) => q.path === '/logout').length, before + 1);
  });
});
