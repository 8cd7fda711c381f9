// Who names what, from tables read from a device: an object's users (`refs`' fallback, a `-23`
// explanation), the tables that can name a table, and what nothing names (`unused`) with its delete order.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { isFactoryObject } from '../../src/catalogue/factory.js';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { findUnused, usedByMessage, UsageIndex, type TableReading } from '../../src/plan/references/index.js';
import { members } from './references-fixtures.js';

const FACTORY = { isFactory: isFactoryObject };
/** The tables that can name a table, from the catalogue (what `refs` and `unused` read). */
const namingTables = (table: string) => SHIPPED_CATALOGUE.referrers(table).map((r) => r.table);
const read = (table: string, content: TableReading['content'], vdom: string | null = 'root'): TableReading => ({
  vdom,
  table,
  content,
});

describe('the users of an object', () => {
  const readings = [
    read('firewall/policy', [
      { policyid: 1, srcaddr: members('lan-net'), dstaddr: members('lan-net', 'all') },
      { policyid: 2, srcaddr: members('web'), dstaddr: members('all') },
    ]),
    read('firewall/addrgrp', [{ name: 'internal-nets', member: members('lan-net', 'web') }]),
    read('router/static', [{ 'seq-num': 1, device: 'port1', dstaddr: 'lan-net' }]),
    read('firewall/policy', [{ policyid: 1, srcaddr: members('lan-net') }], 'dmz'),
    read('system/ha', { monitor: 'port1 port2' }, null),
  ];
  const index = new UsageIndex(readings);

  test('one row per object and top-level field, in the order read, in the VDOM asked', () => {
    const users = index.usersOf('root', 'firewall/address', 'lan-net');
    assert.deepEqual(users, [
      { vdom: 'root', table: 'firewall/policy', key: 1, field: 'srcaddr' },
      { vdom: 'root', table: 'firewall/policy', key: 1, field: 'dstaddr' },
      { vdom: 'root', table: 'firewall/addrgrp', key: 'internal-nets', field: 'member' },
      { vdom: 'root', table: 'router/static', key: 1, field: 'dstaddr' },
    ]);
    assert.equal(
      usedByMessage('lan-net', users!),
      'lan-net is used by firewall/policy 1 (srcaddr), firewall/policy 1 (dstaddr), firewall/addrgrp internal-nets (member) and router/static 1 (dstaddr)',
    );
    assert.deepEqual(index.usersOf('dmz', 'firewall/address', 'lan-net'), [
      { vdom: 'dmz', table: 'firewall/policy', key: 1, field: 'srcaddr' },
    ]);
    assert.deepEqual(index.usersOf('root', 'firewall/address', 'nobody-uses-it'), []);
  });

  test('global objects naming a per-VDOM object are among its users (a singleton: key null)', () => {
    assert.deepEqual(index.usersOf('root', 'system/interface', 'port1'), [
      { vdom: 'root', table: 'router/static', key: 1, field: 'device' },
      { vdom: null, table: 'system/ha', key: null, field: 'monitor' },
    ]);
  });

  test('unknown (null) when a table that can name it could not be read there', () => {
    const unread = new UsageIndex([...readings, read('firewall/addrgrp', null), read('alertemail/setting', null)]);
    assert.equal(unread.usersOf('root', 'firewall/address', 'lan-net'), null);
    // Read in root only, and groups name no interface: those users are whole.
    assert.deepEqual(unread.usersOf('dmz', 'firewall/address', 'lan-net'), [
      { vdom: 'dmz', table: 'firewall/policy', key: 1, field: 'srcaddr' },
    ]);
    assert.deepEqual(unread.usersOf('root', 'system/interface', 'port2'), [
      { vdom: null, table: 'system/ha', key: null, field: 'monitor' },
    ]);
  });

  test('the tables that can name a table, from the catalogue', () => {
    const naming = namingTables('firewall/address');
    for (const table of ['firewall/policy', 'firewall/addrgrp', 'router/static', 'firewall/central-snat-map'])
      assert.ok(naming.includes(table), table);
    assert.ok(!naming.includes('firewall/address'));
    assert.ok(namingTables('system/sdwan').includes('firewall/policy'), 'through zone.name');
    assert.equal(
      SHIPPED_CATALOGUE.referrers('firewall/address'),
      SHIPPED_CATALOGUE.referrers('firewall/address'),
      'indexed once',
    );
    assert.deepEqual(namingTables('no/such-table'), []);
  });
});

describe('what nothing names', () => {
  const readings = [
    read('firewall/addrgrp', [
      { name: 'g1', member: members('b') },
      { name: 'g2', member: members('d') },
      { name: 'g3', member: members('g4') },
      { name: 'g4', member: members('g3') },
    ]),
    read('firewall/address', [
      { name: 'all' },
      { name: 'lan-net' },
      { name: 'b' },
      { name: 'c' },
      { name: 'd' },
      { name: 'marked', q_static: true },
    ]),
    read('firewall/policy', [{ policyid: 1, srcaddr: members('lan-net'), dstaddr: members('g2') }]),
  ];
  const asked = ['firewall/address', 'firewall/addrgrp'];

  test('unused counts what only unused objects name (a group and its members; two groups naming each other)', () => {
    const { unused, unread } = findUnused(readings, asked, FACTORY);
    assert.deepEqual(
      unused.map((o) => o.key),
      ['g1', 'g3', 'g4', 'b', 'c'],
    );
    assert.deepEqual(unused[0], { vdom: 'root', table: 'firewall/addrgrp', key: 'g1' });
    assert.deepEqual(unread, []);
  });

  test('the order to delete them: a group before its members, otherwise the reverse of the listing', () => {
    // g3 and g4 name each other: whichever goes first, the device refuses; the order met stands.
    assert.deepEqual(
      findUnused(readings, asked, FACTORY).deleteOrder.map((o) => o.key),
      ['c', 'g1', 'b', 'g3', 'g4'],
    );
  });

  test('a table not asked keeps its objects, and what they name is used', () => {
    assert.deepEqual(
      findUnused(readings, ['firewall/address'], FACTORY).unused.map((o) => o.key),
      ['c'],
    );
  });

  test('factory objects are never listed, and what they name is used', () => {
    const services = [
      read('firewall.service/custom', [{ name: 'HTTP' }, { name: 'HTTPS' }, { name: 'mine' }, { name: 'spare' }]),
      read('firewall.service/group', [{ name: 'Web Access', member: members('HTTP', 'HTTPS', 'mine') }]),
    ];
    assert.deepEqual(
      findUnused(services, ['firewall.service/custom', 'firewall.service/group'], FACTORY).unused.map((o) => o.key),
      ['spare'],
    );
  });

  test('per VDOM: a name in one VDOM does not use the object of another', () => {
    const two = [
      read('firewall/address', [{ name: 'x' }]),
      read('firewall/address', [{ name: 'x' }], 'dmz'),
      read('firewall/policy', [{ policyid: 1, srcaddr: members('x') }], 'dmz'),
    ];
    assert.deepEqual(findUnused(two, ['firewall/address'], FACTORY).unused, [
      { vdom: 'root', table: 'firewall/address', key: 'x' },
    ]);
  });

  test('tables that could not be read are returned, so that the caller can say so', () => {
    const { unread } = findUnused([...readings, read('router/static', null)], asked, FACTORY);
    assert.deepEqual(unread, [{ vdom: 'root', table: 'router/static' }]);
  });
});
