// The order references require (CLI.md "References between tables", "Order"), on the shipped
// catalogue's references: creates after what they name, deletes before what they name, circles opened.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { findTable } from '../../src/catalogue/index.js';
import { referencesOf } from '../../src/catalogue/references.js';
import { orderSteps, type OrderOptions, type RefStep } from '../../src/plan/references/index.js';
import {
  chainCreates,
  chainDeletes,
  chainObject,
  create,
  line,
  members,
  move,
  remove,
  update,
} from './references-fixtures.js';

const order = (steps: RefStep[], current?: OrderOptions['current']) => orderSteps(steps, { current }).steps.map(line);

describe('order of creates and updates', () => {
  test('a restore of the chain: each object after what it names, pulled just before its first user', () => {
    assert.deepEqual(order(chainCreates()), [
      'create system/interface vlan100',
      'create firewall/address lan-net',
      'create firewall/address web',
      'create firewall/addrgrp inner',
      'create firewall/addrgrp outer',
      'create firewall/policy 1',
      'create router/static 1',
    ]);
  });

  test('steps references do not order keep the given order, and are the same values', () => {
    const steps = [
      create('firewall/address', { name: 'b', subnet: '10.0.0.2 255.255.255.255' }),
      create('firewall/address', { name: 'a', subnet: '10.0.0.1 255.255.255.255' }),
      update('log.disk/setting', null, { status: { from: 'disable', to: 'enable' } }),
      create('router/static', { 'seq-num': 2, device: 'port1' }),
    ];
    const ordered = orderSteps(steps).steps;
    assert.equal(ordered.length, steps.length);
    for (const [i, step] of ordered.entries()) assert.equal(step, steps[i]);
  });

  test('global tables first where references do not decide', () => {
    const steps = [
      create('firewall/address', { name: 'a', subnet: '10.0.0.1 255.255.255.255' }),
      update('system/global', null, { hostname: { from: 'fw', to: 'fw1' } }, null),
      create('system/accprofile', { name: 'ro' }, null),
    ];
    assert.deepEqual(order(steps), [
      'update system/global - @global',
      'create system/accprofile ro @global',
      'create firewall/address a',
    ]);
  });

  test('an update waits for the create of what its new values name; an update is pulled by nothing', () => {
    const steps = [
      update('firewall/policy', 4, {
        srcaddr: { from: members('lan-net'), to: members('lan-net', 'dmz-net') },
      }),
      create('firewall/address', { name: 'dmz-net', subnet: '10.3.0.0 255.255.255.0' }),
    ];
    assert.deepEqual(order(steps), ['create firewall/address dmz-net', 'update firewall/policy 4']);
  });

  test('a rename brings its new key: what names it comes after', () => {
    const steps = [
      create('router/static', { 'seq-num': 3, device: 'wan2' }),
      update('system/interface', 'wan', { name: { from: 'wan', to: 'wan2' } }),
    ];
    assert.deepEqual(order(steps), ['update system/interface wan', 'create router/static 3']);
  });

  test('references look in the VDOM of the object that names, or globally for a global table', () => {
    const steps = [
      create('firewall/address', { name: 'cloud', type: 'dynamic', sdn: 'aws' }, 'dmz'),
      create('router/static', { 'seq-num': 1, device: 'vlan7' }, 'dmz'),
      create('router/static', { 'seq-num': 1, device: 'vlan7' }, 'root'),
      create('system/interface', { name: 'vlan7', vdom: 'root', type: 'vlan', interface: 'port1', vlanid: 7 }, 'root'),
      create('system/sdn-connector', { name: 'aws', type: 'aws' }, null),
    ];
    // The dmz route names dmz's vlan7, which the plan does not create: it waits for nothing.
    assert.deepEqual(order(steps), [
      'create system/sdn-connector aws @global',
      'create firewall/address cloud @dmz',
      'create router/static 1 @dmz',
      'create system/interface vlan7',
      'create router/static 1',
    ]);
  });

  test("a global object's reference to a per-VDOM table waits for that key's create in any VDOM", () => {
    const steps = [
      update('system/ha', null, { monitor: { from: '', to: 'port1 vlan9' } }, null),
      create('system/interface', { name: 'vlan9', vdom: 'dmz', type: 'vlan', interface: 'port1', vlanid: 9 }, 'dmz'),
    ];
    assert.deepEqual(order(steps), ['create system/interface vlan9 @dmz', 'update system/ha - @global']);
  });

  test('sub-table entries other fields name: a policy after the SD-WAN zone it uses', () => {
    const steps = [
      create('firewall/policy', { policyid: 9, srcintf: members('zone-a'), dstintf: members('port2') }),
      update('system/sdwan', null, { zone: { from: [{ name: 'virtual-wan-link' }], to: [{ name: 'zone-a' }] } }),
    ];
    assert.deepEqual(order(steps), ['update system/sdwan -', 'create firewall/policy 9']);
  });

  test('integer references: a profile after the file pattern it names; 0 names nothing', () => {
    const steps = [
      create('antivirus/profile', { name: 'av1', 'analytics-wl-filetype': 3, 'analytics-bl-filetype': 0 }),
      create('dlp/filepattern', { id: 0, name: 'picked-by-the-device' }),
      create('dlp/filepattern', { id: 3, name: 'office' }),
    ];
    assert.deepEqual(order(steps), [
      'create dlp/filepattern 3',
      'create antivirus/profile av1',
      'create dlp/filepattern 0',
    ]);
  });

  test('tables evaluated top-down keep their steps in order, each create with its move; what a policy names comes before it', () => {
    const steps = [
      create('firewall/policy', { policyid: 20, srcaddr: members('b'), dstaddr: members('all') }),
      move('firewall/policy', 20, 5),
      create('firewall/policy', { policyid: 10, srcaddr: members('a'), dstaddr: members('all') }),
      move('firewall/policy', 10, 20),
      create('firewall/address', { name: 'a', subnet: '10.0.0.1 255.255.255.255' }),
      create('firewall/address', { name: 'b', subnet: '10.0.0.2 255.255.255.255' }),
    ];
    assert.deepEqual(order(steps), [
      'create firewall/address b',
      'create firewall/policy 20',
      'move firewall/policy 20',
      'create firewall/address a',
      'create firewall/policy 10',
      'move firewall/policy 10',
    ]);
  });

  test("another table's moves come after all that table's creates, wherever they are pulled", () => {
    const steps = [
      create('router/static', { 'seq-num': 5, device: 'vlan5' }),
      move('router/static', 5, 1),
      create('router/static', { 'seq-num': 6, device: 'port1' }),
      create('system/interface', { name: 'vlan5', vdom: 'root', type: 'vlan', interface: 'port1', vlanid: 5 }),
    ];
    assert.deepEqual(order(steps), [
      'create system/interface vlan5',
      'create router/static 5',
      'create router/static 6',
      'move router/static 5',
    ]);
  });

  test('an object naming itself is one write: no circle, no split', () => {
    const steps = [create('firewall/addrgrp', { name: 'self', member: members('self', 'a') })];
    assert.deepEqual(orderSteps(steps).steps, steps);
  });

  test('two objects naming each other: one is created without the closing field, then updated', () => {
    const g1 = { name: 'g1', comment: 'first', member: members('g2') };
    const g2 = { name: 'g2', comment: 'second', member: members('g1') };
    const ordered = orderSteps([create('firewall/addrgrp', g1), create('firewall/addrgrp', g2)]).steps;
    assert.deepEqual(ordered, [
      {
        action: 'create',
        vdom: 'root',
        table: 'firewall/addrgrp',
        key: 'g2',
        object: { name: 'g2', comment: 'second' },
      },
      { action: 'create', vdom: 'root', table: 'firewall/addrgrp', key: 'g1', object: g1 },
      {
        action: 'update',
        vdom: 'root',
        table: 'firewall/addrgrp',
        key: 'g2',
        changes: { member: { from: null, to: members('g1') } },
        closes: true,
      },
    ]);
  });

  test('a circle of three is opened once, where it closes; the closing update waits for all its field names', () => {
    const steps = [
      create('firewall/policy', { policyid: 1, srcaddr: members('a') }),
      create('firewall/addrgrp', { name: 'a', member: members('b') }),
      create('firewall/addrgrp', { name: 'b', member: members('c') }),
      create('firewall/addrgrp', { name: 'c', member: members('a', 'web') }),
      create('firewall/address', { name: 'web', subnet: '10.2.0.10 255.255.255.255' }),
    ];
    const ordered = orderSteps(steps).steps;
    // c is written without its members, so it no longer waits for web; its closing update does.
    assert.deepEqual(ordered.map(line), [
      'create firewall/addrgrp c',
      'create firewall/addrgrp b',
      'create firewall/addrgrp a',
      'create firewall/policy 1',
      'create firewall/address web',
      'update firewall/addrgrp c',
    ]);
    assert.deepEqual(ordered[0], { ...steps[3], object: { name: 'c' } });
    assert.deepEqual(ordered[5], {
      action: 'update',
      vdom: 'root',
      table: 'firewall/addrgrp',
      key: 'c',
      changes: { member: { from: null, to: members('a', 'web') } },
      closes: true,
    });
  });

  test('a circle through a rename: the create is opened, the update keeps all its changes', () => {
    const steps = [
      update('system/interface', 'x', {
        name: { from: 'x', to: 'x2' },
        interface: { from: 'port1', to: 'y' },
      }),
      create('system/interface', { name: 'y', vdom: 'root', type: 'vlan', interface: 'x2', vlanid: 3 }),
    ];
    assert.deepEqual(orderSteps(steps).steps, [
      { ...steps[1], object: { name: 'y', vdom: 'root', type: 'vlan', vlanid: 3 } },
      steps[0],
      {
        action: 'update',
        vdom: 'root',
        table: 'system/interface',
        key: 'y',
        changes: { interface: { from: null, to: 'x2' } },
        closes: true,
      },
    ]);
  });

  test('an update opened by a circle keeps its other changes; its closing update carries the old value', () => {
    const steps = [
      create('system/interface', { name: 'p', vdom: 'root', type: 'vlan', interface: 'q2', vlanid: 4 }),
      update('system/interface', 'q', {
        name: { from: 'q', to: 'q2' },
        interface: { from: 'port1', to: 'p' },
      }),
    ];
    assert.deepEqual(orderSteps(steps).steps, [
      { ...steps[1], changes: { name: { from: 'q', to: 'q2' } } },
      steps[0],
      { ...steps[1], changes: { interface: { from: 'port1', to: 'p' } }, closes: true },
    ]);
  });

  test('what each step waits for, as positions: a writer running steps at once starts a step only after them', () => {
    const steps = [
      create('router/static', { 'seq-num': 5, device: 'vlan5' }),
      move('router/static', 5, 1),
      create('router/static', { 'seq-num': 6, device: 'port1' }),
      create('system/interface', { name: 'vlan5', vdom: 'root', type: 'vlan', interface: 'port1', vlanid: 5 }),
      create('firewall/addrgrp', { name: 'g1', member: members('g2') }),
      create('firewall/addrgrp', { name: 'g2', member: members('g1') }),
    ];
    const { steps: ordered, waits } = orderSteps(steps);
    assert.deepEqual(ordered.map(line), [
      'create system/interface vlan5',
      'create router/static 5',
      'create router/static 6',
      'move router/static 5',
      'create firewall/addrgrp g2',
      'create firewall/addrgrp g1',
      'update firewall/addrgrp g2',
    ]);
    // The route waits for its interface, the move for every create of its table, the closing update
    // for the group it completes and the group it names.
    assert.deepEqual(waits(), [[], [0], [], [1, 2], [], [4], [4, 5]]);
  });

  test('deterministic: the same steps give the same order', () => {
    const steps = [...chainCreates(), ...chainCreates('dmz')];
    assert.deepEqual(order(steps), order(steps));
    assert.equal(order(steps).length, 14);
  });
});

describe('order of deletes', () => {
  test('a prune of the chain: what names an object goes before it', () => {
    assert.deepEqual(
      order(chainDeletes(), (_vdom: string | null, table: string, key: string | number) => chainObject(table, key)),
      [
        'delete router/static 1',
        'delete firewall/policy 1',
        'delete firewall/addrgrp outer',
        'delete firewall/addrgrp inner',
        'delete firewall/address lan-net',
        'delete system/interface vlan100',
        'delete firewall/address web',
      ],
    );
  });

  test('without the device objects, deletes keep the given order', () => {
    assert.deepEqual(order(chainDeletes()), chainDeletes().map(line));
  });

  test('deletes stay after every create and update; an update that stops naming an object goes first', () => {
    const steps = [
      create('firewall/address', { name: 'new', subnet: '10.5.0.0 255.255.255.0' }),
      update('firewall/addrgrp', 'g', { member: { from: members('old'), to: members('new') } }),
      remove('firewall/address', 'old'),
    ];
    assert.deepEqual(order(steps), [
      'create firewall/address new',
      'update firewall/addrgrp g',
      'delete firewall/address old',
    ]);
  });

  test('global deletes come last where references do not decide; a group before its members within a table', () => {
    const device: Record<string, Record<string, object>> = {
      'firewall/addrgrp': {
        inner: { name: 'inner', member: members('a') },
        outer: { name: 'outer', member: members('inner') },
      },
    };
    const steps = [
      remove('system/accprofile', 'ro', null),
      remove('firewall/addrgrp', 'inner'),
      remove('firewall/addrgrp', 'outer'),
    ];
    assert.deepEqual(
      order(steps, (_v: string | null, table: string, key: string | number) => device[table]?.[key] as never),
      ['delete firewall/addrgrp outer', 'delete firewall/addrgrp inner', 'delete system/accprofile ro @global'],
    );
  });

  test('deletes of objects that name each other are both written, in the order met (no field opens that circle)', () => {
    const device: Record<string, object> = {
      a: { name: 'a', member: members('b') },
      b: { name: 'b', member: members('a') },
    };
    const steps = [remove('firewall/addrgrp', 'a'), remove('firewall/addrgrp', 'b')];
    const ordered = orderSteps(steps, { current: (_v, _t, key) => device[key] as never }).steps;
    assert.equal(ordered.length, 2);
    assert.deepEqual(new Set(ordered), new Set(steps));
  });
});

describe('order of random plans', () => {
  /** A small deterministic generator (mulberry32), so that a failure can be run again. */
  function random(seed: number) {
    return () => {
      seed = (seed + 0x6d2b79f5) | 0;
      let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  const names = (step: RefStep) => {
    const values = step.object ?? Object.fromEntries(Object.entries(step.changes ?? {}).map(([f, c]) => [f, c.to]));
    return referencesOf(findTable(step.table)!, values).map((r) => String(r.value));
  };

  test('every write comes after the creates of what it sends, circles or not; nothing is lost', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const pick = <T>(list: T[]) => list[Math.floor(rnd() * list.length)];
      const groups = Array.from({ length: 12 }, (_, i) => `g${i}`);
      const addresses = Array.from({ length: 12 }, (_, i) => `a${i}`);
      const steps: RefStep[] = [
        ...groups.map((name) =>
          create('firewall/addrgrp', {
            name,
            member: members(...new Set([pick(groups), pick(addresses), pick(groups)])),
          }),
        ),
        ...Array.from({ length: 8 }, (_, i) =>
          create('firewall/policy', {
            policyid: i + 1,
            srcaddr: members(pick(groups)),
            dstaddr: members(pick(addresses)),
          }),
        ),
        ...addresses.map((name) => create('firewall/address', { name, subnet: '10.0.0.1 255.255.255.255' })),
      ];
      for (let i = steps.length - 1; i > 0; i--) {
        // Shuffle the tables' objects among themselves, not the policies (top-down).
        const j = Math.floor(rnd() * (i + 1));
        if (steps[i].table !== 'firewall/policy' && steps[j].table !== 'firewall/policy')
          [steps[i], steps[j]] = [steps[j], steps[i]];
      }
      const { steps: ordered } = orderSteps(steps);
      const written = new Set<string>();
      for (const step of ordered) {
        for (const name of names(step))
          if (name !== String(step.key)) assert.ok(written.has(name), `seed ${seed}: ${line(step)} before ${name}`);
        if (step.action === 'create') written.add(String(step.key));
      }
      const creates = ordered.filter((s) => s.action === 'create');
      assert.equal(creates.length, steps.length, `seed ${seed}`);
      const policies = creates.filter((s) => s.table === 'firewall/policy').map((s) => s.key);
      assert.deepEqual(policies, [1, 2, 3, 4, 5, 6, 7, 8], `seed ${seed}: policies keep their order`);
      for (const step of ordered.filter((s) => s.action === 'update')) {
        const original = steps.find((s) => s.table === step.table && s.key === step.key)!;
        assert.deepEqual(
          step.changes?.member?.to,
          original.object?.member,
          `seed ${seed}: the closing update completes it`,
        );
      }
    }
  });

  test('every delete comes after the deletes of the objects that name it', () => {
    for (let seed = 1; seed <= 40; seed++) {
      const rnd = random(seed);
      const groups = Array.from({ length: 15 }, (_, i) => `g${i}`);
      // Groups name only groups after them: a device holds no circle.
      const device = new Map(
        groups.map((name, i) => [
          name,
          { name, member: members(...groups.slice(i + 1).filter(() => rnd() < 0.2), 'a0') },
        ]),
      );
      const steps = [...groups, 'a0']
        .sort(() => rnd() - 0.5)
        .map((key) => remove(key === 'a0' ? 'firewall/address' : 'firewall/addrgrp', key));
      const { steps: ordered } = orderSteps(steps, { current: (_v, _t, key) => device.get(String(key)) });
      const gone = new Set<string>();
      for (const step of ordered) {
        for (const [name, object] of device)
          if (!gone.has(name) && object.member.some((m) => m.name === step.key))
            assert.fail(`seed ${seed}: ${line(step)} while ${name} still names it`);
        gone.add(String(step.key));
      }
      assert.equal(ordered.length, steps.length);
    }
  });
});
