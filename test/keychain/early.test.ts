// The keychain read started early (src/device/early.ts, src/config/lookup.ts): a run on one device whose
// credential is in the keychain starts its `secret-tool` read as soon as it knows the device (a Tab on
// a key cache miss: before the program loads), and the device layer takes that read over. Against a
// real Secret Service, through the built CLI, with `secret-tool` wrapped to log its calls.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, json } from '../helpers/cli.js';
import { keyringSkip, startKeyring, type PrivateKeyring } from '../helpers/keyring.js';
import { tempDir } from '../helpers/temp.js';

const TOKEN = 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa';

describe('the early keychain read', { skip: keyringSkip() }, () => {
  let keyring: PrivateKeyring;
  let emu: RunningEmulator;
  let tool: string;

  /** A user with a saved profile, and `secret-tool` wrapped: each call logged, then `then` (the real one by default). */
  const user = async (name: string, login: string[], stdin: string, then?: string) => {
    // The completion deadline (1.5 s) is not under test: a loaded machine may take that long.
    const env = {
      ...keyring.env,
      CMDB_CONFIG_DIR: tempDir('cmdb-early-config-'),
      XDG_CACHE_HOME: tempDir('cmdb-early-cache-'),
      CMDB_COMPLETION_TIMEOUT: '30',
    };
    const saved = await cmdb(['login', '--host', emu.url, '-d', name, ...login], { env, stdin });
    assert.equal(saved.code, 0, saved.stderr);
    const dir = tempDir('cmdb-early-tool-');
    const log = join(dir, 'calls');
    writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\necho "$*" >> '${log}'\n${then ?? `exec '${tool}' "$@"`}\n`, {
      mode: 0o755,
    });
    return {
      env: { ...env, PATH: `${dir}:${keyring.env.PATH}` },
      calls: () => (existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : []),
    };
  };

  before(async () => {
    tool = spawnSync('sh', ['-c', 'command -v secret-tool'], { encoding: 'utf8' }).stdout.trim();
    keyring = await startKeyring();
    emu = await startEmulator({ port: 0, seed: 'demo', tokens: [{ token: TOKEN }] });
  });
  after(async () => {
    await emu?.close();
    await keyring?.stop();
  });

  test('a command on a token profile reads the token once: the early read is the one the device layer uses', async (t) => {
    if (!tool) return t.skip('secret-tool is not installed (libsecret-tools)');
    const { env, calls } = await user('early-token', ['--token-stdin'], TOKEN);
    const r = await cmdb(['get', 'log.disk/setting', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(json<{ status: string }>(r).status, 'enable');
    assert.equal(emu.requests.at(-1)?.headers.authorization, `Bearer ${TOKEN}`);
    assert.deepEqual(calls(), ['lookup service cmdb username early-token']);
  });

  test('a Tab that misses the key cache starts the read before the program loads, and the program takes it over', async (t) => {
    if (!tool) return t.skip('secret-tool is not installed (libsecret-tools)');
    const { env, calls } = await user('early-tab', ['--token-stdin'], TOKEN);
    emu.populate('router/access-list', 'root', [{ name: 'early key' }]);
    // Says, as secret-tool starts, whether the program (dist/src/bundle/cli.cjs) has loaded yet.
    const hook = join(tempDir('cmdb-early-hook-'), 'hook.cjs');
    writeFileSync(
      hook,
      `const cp = require('node:child_process'); const spawn = cp.spawn;
cp.spawn = function (file, ...rest) {
  if (file === 'secret-tool') process.stderr.write('secret-tool started; program loaded: ' + !!(globalThis.cmdbCodeCache && globalThis.cmdbCodeCache['cli.cjs']) + '\\n');
  return spawn.call(this, file, ...rest);
};\n`,
    );
    const r = await cmdb(['__complete', 'bash', '--', 'cmdb get router/access-list '], {
      env,
      nodeArgs: ['--require', hook],
    });
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^early\\ key$/m);
    assert.deepEqual(calls(), ['lookup service cmdb username early-tab']);
    assert.equal(r.stderr, 'secret-tool started; program loaded: false\n');
    // Answered from the cache now: no read at all.
    const again = await cmdb(['__complete', 'bash', '--', 'cmdb get router/access-list '], { env });
    assert.equal(again.stdout, r.stdout);
    assert.equal(calls().length, 1);
  });

  test('a session profile reads its saved session early, and its password only when the session is gone', async (t) => {
    if (!tool) return t.skip('secret-tool is not installed (libsecret-tools)');
    const { env, calls } = await user('early-sess', ['--username', emu.username, '--password-stdin'], emu.password);
    const r = await cmdb(['list', 'firewall.ipmacbinding/table', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(calls(), ['lookup service cmdb username early-sess/session']);
  });

  test('a credential in the environment, or several devices, start no early read', async (t) => {
    if (!tool) return t.skip('secret-tool is not installed (libsecret-tools)');
    const { env, calls } = await user('early-env', ['--token-stdin'], TOKEN);
    const r = await cmdb(['get', 'log.disk/setting', '-o', 'json'], { env: { ...env, CMDB_TOKEN: TOKEN } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(calls(), []);
    const demo = await cmdb(['get', 'log.disk/setting', '-o', 'json', '--demo'], { env });
    assert.equal(demo.code, 0, demo.stderr);
    assert.deepEqual(calls(), []);
  });

  test('a read nobody takes does not hold the run: an error before the device ends it at once, even with a keychain that never answers', async () => {
    // The lookup tool hangs (a bus that never answers); the keychain timeout is far away.
    const { env, calls } = await user('early-hang', ['--token-stdin'], TOKEN, 'exec sleep 60');
    const slow = { ...env, CMDB_KEYCHAIN_TIMEOUT: '120' };
    const r = await cmdb(['get', 'no.such/table', '-o', 'json'], { env: slow, timeoutMs: 20_000 });
    assert.equal(r.code, 2, `exit ${r.code}: ${r.stderr}`);
    assert.match(r.stderr, /no\.such\/table/);
    assert.deepEqual(calls(), ['lookup service cmdb username early-hang']);
    const tab = await cmdb(['__complete', 'bash', '--', 'cmdb get router/access-list '], {
      env: { ...slow, CMDB_COMPLETION_TIMEOUT: '1' },
      timeoutMs: 20_000,
    });
    assert.equal(tab.code, 0, `exit ${tab.code}: ${tab.stderr}`);
  });
});
