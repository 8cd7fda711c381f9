// A plan's references checked before anything is sent (CLI.md "The plan is checked before anything is
// sent"): what to read, names nobody has, deletes of objects a kept object still names, what could not
// be checked. Real catalogue references, the shipped factory objects and databases.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { factoryObjects, isFactoryObject } from '../../src/catalogue/factory.js';
import {
  checkNeeds,
  checkPlan,
  type CheckOptions,
  type RefStep,
  type TableReading,
} from '../../src/plan/references/index.js';
import { chainCreates, create, members, remove, update } from './references-fixtures.js';

const OPTIONS: CheckOptions = { isFactory: isFactoryObject, databases: factoryObjects().databases };
const ports = ['port1', 'port2', 'port3', 'port4'].map((name) => ({ name, vdom: 'root', type: 'physical' }));
const read = (table: string, content: TableReading['content'], vdom: string | null = 'root'): TableReading => ({
  vdom,
  table,
  content,
});
/** A device with only its factory objects (the physical ports, as the emulator has them). */
const EMPTY: TableReading[] = [
  read('system/interface', ports),
  read('system/zone', []),
  read('system/sdwan', { zone: members('virtual-wan-link') }),
  read('firewall/address', [{ name: 'all' }]),
  read('firewall/addrgrp', []),
  read('system/external-resource', []),
  read('firewall/vip', []),
  read('firewall/vipgrp', []),
];
const messages = (steps: RefStep[], device: TableReading[], options: Parameters<typeof checkPlan>[2] = {}) =>
  checkPlan(steps, device, { ...OPTIONS, ...options }).problems.map((p) => p.message);

describe('what the check reads', () => {
  test('a restore of the chain needs only the tables of the names it does not bring: its ports', () => {
    assert.deepEqual(checkNeeds(chainCreates(), OPTIONS), {
      keys: [
        { vdom: 'root', table: 'system/interface' },
        { vdom: 'root', table: 'system/zone' },
        { vdom: 'root', table: 'system/sdwan' },
      ],
      users: [],
    });
    assert.deepEqual(checkPlan(chainCreates(), EMPTY, OPTIONS), { problems: [], unchecked: [] });
  });

  test('factory objects, databases, `any` and `ssl.root` need no read', () => {
    const policy = create('firewall/policy', {
      policyid: 3,
      srcintf: members('any'),
      dstintf: members('ssl.root'),
      srcaddr: members('all'),
      dstaddr: members('all'),
      service: members('HTTPS'),
      schedule: 'always',
      'src-vendor-mac': [{ id: 77 }],
      'reputation-minimum': 3,
      'ssl-ssh-profile': 'certificate-inspection',
    });
    assert.deepEqual(checkNeeds([policy], OPTIONS), { keys: [], users: [] });
    assert.deepEqual(checkPlan([policy], [], OPTIONS), { problems: [], unchecked: [] });
  });

  test('a global table is read once; a global object naming a per-VDOM table reads it in every VDOM; deletes need users', () => {
    const steps = [
      create('firewall/address', { name: 'cloud', type: 'dynamic', sdn: 'aws' }, 'dmz'),
      update('system/ha', null, { monitor: { from: '', to: 'port1 vlan9' } }, null),
      remove('firewall/address', 'old'),
    ];
    assert.deepEqual(checkNeeds(steps, OPTIONS), {
      keys: [
        { vdom: null, table: 'system/sdn-connector' },
        { vdom: null, table: 'system/interface' },
      ],
      users: [{ vdom: 'root', table: 'firewall/address', key: 'old' }],
    });
  });
});

describe('names nobody has', () => {
  test('one line each, naming every table looked in', () => {
    const steps = [
      create('firewall/policy', { policyid: 7, srcaddr: members('nope'), dstaddr: members('all') }),
      create('router/static', { 'seq-num': 2, device: 'vlan9' }),
    ];
    assert.deepEqual(messages(steps, EMPTY), [
      'firewall/policy 7 srcaddr names "nope": not in firewall/address, firewall/addrgrp or system/external-resource, on the device or in the document',
      'router/static 2 device names system/interface "vlan9": not on the device, not in the document',
    ]);
    const [problem] = checkPlan(steps, EMPTY, OPTIONS).problems;
    assert.deepEqual(
      { ...problem, message: undefined, targets: problem.targets.map((t) => t.table) },
      {
        kind: 'missing',
        vdom: 'root',
        table: 'firewall/policy',
        key: 7,
        field: 'srcaddr',
        path: 'srcaddr[].name',
        value: 'nope',
        targets: ['firewall/address', 'firewall/addrgrp', 'system/external-resource'],
        message: undefined,
      },
    );
  });

  test('an update is judged by its new values only; its VDOM is named where asked', () => {
    const steps = [
      update('firewall/policy', 4, { dstaddr: { from: members('gone'), to: members('all', 'also-gone') } }, 'dmz'),
    ];
    const device = EMPTY.map((r) => ({ ...r, vdom: r.vdom && 'dmz' }));
    assert.deepEqual(messages(steps, device, { showVdom: true }), [
      'firewall/policy 4 (vdom dmz) dstaddr names "also-gone": not in firewall/address, firewall/addrgrp, firewall/vip, firewall/vipgrp or system/external-resource, on the device or in the document',
    ]);
  });

  test('integer keys compare by value; a name the device has in another VDOM does not count', () => {
    const steps = [
      create('antivirus/profile', { name: 'av1', 'analytics-wl-filetype': 3, 'analytics-bl-filetype': '1' }),
    ];
    const device = [read('dlp/filepattern', [{ id: 1 }]), read('dlp/filepattern', [{ id: 3 }], 'dmz')];
    assert.deepEqual(messages(steps, device), [
      'antivirus/profile av1 analytics-wl-filetype names dlp/filepattern 3: not on the device, not in the document',
    ]);
  });

  test('a global object may name an interface of any VDOM', () => {
    const steps = [update('system/ha', null, { monitor: { from: '', to: 'port1 vlan9 vlan10' } }, null)];
    const device = [read('system/interface', ports), read('system/interface', [{ name: 'vlan9', vdom: 'dmz' }], 'dmz')];
    assert.deepEqual(messages(steps, device), [
      'system/ha monitor names system/interface "vlan10": not on the device, not in the document',
    ]);
  });

  test('sub-table entries count: an SD-WAN zone the device has, or the plan writes; a zone the plan removes does not', () => {
    const policy = (zone: string) =>
      create('firewall/policy', { policyid: 9, srcintf: members(zone), dstintf: members('port2') });
    assert.deepEqual(messages([policy('virtual-wan-link')], EMPTY), []);
    const device = EMPTY.map((r) => (r.table === 'system/sdwan' ? read('system/sdwan', { zone: members('z1') }) : r));
    assert.deepEqual(messages([policy('z1')], device), []);
    const rewrite = update('system/sdwan', null, { zone: { from: members('z1'), to: members('z2') } });
    assert.deepEqual(messages([rewrite, policy('z2')], device), []);
    assert.deepEqual(messages([rewrite, policy('z1')], device), [
      'firewall/policy 9 srcintf names "z1": not in system/interface, system/zone or system/sdwan zone, on the device or in the document',
    ]);
  });

  test('a table that could not be read is not checked, and said once', () => {
    const steps = [
      create('firewall/policy', { policyid: 7, srcaddr: members('nope') }),
      create('firewall/policy', { policyid: 8, srcaddr: members('nope2'), dstaddr: members('lan-net') }),
    ];
    const device = EMPTY.map((r) => (r.table === 'firewall/addrgrp' ? read('firewall/addrgrp', null) : r));
    assert.deepEqual(checkPlan(steps, device, OPTIONS), {
      problems: [],
      unchecked: [
        {
          vdom: 'root',
          table: 'firewall/addrgrp',
          message: 'firewall/addrgrp (vdom root) could not be read: the references to it were not checked',
        },
      ],
    });
    // Found in a table that was read: no note.
    const found = [create('firewall/policy', { policyid: 9, srcaddr: members('all') })];
    assert.deepEqual(checkPlan(found, device, { databases: [] }).unchecked, []);
  });
});

describe('deletes of objects still named', () => {
  const DEVICE: TableReading[] = [
    ...EMPTY.filter((r) => r.table !== 'firewall/address' && r.table !== 'firewall/addrgrp'),
    read('firewall/address', [{ name: 'all' }, { name: 'lan-net' }, { name: 'web' }]),
    read('firewall/addrgrp', [{ name: 'internal-nets', member: members('lan-net', 'web') }]),
    read('firewall/policy', [{ policyid: 1, srcaddr: members('lan-net'), dstaddr: members('all') }]),
    read('router/static', [{ 'seq-num': 1, device: 'port1', dstaddr: 'web' }]),
  ];

  test('a prune that would leave kept objects naming the deleted one: each user listed', () => {
    assert.deepEqual(messages([remove('firewall/address', 'lan-net')], DEVICE), [
      'firewall/addrgrp internal-nets member names firewall/address "lan-net", which the plan deletes',
      'firewall/policy 1 srcaddr names firewall/address "lan-net", which the plan deletes',
    ]);
    const [problem] = checkPlan([remove('firewall/address', 'lan-net')], DEVICE, OPTIONS).problems;
    assert.deepEqual(
      { ...problem, message: undefined },
      {
        kind: 'in-use',
        vdom: 'root',
        table: 'firewall/addrgrp',
        key: 'internal-nets',
        field: 'member',
        path: 'member',
        value: 'lan-net',
        targets: [{ table: 'firewall/address', field: 'name' }],
        message: undefined,
      },
    );
  });

  test('no problem when the users are deleted too, or updated to name something else', () => {
    assert.deepEqual(
      messages(
        [
          remove('firewall/policy', 1),
          remove('firewall/address', 'lan-net'),
          remove('firewall/addrgrp', 'internal-nets'),
        ],
        DEVICE,
      ),
      [],
    );
    const steps = [
      update('firewall/policy', 1, { srcaddr: { from: members('lan-net'), to: members('web') } }),
      remove('firewall/addrgrp', 'internal-nets'),
      remove('firewall/address', 'lan-net'),
    ];
    assert.deepEqual(messages(steps, DEVICE), []);
  });

  test('an update or create that still names it is listed with its own path', () => {
    const steps = [
      update('firewall/policy', 1, { srcaddr: { from: members('lan-net'), to: members('lan-net', 'web') } }),
      create('router/static', { 'seq-num': 2, device: 'port1', dstaddr: 'lan-net' }),
      remove('firewall/addrgrp', 'internal-nets'),
      remove('firewall/address', 'lan-net'),
    ];
    const problems = checkPlan(steps, DEVICE, OPTIONS).problems;
    assert.deepEqual(
      problems.map((p) => [p.kind, p.path, p.message]),
      [
        [
          'in-use',
          'srcaddr[].name',
          'firewall/policy 1 srcaddr names firewall/address "lan-net", which the plan deletes',
        ],
        ['in-use', 'dstaddr', 'router/static 2 dstaddr names firewall/address "lan-net", which the plan deletes'],
      ],
    );
  });

  test("the users may come from the device's usage query; unknown users are said once", () => {
    const users = [{ vdom: 'root', table: 'firewall/policy', key: 1, field: 'srcaddr' }];
    assert.deepEqual(messages([remove('firewall/address', 'lan-net')], [], { usersOf: () => users }), [
      'firewall/policy 1 srcaddr names firewall/address "lan-net", which the plan deletes',
    ]);
    const steps = [remove('firewall/address', 'lan-net'), remove('firewall/address', 'web')];
    const unread = [...DEVICE.filter((r) => r.table !== 'firewall/policy'), read('firewall/policy', null)];
    assert.deepEqual(checkPlan(steps, unread, OPTIONS), {
      problems: [],
      unchecked: [
        {
          vdom: 'root',
          table: 'firewall/address',
          message:
            'the objects that can name firewall/address (vdom root) could not all be read: its deletes were not checked',
        },
      ],
    });
  });

  test('a create naming an object the plan deletes', () => {
    const steps = [
      create('firewall/policy', { policyid: 8, srcaddr: members('web') }),
      remove('firewall/address', 'web'),
    ];
    assert.deepEqual(messages(steps, DEVICE), [
      'firewall/policy 8 srcaddr names firewall/address "web", which the plan deletes',
      'firewall/addrgrp internal-nets member names firewall/address "web", which the plan deletes',
      'router/static 1 dstaddr names firewall/address "web", which the plan deletes',
    ]);
  });
});
