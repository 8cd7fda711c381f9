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
