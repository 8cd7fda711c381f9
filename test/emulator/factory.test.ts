// Every seed holds the factory objects a device has after a reset (../shared/data/factory-objects-6.4.14.json),
// the empty one included: exactly those, the model's ports and the VDOMs, answered with q_static.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { factoryObjects } from '../../src/catalogue/factory.js';
import { allTables, findTable } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, type Json, keysOf, start } from './helpers.js';

describe('the factory objects of an empty seed', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start({ seed: 'empty' });
  });
  after(() => emu.close());

  const keys = (path: string, vdom: string) =>
    (emu.objects(path, vdom) as Json[]).map((object) => String(object[findTable(path)!.key!]));

  it("holds exactly the list's objects in every table it names, in each VDOM (the administrator in the first)", () => {
    for (const [path, expected] of factoryObjects().objects) {
      const table = findTable(path)!;
      for (const vdom of table.scope === 'global' ? ['root'] : ['root', 'dmz']) {
        const want =
          path === 'system/admin' && vdom !== 'root' ? [] : path === 'system/vdom' ? ['root', 'dmz'] : expected;
        assert.deepEqual(keys(path, vdom), want, `${path} in ${vdom}`);
      }
    }
  });

  it("and the model's ports, the SD-WAN zone; every other keyed table is empty", () => {
    assert.deepEqual(keys('system/interface', 'root'), ['port1', 'port2', 'port3', 'port4']);
    assert.deepEqual(keys('system/interface', 'dmz'), ['port5', 'port6']);
    assert.deepEqual(keysOf((emu.objects('system/sdwan') as Json).zone, 'name'), ['virtual-wan-link']);
    const factory = factoryObjects().objects;
    for (const table of allTables()) {
      if (table.singleton || factory.has(table.path) || table.path === 'system/interface') continue;
      assert.deepEqual(emu.objects(table.path, 'root'), [], table.path);
    }
  });

  it('answers them with q_static and refuses to delete them; what they name is there', async () => {
    const [always] = (await get(emu, `${item('firewall.schedule/recurring', 'always')}?with_meta=1`)).json.results;
    assert.equal(always.q_static, true);
    const port = (await get(emu, `${item('system/interface', 'port3')}?with_meta=1`)).json.results[0];
    assert.equal(port.q_static, true);
    for (const [path, key] of [
      ['firewall.service/custom', 'DNS'],
      ['system/interface', 'port4'],
      ['system/vdom', 'dmz'],
    ]) {
      const reply = await call(emu, 'DELETE', item(path, key));
      assert.deepEqual([reply.status, reply.json.error], [500, -23], `${path} ${key}`);
    }
    // The factory groups name factory services only; the inspection profiles factory certificates.
    const group = (await get(emu, item('firewall.service/group', 'Web Access'))).json.results[0];
    assert.deepEqual(keysOf(group.member, 'name'), ['DNS', 'HTTP', 'HTTPS']);
    const inspection = (await get(emu, item('firewall/ssl-ssh-profile', 'deep-inspection'))).json.results[0];
    assert.equal(inspection.caname, 'Fortinet_CA_SSL');
    assert.equal((await get(emu, item('vpn.certificate/local', 'Fortinet_CA_SSL'))).status, 200);
  });

  it('a policy naming only factory objects is created on an empty device', async () => {
    const reply = await call(emu, 'POST', `${CMDB}/firewall/policy`, {
      body: {
        name: 'first',
        srcintf: [{ name: 'port1' }],
        dstintf: [{ name: 'port2' }],
        srcaddr: [{ name: 'all' }],
        dstaddr: [{ name: 'all' }],
        schedule: 'always',
        service: [{ name: 'ALL' }],
      },
    });
    assert.equal(reply.status, 200, reply.text);
  });
});

describe('the demo seed', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start();
  });
  after(() => emu.close());

  it('holds the factory objects beside its own, its VDOMs in system/vdom', () => {
    const addresses = (emu.objects('firewall/address') as Json[]).map((a) => a.name);
    for (const name of ['all', 'none', 'FABRIC_DEVICE', 'lan-net', 'servers-net'])
      assert.ok(addresses.includes(name), name);
    assert.deepEqual(keysOf(emu.objects('system/vdom') as Json[], 'name'), ['root', 'dmz']);
  });

  it('its certificates (tables the API cannot create into) are factory objects of the seed, held once', async () => {
    const names = keysOf((await get(emu, `${CMDB}/certificate/local?vdom=dmz&with_meta=1`)).json.results, 'name');
    assert.ok(names.includes('vpn-portal') && names.includes('dmz-web') && names.includes('Fortinet_Factory'));
    const [portal] = (await get(emu, `${item('certificate/local', 'vpn-portal')}?with_meta=1`)).json.results;
    assert.equal(portal.q_static, true);
    const [lan] = (await get(emu, `${item('firewall/address', 'lan-net')}?with_meta=1`)).json.results;
    assert.equal(lan.q_static, false);
  });
});
