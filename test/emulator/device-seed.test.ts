// The demo seed of the tables administrators manage every day: consistent, valid, ordered, in the backup.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findTable } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { validateObject } from '../../src/emulator/validate.js';
import { call, CMDB, get, item, start, type Json } from './helpers.js';

const TABLES = [
  'system/interface',
  'firewall/address',
  'firewall/addrgrp',
  'firewall.service/custom',
  'firewall.service/group',
  'firewall.schedule/recurring',
  'firewall/policy',
  'router/static',
  'user/local',
];

type Obj = Record<string, Json>;
const namesOf = (list: Obj[]) => list.map((entry) => entry.name as string);

describe('the demo seed of the everyday tables', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start();
  });
  after(() => emu.close());
  const objects = (path: string, vdom = 'root') => emu.objects(path, vdom) as Obj[];

  it('fills each of them in the management VDOM, fewer in the second (user/local only in the first)', () => {
    for (const path of TABLES) {
      assert.ok(objects(path).length > 0, path);
      if (path !== 'user/local')
        assert.ok(
          objects(path, 'dmz').length > 0 && objects(path, 'dmz').length <= objects(path).length,
          `${path} dmz`,
        );
    }
  });

  it('is stored as the device stores a valid body (checked and normalised, nothing changes)', () => {
    for (const path of TABLES) {
      const table = findTable(path)!;
      for (const vdom of ['root', 'dmz']) {
        for (const object of objects(path, vdom))
          assert.deepEqual(validateObject(table.fields, object, '', path), object, `${path} ${vdom}`);
      }
    }
  });

  it('interfaces port1..port4 with an address and its mask, allowaccess, type and their VDOM', () => {
    const ports = objects('system/interface');
    assert.deepEqual(namesOf(ports), ['port1', 'port2', 'port3', 'port4']);
    for (const port of ports) {
      assert.match(port.ip, /^\d+\.\d+\.\d+\.\d+ 255\.255\.255\.\d+$/);
      assert.equal(port.type, 'physical');
      assert.equal(port.vdom, 'root');
      assert.ok(port.allowaccess.split(' ').includes('ping'));
    }
    assert.ok(
      objects('system/interface', 'dmz').every((port) => port.vdom === 'dmz' && !namesOf(ports).includes(port.name)),
    );
  });

  it('addresses of every kind, groups, services, the schedule always', () => {
    const addresses = objects('firewall/address');
    assert.deepEqual(new Set(addresses.map((a) => a.type)), new Set(['ipmask', 'fqdn', 'iprange']));
    for (const name of ['all', 'lan-net', 'dmz-net', 'servers-net']) assert.ok(namesOf(addresses).includes(name), name);
    assert.equal(addresses.find((a) => a.name === 'lan-net')!.subnet, '192.168.1.0 255.255.255.0');
    assert.ok(objects('firewall/addrgrp').every((group) => group.member.length > 0));
    assert.ok(namesOf(objects('firewall.schedule/recurring')).includes('always'));
    assert.ok(objects('firewall.service/group').every((group) => group.member.length > 0));
  });

  it('policies and routes name only interfaces, addresses, services and schedules of their VDOM', () => {
    for (const vdom of ['root', 'dmz']) {
      const interfaces = new Set(namesOf(objects('system/interface', vdom)));
      const addresses = new Set([
        ...namesOf(objects('firewall/address', vdom)),
        ...namesOf(objects('firewall/addrgrp', vdom)),
      ]);
      const services = new Set([
        ...namesOf(objects('firewall.service/custom', vdom)),
        ...namesOf(objects('firewall.service/group', vdom)),
      ]);
      const schedules = new Set(namesOf(objects('firewall.schedule/recurring', vdom)));
      for (const policy of objects('firewall/policy', vdom)) {
        const where = `${vdom} policy ${policy.policyid}`;
        for (const field of ['srcintf', 'dstintf'])
          for (const { name } of policy[field]) assert.ok(interfaces.has(name), `${where} ${field} ${name}`);
        for (const field of ['srcaddr', 'dstaddr'])
          for (const { name } of policy[field]) assert.ok(addresses.has(name), `${where} ${field} ${name}`);
        for (const { name } of policy.service) assert.ok(services.has(name), `${where} service ${name}`);
        assert.ok(schedules.has(policy.schedule), where);
        assert.ok(['accept', 'deny'].includes(policy.action), where);
        assert.ok(['enable', 'disable'].includes(policy.nat) && policy.logtraffic, where);
      }
      for (const group of objects('firewall/addrgrp', vdom))
        for (const { name } of group.member) assert.ok(addresses.has(name), `${vdom} addrgrp ${name}`);
      for (const group of objects('firewall.service/group', vdom))
        for (const { name } of group.member) assert.ok(services.has(name), `${vdom} service group ${name}`);
      for (const route of objects('router/static', vdom))
        assert.ok(route.device === '' || interfaces.has(route.device), `${vdom} route ${route['seq-num']}`);
    }
  });

  it("keeps the policies in the device's order, which is not their id order, and move changes it", async () => {
    const order = async () => (await get(emu, `${CMDB}/firewall/policy`)).json.results.map((p: Obj) => p.policyid);
    assert.deepEqual(await order(), [1, 3, 2, 5, 4]);
    assert.equal((await call(emu, 'PUT', `${item('firewall/policy', 4)}?action=move&before=1`)).status, 200);
    assert.deepEqual(await order(), [4, 1, 3, 2, 5]);
    assert.equal((await call(emu, 'PUT', `${item('firewall/policy', 4)}?action=move&after=5`)).status, 200);
    assert.deepEqual(await order(), [1, 3, 2, 5, 4]);
  });

  it('static routes have integer keys; a local user reads back with its password as ENC', async () => {
    const route = (await get(emu, item('router/static', 1))).json.results[0];
    assert.equal(route['seq-num'], 1);
    assert.equal(route.dst, '0.0.0.0 0.0.0.0');
    assert.equal(route.blackhole, 'disable');
    const [user] = (await get(emu, `${CMDB}/user/local`)).json.results;
    assert.match(user.passwd, /^ENC \S+$/);
  });

  it('appears in the backup: interfaces, addresses, policies in their order with their members, the password encrypted', async () => {
    const reply = await get(emu, '/api/v2/monitor/system/config/backup?scope=global');
    assert.equal(reply.status, 200);
    const text = reply.text;
    const section = (name: string) => {
      const start = text.indexOf(`config ${name}\n`);
      assert.ok(start >= 0, name);
      return text.slice(start, text.indexOf('\nend\n', start));
    };
    const policies = section('firewall policy');
    assert.deepEqual(
      [...policies.matchAll(/^ {4}edit (\d+)$/gm)].map((m) => Number(m[1])),
      [1, 3, 2, 5, 4],
    );
    assert.match(
      policies,
      /^ {4}edit 1\n {8}set name "lan-to-internet"\n[\s\S]*? {8}set srcintf "port1"\n {8}set dstintf "port2"\n {8}set srcaddr "lan-net"\n {8}set dstaddr "all"\n/m,
    );
    assert.match(policies, / {8}set service "Web Access"\n/);
    assert.match(
      section('system interface'),
      /edit "port1"\n[\s\S]*? {8}set ip 192\.168\.1\.99 255\.255\.255\.0\n[\s\S]*? {8}set allowaccess ping https ssh http fgfm\n/,
    );
    assert.match(
      section('firewall address'),
      /edit "lan-net"\n[\s\S]*? {8}set subnet 192\.168\.1\.0 255\.255\.255\.0\n/,
    );
    assert.match(section('firewall addrgrp'), /edit "internal-nets"\n[\s\S]*? {8}set member "lan-net" "servers-net"\n/);
    assert.match(section('router static'), /edit 1\n[\s\S]*? {8}set gateway 203\.0\.113\.1\n/);
    assert.match(section('user local'), /edit "alice"\n[\s\S]*? {8}set passwd ENC \S+\n/);
  });
});
