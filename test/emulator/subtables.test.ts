import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, start } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const ACL = 'router/access-list';

describe('sub-table paths', () => {
  it('reads the entries of a singleton list field, and one of them', async () => {
    const all = await get(emu, `${CMDB}/web-proxy/explicit/pac-policy`);
    assert.equal(all.status, 200);
    assert.ok(Array.isArray(all.json.results) && all.json.results.length > 0);
    const first = all.json.results[0];
    const one = await get(emu, `${CMDB}/web-proxy/explicit/pac-policy/${first.policyid}`);
    assert.deepEqual(one.json.results, [first]);
  });

  it('refuses what is no sub-table entry: 404 for an unknown list or entry, 405 for a POST onto an entry, 400 for an action', async () => {
    assert.equal((await get(emu, `${item(ACL, 'deny-all')}/comments`)).status, 404);
    assert.equal((await get(emu, `${item(ACL, 'deny-all')}/rule/first`)).status, 404);
    assert.equal((await get(emu, `${item(ACL, 'no-such')}/rule`)).status, 404);
    assert.equal(
      (await call(emu, 'POST', `${item(ACL, 'deny-all')}/rule/1`, { body: { action: 'permit' } })).status,
      405,
    );
    assert.equal((await call(emu, 'PUT', `${item(ACL, 'deny-all')}/rule`, { body: { action: 'permit' } })).status, 405);
    assert.equal((await call(emu, 'POST', `${item(ACL, 'deny-all')}/rule?action=clone`, { body: {} })).status, 400);
  });

  it('checks an appended entry against the sub-table fields (HTTP 500, -651) and changes nothing', async () => {
    const before = (await get(emu, item(ACL, 'deny-all'))).json.results[0].rule;
    const bad = await call(emu, 'POST', `${item(ACL, 'deny-all')}/rule`, { body: { action: 'allow' } });
    assert.deepEqual([bad.status, bad.json.error], [500, -651]);
    assert.deepEqual((await get(emu, item(ACL, 'deny-all'))).json.results[0].rule, before);
  });

  it('answers revision_changed false for a PUT of an entry that changes nothing', async () => {
    const [rule] = (await get(emu, item(ACL, 'deny-all'))).json.results[0].rule;
    const same = await call(emu, 'PUT', `${item(ACL, 'deny-all')}/rule/${rule.id}`, { body: { action: rule.action } });
    assert.equal(same.status, 200);
    assert.equal(same.json.revision_changed, false);
  });
});
