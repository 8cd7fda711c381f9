// Hand-made objects and plan steps for the reference library's tests, named as an administrator would:
// an interface, addresses, a group of groups, a policy and a route that use them (issue "references").
import { findTable } from '../../src/catalogue/index.js';
import type { Key, Obj, RefStep } from '../../src/plan/references/index.js';

export function keyOf(table: string, object: Obj): Key | null {
  const def = findTable(table)!;
  return def.key ? (object[def.key] as Key) : null;
}

export const create = (table: string, object: Obj, vdom: string | null = 'root'): RefStep => ({
  action: 'create',
  vdom,
  table,
  key: keyOf(table, object),
  object,
});

export const update = (
  table: string,
  key: Key | null,
  changes: Record<string, { from: unknown; to: unknown }>,
  vdom: string | null = 'root',
): RefStep => ({ action: 'update', vdom, table, key, changes });

export const remove = (table: string, key: Key, vdom: string | null = 'root'): RefStep => ({
  action: 'delete',
  vdom,
  table,
  key,
});

export const move = (table: string, key: Key, after: Key, vdom: string | null = 'root') =>
  ({ action: 'move', vdom, table, key, after }) as RefStep & { after: Key };

/** A step as the tests compare it: `create firewall/address lan-net`, `update system/sdwan -` (vdom when not root). */
export function line(step: RefStep): string {
  const where = step.vdom === 'root' ? '' : ` @${step.vdom ?? 'global'}`;
  return `${step.action} ${step.table} ${step.key ?? '-'}${where}`;
}

const members = (...names: string[]) => names.map((name) => ({ name }));

/** The chain of CLI.md: interface → address → group of groups → policy, route. */
export const CHAIN = {
  'system/interface': [{ name: 'vlan100', vdom: 'root', type: 'vlan', interface: 'port1', vlanid: 100 }],
  'firewall/address': [
    { name: 'lan-net', subnet: '10.1.0.0 255.255.255.0', 'associated-interface': 'vlan100' },
    { name: 'web', subnet: '10.2.0.10 255.255.255.255' },
  ],
  'firewall/addrgrp': [
    // The group of groups first: it names `inner`, written after it.
    { name: 'outer', member: members('inner', 'web') },
    { name: 'inner', member: members('lan-net') },
  ],
  'firewall/policy': [
    {
      policyid: 1,
      name: 'out',
      srcintf: members('vlan100'),
      dstintf: members('port2'),
      srcaddr: members('outer'),
      dstaddr: members('all'),
      service: members('ALL'),
      schedule: 'always',
      action: 'accept',
    },
  ],
  'router/static': [{ 'seq-num': 1, dst: '10.9.0.0 255.255.0.0', device: 'vlan100', gateway: '10.1.0.1' }],
} satisfies Record<string, Obj[]>;

/** The tables in the order an export writes them (by path). */
export const EXPORT_ORDER = [
  'firewall/address',
  'firewall/addrgrp',
  'firewall/policy',
  'router/static',
  'system/interface',
];

/** A restore onto a device without them: every object created, tables in export order. */
export function chainCreates(vdom = 'root'): RefStep[] {
  return EXPORT_ORDER.flatMap((table) => CHAIN[table as keyof typeof CHAIN].map((o) => create(table, o, vdom)));
}

/** A prune of all of them, as today's plan orders deletes: tables reversed, objects in the reverse of the device's. */
export function chainDeletes(vdom = 'root'): RefStep[] {
  return [...EXPORT_ORDER]
    .reverse()
    .flatMap((table) =>
      [...CHAIN[table as keyof typeof CHAIN]].reverse().map((o) => remove(table, keyOf(table, o)!, vdom)),
    );
}

/** The chain's objects as the device holds them, for `current` and for readings. */
export function chainObject(table: string, key: Key): Obj | undefined {
  return CHAIN[table as keyof typeof CHAIN]?.find((o) => String(keyOf(table, o)) === String(key));
}

export { members };
