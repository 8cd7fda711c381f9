// Keys from the device: what is asked, the cache, and silence when the device cannot answer.
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { findTable } from '../../src/catalogue/index.js';
import { deviceSources } from '../../src/completion/sources.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, isolatedEnv } from '../helpers/cli.js';

const ACL = findTable('router/access-list')!;

let emulator: RunningEmulator;
let silent: Server;
const sockets = new Set<Socket>();
/** Connections the silent device has accepted. */
let silentConnections = 0;

before(async () => {
  emulator = await startEmulator({ port: 0, seed: 'demo' });
  emulator.populate(ACL.path, 'root', [{ name: 'lab gateway' }]);
  emulator.populate(ACL.path, 'dmz', [{ name: 'dmz only' }]);
  silent = createServer((socket) => {
    silentConnections++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
});

after(async () => {
  await emulator.close();
  for (const socket of sockets) socket.destroy();
  await new Promise((resolve) => silent.close(resolve));
});

// A device that answers: the completion deadline (1.5 s) is not what these tests are about, and a loaded
// machine (the whole suite in parallel, a keyring starting) can take that long for the first request of
// a process that loads its HTTP stack from source; the tests of a device that never answers keep it.
const deviceEnv = () =>
  isolatedEnv({ CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token, CMDB_COMPLETION_TIMEOUT: '30' });
const requestsTo = (path: string) => emulator.requests.filter((r) => r.path === `/api/v2/cmdb/${path}`);
const cacheFiles = (env: NodeJS.ProcessEnv) =>
  readdirSync(join(env.XDG_CACHE_HOME!, 'cmdb', 'keys')).map((f) => join(env.XDG_CACHE_HOME!, 'cmdb', 'keys', f));

describe('keys from the device', () => {
  it('asks only for the key field', async () => {
    const before = requestsTo(ACL.path).length;
    const keys = await deviceSources(deviceEnv()).keys(ACL, {});
    assert.ok(keys.includes('lab gateway') && keys.includes('10.0.0.0/8'), keys.join());
    const sent = requestsTo(ACL.path).slice(before);
    assert.deepEqual(
      sent.map((r) => [r.method, r.query]),
      [['GET', 'format=name']],
    );
  });

  it('asks the VDOM on the line', async () => {
    const keys = await deviceSources(deviceEnv()).keys(ACL, { vdom: 'dmz' });
    assert.ok(keys.includes('dmz only') && !keys.includes('lab gateway'), keys.join());
    assert.equal(requestsTo(ACL.path).at(-1)?.query, 'vdom=dmz&format=name');
  });

  it('gives integer keys as text', async () => {
    const table = findTable('firewall.ipmacbinding/table')!;
    const keys = await deviceSources(deviceEnv()).keys(table, {});
    assert.ok(keys.length > 0 && keys.every((k) => /^\d+$/.test(k)), keys.join());
    assert.equal(requestsTo(table.path).at(-1)?.query, 'format=seq-num');
  });

  it('caches keys for a minute in the XDG cache folder', async () => {
    const env = deviceEnv();
    const sources = deviceSources(env);
    await sources.keys(ACL, {});
    const asked = requestsTo(ACL.path).length;
    await sources.keys(ACL, {});
    assert.equal(requestsTo(ACL.path).length, asked, 'the second Tab is answered from the cache');
    const [file] = cacheFiles(env);
    const entry = JSON.parse(readFileSync(file, 'utf8')) as { fetchedAt: number; table: string };
    assert.equal(entry.table, ACL.path);
    writeFileSync(file, JSON.stringify({ ...entry, fetchedAt: Date.now() - 61_000 }));
    await sources.keys(ACL, {});
    assert.equal(requestsTo(ACL.path).length, asked + 1, 'a stale entry is read again');
    // The file's name is a plain hash of device, VDOM and table: an entry for another one is not served.
    const fresh = JSON.parse(readFileSync(file, 'utf8')) as { table: string };
    writeFileSync(file, JSON.stringify({ ...fresh, table: 'report/chart', keys: ['not this table'] }));
    assert.ok(!(await sources.keys(ACL, {})).includes('not this table'));
    assert.equal(requestsTo(ACL.path).length, asked + 2, 'an entry of another table is read again');
    // Entries are not flushed to disk: one a crash cut short (empty, or half a document) is a miss.
    for (const [i, damaged] of ['', '{"fetchedAt":'].entries()) {
      writeFileSync(file, damaged);
      assert.ok((await sources.keys(ACL, {})).includes('lab gateway'));
      assert.equal(requestsTo(ACL.path).length, asked + 3 + i, 'a damaged entry is read again');
    }
  });

  it('keeps one cache entry per device, VDOM and table', async () => {
    const env = deviceEnv();
    const sources = deviceSources(env);
    await sources.keys(ACL, {});
    await sources.keys(ACL, { vdom: 'dmz' });
    await sources.keys(findTable('report/chart')!, {});
    assert.equal(cacheFiles(env).length, 3);
  });

  it('gives no keys, and remembers the failure briefly, when the device does not answer', async () => {
    const { port } = silent.address() as { port: number };
    const env = isolatedEnv({ CMDB_HOST: `http://127.0.0.1:${port}`, CMDB_TOKEN: 'x' });
    const sources = deviceSources(env);
    const connections = silentConnections;
    // Returns at all: the completion timeout (1.5 s) ends the wait for a device that never answers.
    assert.deepEqual(await sources.keys(ACL, {}), []);
    const asked = silentConnections;
    assert.ok(asked > connections, 'the first Tab asks the device');
    assert.deepEqual(await sources.keys(ACL, {}), []);
    assert.equal(silentConnections, asked, 'the next Tab remembers the failure and does not ask (nor wait) again');
  });

  it('gives no keys without a device or a credential', async () => {
    assert.deepEqual(await deviceSources(isolatedEnv()).keys(ACL, {}), []);
    assert.deepEqual(await deviceSources(isolatedEnv({ CMDB_HOST: emulator.url })).keys(ACL, {}), []);
    assert.deepEqual(
      await deviceSources(isolatedEnv({ CMDB_HOST: emulator.url, CMDB_TOKEN: 'wrong' })).keys(ACL, {}),
      [],
    );
  });
});

describe('profiles and VDOMs', () => {
  const PROFILES =
    'default: fw1\ndevices:\n  fw1:\n    host: https://fw1.example\n    auth: token\n    vdom: root,branch\n  lab:\n    host: http://127.0.0.1:1\n    auth: token\n';

  function withProfiles(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
    const env = isolatedEnv(extra);
    mkdirSync(join(env.XDG_CONFIG_HOME!, 'cmdb'), { recursive: true });
    writeFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), PROFILES);
    return env;
  }

  it('offers the saved device names', async () => {
    assert.deepEqual(await deviceSources(withProfiles()).devices(), ['fw1', 'lab']);
    assert.deepEqual(await deviceSources(isolatedEnv()).devices(), []);
  });

  it('offers root, the VDOMs of profiles and CMDB_VDOM when the device has no VDOM list', async () => {
    // A token whose profile cannot read system/vdom: the device gives no list.
    const token = 'fwonlytoken0000000000000000001';
    const device = await startEmulator({ port: 0, seed: 'demo', tokens: [{ token, groups: ['fwgrp'] }] });
    try {
      const env = withProfiles({ CMDB_VDOM: 'edge', CMDB_HOST: device.url, CMDB_TOKEN: token });
      assert.deepEqual(await deviceSources(env).vdoms({}), ['root', 'branch', 'edge']);
    } finally {
      await device.close();
    }
  });

  it("offers the device's VDOMs from its system/vdom", async () => {
    const env = withProfiles({ CMDB_HOST: emulator.url, CMDB_TOKEN: emulator.token });
    assert.deepEqual(await deviceSources(env).vdoms({}), ['root', 'branch', 'dmz']);
  });

  it("offers the demo device's VDOMs with --demo", async () => {
    assert.deepEqual(await deviceSources(isolatedEnv()).vdoms({ demo: true }), ['root', 'dmz']);
  });
});

describe('cmdb __complete', () => {
  it('prints keys as candidates', async () => {
    const run = await cmdb(['__complete', 'fish', '--', 'get', ACL.path, 'lab'], { env: deviceEnv() });
    assert.deepEqual([run.code, run.stdout, run.stderr], [0, 'words\nlab gateway\n', '']);
  });

  it('prints nothing and exits 0 quickly when the device is unreachable, even with --verbose', async () => {
    const { port } = silent.address() as { port: number };
    for (const host of [`http://127.0.0.1:${port}`, 'http://127.0.0.1:1']) {
      // A run still going after 5 s (the completion deadline is 1.5 s) is killed: exit code null, not 0.
      const run = await cmdb(['__complete', 'bash', '--', `cmdb -v get ${ACL.path} `], {
        env: isolatedEnv({ CMDB_HOST: host, CMDB_TOKEN: 'x', CMDB_DEBUG: '1' }),
        timeoutMs: 5000,
      });
      assert.deepEqual([run.code, run.stdout, run.stderr], [0, '', ''], host);
    }
  });

  it('prints nothing for a request it does not understand', async () => {
    for (const args of [
      ['__complete'],
      ['__complete', 'tcsh', '--', 'x'],
      ['__complete', 'bash'],
      ['__complete', 'bash', '--', 'cmdb'],
    ]) {
      const run = await cmdb(args);
      assert.deepEqual([run.code, run.stdout, run.stderr], [0, '', ''], args.join(' '));
    }
  });
});
