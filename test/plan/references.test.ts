// What the values of an object name, read with the shipped catalogue's references; where a named
// object lives; the words of the reference library's messages; the required fields a body lacks.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { allTables, findTable } from '../../src/catalogue/index.js';
import { referencesOf, tablesNamedBy, valuesAt } from '../../src/catalogue/references.js';
import {
  evaluatesTopDown,
  missingRequired,
  refusedReferenceMessage,
  usedByMessage,
  whereOf,
} from '../../src/plan/references/index.js';
import { CHAIN, members } from './references-fixtures.js';

const table = (path: string) => findTable(path)!;
/** `path=value -> table, table` for each reference, as the tests compare them. */
const names = (path: string, object: Record<string, unknown>) =>
  referencesOf(table(path), object).map(
    (r) =>
      `${r.field} ${r.path}=${r.value} -> ${r.targets.map((t) => (t.field === 'name' || t.field === 'id' ? t.table : `${t.table}:${t.field}`)).join(', ')}`,
  );

describe('references of an object', () => {
  test('single fields, member lists, in the order of the object', () => {
    assert.deepEqual(names('router/static', CHAIN['router/static'][0]), ['device device=vlan100 -> system/interface']);
    assert.deepEqual(names('firewall/policy', CHAIN['firewall/policy'][0]), [
      'srcintf srcintf[].name=vlan100 -> system/interface, system/zone, system/sdwan:zone.name',
      'dstintf dstintf[].name=port2 -> system/interface, system/zone, system/sdwan:zone.name',
      'srcaddr srcaddr[].name=outer -> firewall/address, firewall/addrgrp, system/external-resource',
      'dstaddr dstaddr[].name=all -> firewall/address, firewall/addrgrp, firewall/vip, firewall/vipgrp, system/external-resource',
      'service service[].name=ALL -> firewall.service/custom, firewall.service/group',
      'schedule schedule=always -> firewall.schedule/onetime, firewall.schedule/recurring, firewall.schedule/group',
    ]);
    assert.deepEqual(names('firewall/addrgrp', CHAIN['firewall/addrgrp'][0]), [
      'member member[].name=inner -> firewall/address, firewall/addrgrp',
      'member member[].name=web -> firewall/address, firewall/addrgrp',
    ]);
  });

  test('"", [], 0 and an interface\'s `any` name nothing; `ssl.root` is an interface', () => {
    assert.deepEqual(
      names('firewall/policy', {
        policyid: 1,
        srcintf: members('any'),
        dstintf: members('ssl.root'),
        srcaddr: [],
        'av-profile': '',
        'reputation-minimum': 0,
        'src-vendor-mac': [{ id: 0 }, { id: 7 }],
      }),
      [
        'dstintf dstintf[].name=ssl.root -> system/interface, system/zone, system/sdwan:zone.name',
        'src-vendor-mac src-vendor-mac[].id=7 -> firewall/vendor-mac',
      ],
    );
    // `any` is a word of interface references only.
    assert.deepEqual(names('firewall/addrgrp', { name: 'g', member: members('any') }), [
      'member member[].name=any -> firewall/address, firewall/addrgrp',
    ]);
  });

  test('multi-value fields split on spaces; integer references as numbers', () => {
    assert.deepEqual(names('system/ha', { monitor: 'port1  port2', 'session-sync-dev': '' }), [
      'monitor monitor=port1 -> system/interface',
      'monitor monitor=port2 -> system/interface',
    ]);
    assert.deepEqual(names('antivirus/profile', { name: 'av', 'analytics-wl-filetype': 3 }), [
      'analytics-wl-filetype analytics-wl-filetype=3 -> dlp/filepattern',
    ]);
  });

  test('fields of sub-table entries at any depth, under their top-level field', () => {
    const refs = referencesOf(table('system/interface'), {
      name: 'wan',
      ipv6: [{ 'ip6-upstream-interface': 'port1', 'ip6-delegated-prefix-list': [{ 'upstream-interface': 'port2' }] }],
    });
    assert.deepEqual(
      refs.map((r) => [r.field, r.path, r.value]),
      [
        ['ipv6', 'ipv6[].ip6-upstream-interface', 'port1'],
        ['ipv6', 'ipv6[].ip6-delegated-prefix-list[].upstream-interface', 'port2'],
      ],
    );
  });

  test('a mark on a list itself names its entries, read once when its entries are marked too', () => {
    assert.deepEqual(names('user/domain-controller', { name: 'dc', 'ldap-server': members('ldap1') }), [
      'ldap-server ldap-server[].name=ldap1 -> user/ldap',
    ]);
    assert.deepEqual(names('router/rip', { interface: [{ name: 'port1', 'auth-keychain': 'k1' }] }), [
      'interface interface[].name=port1 -> system/interface',
      'interface interface[].auth-keychain=k1 -> router/key-chain',
    ]);
  });

  test("a sub-table's own entries are not references to themselves; its other entries' fields are", () => {
    assert.deepEqual(
      names('system/sdwan', {
        zone: members('z1'),
        members: [{ 'seq-num': 1, interface: 'port1', zone: 'z1' }],
        'health-check': [{ name: 'hc', members: [{ 'seq-num': 1 }] }],
      }),
      [
        'members members[].interface=port1 -> system/interface',
        'members members[].zone=z1 -> system/sdwan:zone.name',
        'health-check health-check[].members[].seq-num=1 -> system/sdwan:members.seq-num',
      ],
    );
  });

  test('the values at a target field: a key, or the entries of a sub-table path', () => {
    assert.deepEqual(valuesAt({ name: 'a' }, 'name'), ['a']);
    assert.deepEqual(valuesAt({ zone: members('z1', 'z2'), members: [] }, 'zone.name'), ['z1', 'z2']);
    assert.deepEqual(valuesAt({ tags: 'odd' }, 'tags.name'), []);
  });

  test('the tables a table can name', () => {
    assert.deepEqual(tablesNamedBy(table('router/static')), [
      'system/interface',
      'firewall/address',
      'firewall/addrgrp',
      'firewall/internet-service',
      'firewall/internet-service-custom',
    ]);
  });
});

describe('where named objects live', () => {
  test('a global table is looked for once for the device; every other scope in the VDOM', () => {
    assert.equal(whereOf(table('system/sdn-connector'), 'dmz'), null);
    assert.equal(whereOf(table('firewall/address'), 'dmz'), 'dmz');
    assert.equal(whereOf(table('system/interface'), 'dmz'), 'dmz');
    assert.equal(whereOf(table('firewall/address'), null), null);
  });

  test('the tables evaluated top-down: 17 policy tables and three more', () => {
    const topDown = allTables().filter(evaluatesTopDown);
    assert.equal(topDown.length, 20);
    for (const path of ['firewall/policy', 'router/policy', 'firewall/central-snat-map', 'firewall/acl6'])
      assert.ok(evaluatesTopDown(table(path)), path);
    for (const path of ['router/static', 'firewall/address', 'firewall/policy-reflection'])
      assert.ok(!table(path) || !evaluatesTopDown(table(path)), path);
  });
});

describe('explanations', () => {
  test('a refused reference names the field, the value and every table it was looked for in', () => {
    const [srcaddr] = referencesOf(table('firewall/central-snat-map'), { 'orig-addr': members('nope') });
    assert.equal(
      refusedReferenceMessage(srcaddr.field, srcaddr.value, srcaddr.targets),
      'orig-addr names "nope", which is not in firewall/address or firewall/addrgrp',
    );
    const [device] = referencesOf(table('router/static'), { device: 'vlan9' });
    assert.equal(
      refusedReferenceMessage(device.field, device.value, device.targets),
      'device names "vlan9", which is not in system/interface',
    );
  });

  test('an object in use names each user, with its VDOM where asked', () => {
    const users = [
      { vdom: 'root', table: 'firewall/policy', key: 1, field: 'srcaddr' },
      { vdom: 'root', table: 'firewall/addrgrp', key: 'internal-nets', field: 'member' },
    ];
    assert.equal(
      usedByMessage('lan-net', users),
      'lan-net is used by firewall/policy 1 (srcaddr) and firewall/addrgrp internal-nets (member)',
    );
    assert.equal(
      usedByMessage(
        'port1',
        [...users.slice(0, 1), { vdom: null, table: 'system/ha', key: null, field: 'monitor' }],
        true,
      ),
      'port1 is used by firewall/policy 1 (srcaddr, vdom root) and system/ha (monitor)',
    );
  });

  test("the catalogue's required fields a create lacks, leaving out those the device fills itself", () => {
    assert.deepEqual(missingRequired(table('router/static'), { 'seq-num': 1 }), ['device']);
    assert.deepEqual(missingRequired(table('router/static'), { 'seq-num': 1, device: 'port1' }), []);
    assert.deepEqual(missingRequired(table('firewall/addrgrp'), { name: 'g', member: [] }), [
      'member',
      'exclude-member',
    ]);
    // A binding's `ip` is required and defaults to 0.0.0.0: the device fills it.
    assert.equal(table('firewall.ipmacbinding/table').fields.ip.required, true);
    assert.deepEqual(missingRequired(table('firewall.ipmacbinding/table'), { 'seq-num': 1 }), []);
  });
});
