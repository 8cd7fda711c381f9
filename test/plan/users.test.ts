// Who names an object on a device (src/plan/users.ts), against the built-in emulated device: from its
// usage query, and by reading the tables that can name the object where the query does not answer.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runContext } from '../../src/run/context.js';
import { findUsers } from '../../src/plan/users.js';
import { captureIO } from '../helpers/io.js';
import { tempDir } from '../helpers/temp.js';

function demo() {
  return runContext(captureIO({}), { CMDB_CONFIG_DIR: tempDir('cmdb-users-') }, { demo: true });
}

test('the users of an object from the device: every object and field that names it, nothing for one unused', async () => {
  const ctx = demo();
  try {
    const found = await findUsers(ctx.device(), [
      { vdom: 'root', table: 'firewall/address', key: 'lan-net' },
      { vdom: 'root', table: 'firewall/address', key: 'no-such-address' },
    ]);
    assert.equal(found.source, 'device');
    const users = found.users[0] ?? [];
    assert.ok(users.some((u) => u.table === 'firewall/policy' && u.field === 'srcaddr' && u.vdom === 'root'));
    assert.ok(users.some((u) => u.table === 'firewall/addrgrp' && u.field === 'member'));
    assert.deepEqual(found.users[1], []);
  } finally {
    await ctx.close();
  }
});

test('without the usage query (404): the same users, from the tables that can name the object', async () => {
  const { startEmulator } = await import('../../src/emulator/index.js');
  const { startMeddler } = await import('../helpers/meddler.js');
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  const asked: string[] = [];
  const proxy = await startMeddler(emu.url, async (req) => {
    if (!req.url?.startsWith('/api/v2/monitor/system/object/usage')) return;
    asked.push(req.url);
    return { status: 404, body: JSON.stringify({ http_method: 'GET', status: 'error', http_status: 404, error: -3 }) };
  });
  const env = { CMDB_CONFIG_DIR: tempDir('cmdb-users-'), CMDB_HOST: proxy.url, CMDB_TOKEN: emu.token };
  const ctx = runContext(captureIO({}), env, {});
  try {
    const objects = [
      { vdom: 'root', table: 'firewall/address', key: 'lan-net' },
      { vdom: 'root', table: 'firewall/address', key: 'dhcp-pool' },
      { vdom: 'root', table: 'firewall.schedule/recurring', key: 'always' },
    ];
    const found = await findUsers(ctx.device(), objects);
    assert.equal(found.source, 'tables');
    assert.equal(asked.length, 1, 'the first refusal says the query is not there: it is not asked again');
    const lan = (found.users[0] ?? []).map((u) => `${u.table} ${u.key} ${u.field} ${u.vdom}`).sort();
    assert.deepEqual(lan, [
      'firewall/addrgrp internal-nets member root',
      'firewall/policy 1 srcaddr root',
      'firewall/policy 3 srcaddr root',
    ]);
    assert.deepEqual(found.users[1], []);
    assert.ok((found.users[2] ?? []).every((u) => u.vdom === 'root' && u.table === 'firewall/policy'));
    // The same objects from the device's own query: the same users.
    const direct = runContext(captureIO({}), { ...env, CMDB_HOST: emu.url }, {});
    try {
      const fromDevice = await findUsers(direct.device(), objects);
      assert.equal(fromDevice.source, 'device');
      assert.deepEqual((fromDevice.users[0] ?? []).map((u) => `${u.table} ${u.key} ${u.field} ${u.vdom}`).sort(), lan);
    } finally {
      await direct.close();
    }
  } finally {
    await ctx.close();
    await proxy.close();
    await emu.close();
  }
});
