// The reader of the device's own schema (PROTOCOL.md, "The device's own schema") and the catalogue
// built from it: every category and field type PROTOCOL.md shows, unknown ones, member tables.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  fieldFromSchema,
  isTreeAnswer,
  referenceOf,
  scopeOf,
  releaseOf,
  tableFromSchema,
  tablesFromTree,
  treeEntries,
} from '../../src/catalogue/device-schema.js';
import { DeviceCatalogue, SHIPPED_CATALOGUE, usesShipped } from '../../src/catalogue/provider.js';
import { ROOT } from '../helpers/cli.js';

// The per-table answer PROTOCOL.md shows, captured from a device.
const STATIC = {
  name: 'static',
  category: 'table',
  help: 'Configure IPv4 static routing tables.',
  mkey: 'seq-num',
  mkey_type: 'integer',
  path: 'router',
  q_type: 2,
  access_group: 'netgrp',
  max_table_size_vdom: 100,
  children: {
    'seq-num': {
      name: 'seq-num',
      category: 'unitary',
      type: 'integer',
      'min-value': 0,
      'max-value': 4294967295,
      default: 0,
    },
    status: {
      name: 'status',
      category: 'unitary',
      type: 'option',
      multiple_values: false,
      options: [
        { name: 'enable', help: '...' },
        { name: 'disable', help: '...' },
      ],
      default: 'enable',
    },
    dst: { name: 'dst', category: 'unitary', type: 'ipv4-classnet', required: true, default: '0.0.0.0 0.0.0.0' },
    device: { name: 'device', category: 'unitary', type: 'string', size: 35, datasource: ['system.interface.name'] },
    'sdwan-zone': {
      name: 'sdwan-zone',
      category: 'table',
      member_table: true,
      mkey: 'name',
      mkey_type: 'string',
      children: { name: { category: 'unitary', type: 'string', size: 79 } },
    },
  },
};

/** Fields without the device type each keeps (the tests of the type reading look at the catalogue's shape). */
function plain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(plain);
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'deviceType')
      .map(([key, inner]) => [key, plain(inner)]),
  );
}

const fixture = () => JSON.parse(readFileSync(join(ROOT, 'test/fixtures/schema-7.2.5.json'), 'utf8')) as unknown;

test('a table of category table is keyed by its mkey, with L C R U D and its access group', () => {
  const table = tableFromSchema('router/static', STATIC);
  assert.deepEqual(
    {
      path: table.path,
      singleton: table.singleton,
      key: table.key,
      keyType: table.keyType,
      operations: table.operations,
      group: table.group,
      known: table.known,
    },
    {
      path: 'router/static',
      singleton: false,
      key: 'seq-num',
      keyType: 'integer',
      operations: ['L', 'C', 'R', 'U', 'D'],
      group: 'netgrp',
      known: true,
    },
  );
  assert.deepEqual(plain(table.fields), {
    'seq-num': { type: 'integer', minimum: 0, maximum: 4294967295, default: 0 },
    status: { type: 'string', enum: ['enable', 'disable'], default: 'enable' },
    dst: { type: 'string', format: 'ipv4', required: true, default: '0.0.0.0 0.0.0.0' },
    // Without the tables a datasource names, it names nothing this reader can check.
    device: { type: 'string', maxLength: 35 },
    'sdwan-zone': { type: 'array', items: { name: { type: 'string', maxLength: 79 } } },
  });
  assert.equal(table.fields.dst.deviceType, 'ipv4-classnet');
});

test('a string mkey_type (or none) is a string key; complex is a singleton with G P; readonly keeps the reads', () => {
  assert.equal(
    tableFromSchema('firewall/address', { category: 'table', mkey: 'name', mkey_type: 'string' }).keyType,
    'string',
  );
  assert.equal(tableFromSchema('firewall/address', { category: 'table', mkey: 'name' }).keyType, 'string');
  const singleton = tableFromSchema('system/global', {
    category: 'complex',
    access_group: 'sysgrp',
    children: { hostname: { type: 'string', size: 35 } },
  });
  assert.deepEqual(
    [singleton.singleton, singleton.key, singleton.keyType, singleton.operations, singleton.group],
    [true, null, null, ['G', 'P'], 'sysgrp'],
  );
  assert.deepEqual(tableFromSchema('system/status-x', { category: 'complex', readonly: true }).operations, ['G']);
  assert.deepEqual(
    tableFromSchema('log/list-x', { category: 'table', mkey: 'id', mkey_type: 'integer', readonly: true }).operations,
    ['L', 'R'],
  );
});

test('every field type PROTOCOL.md names, and unknown ones, read without a crash', () => {
  const cases: [unknown, unknown][] = [
    [
      { type: 'option', multiple_values: true, options: [{ name: 'monday' }, { name: 'tuesday' }] },
      { type: 'string', enum: ['monday', 'tuesday'], multiple: true },
    ],
    [{ type: 'option', options: [] }, { type: 'string' }],
    [
      { type: 'var-string', size: 255 },
      { type: 'string', maxLength: 255 },
    ],
    [{ type: 'string' }, { type: 'string' }],
    [
      { type: 'integer', 'min-value': 1 },
      { type: 'integer', minimum: 1 },
    ],
    [{ type: 'integer' }, { type: 'integer' }],
    [{ type: 'ipv4-address' }, { type: 'string', format: 'ipv4' }],
    [{ type: 'ipv4-address-any' }, { type: 'string', format: 'ipv4' }],
    [{ type: 'ipv4-netmask' }, { type: 'string', format: 'ipv4' }],
    [{ type: 'ipv6-address' }, { type: 'string', format: 'ipv6' }],
    [{ type: 'ipv6-prefix' }, { type: 'string', format: 'ipv6' }],
    [{ type: 'mac-address' }, { type: 'string', format: 'mac-address' }],
    [
      { type: 'password', size: 128 },
      { type: 'string', format: 'password' },
    ],
    [{ type: 'uuid' }, { type: 'string', format: 'uuid' }],
    [{ type: 'user' }, { type: 'string' }],
    [{ type: 'datetime' }, { type: 'string' }],
    [{ type: 'quantum-flux', size: 3 }, { type: 'string' }],
    [{ category: 'info-read-only' }, { type: 'string' }],
    [{}, { type: 'string' }],
    [null, { type: 'string' }],
    ['text', { type: 'string' }],
    [
      { category: 'table', children: 'odd' },
      { type: 'array', items: {} },
    ],
  ];
  for (const [field, expected] of cases)
    assert.deepEqual(plain(fieldFromSchema(field)), expected, JSON.stringify(field));
  assert.doesNotThrow(() => tableFromSchema('a/b', null));
  assert.deepEqual(tableFromSchema('a/b', { category: 'strange' }).singleton, true);
});

test('member tables nest: a list field of a list field keeps its own fields', () => {
  const table = tableFromSchema('router/policy', {
    category: 'table',
    mkey: 'seq-num',
    mkey_type: 'integer',
    children: {
      rule: {
        category: 'table',
        mkey: 'id',
        children: {
          id: { type: 'integer' },
          srcaddr: { category: 'table', member_table: true, children: { name: { type: 'string', size: 79 } } },
        },
      },
    },
  });
  assert.deepEqual(plain(table.fields.rule), {
    type: 'array',
    items: { id: { type: 'integer' }, srcaddr: { type: 'array', items: { name: { type: 'string', maxLength: 79 } } } },
  });
});

test('the whole tree: its tables, __tree__ entries and odd ones left out, its release from the envelope', () => {
  const answer = fixture();
  assert.ok(isTreeAnswer(answer));
  assert.ok(!isTreeAnswer({ results: STATIC }));
  assert.deepEqual(
    tablesFromTree(answer).map((t) => t.path),
    ['router/policy-x', 'firewall/vip-x', 'system/new-feature', 'firewall.ipmacbinding/table'],
  );
  assert.deepEqual(releaseOf(answer), { version: 'v7.2.5', build: 1517, serial: 'FGVM72TEST000001' });
  assert.deepEqual(
    treeEntries({
      results: [
        { path: 'a', name: 'b' },
        { name: '__tree__', path: 'x', schema: {} },
        7,
        { path: 'c', name: 'd', schema: { category: 'complex' } },
      ],
    }).map((e) => e.name),
    ['d'],
  );
  assert.deepEqual(treeEntries([{ results: [{ path: 'a', name: 'b', schema: {} }], vdom: 'root' }]).length, 1);
  assert.deepEqual(treeEntries({ status: 'error' }), []);
  assert.deepEqual(releaseOf({ version: 'v7.4.1', build: '2463' }), { version: 'v7.4.1', build: 2463 });
});

test('a catalogue read from a device: its tables, SPEC.md tables keep their shipped path and operations', () => {
  const answer = fixture() as { results: unknown[] };
  const renamed = {
    path: 'log.fortianalyzer2',
    name: 'filter',
    schema: {
      category: 'complex',
      access_group: 'loggrp',
      children: { severity: { type: 'option', options: [{ name: 'information' }] } },
    },
  };
  const catalogue = new DeviceCatalogue(releaseOf(answer), treeEntries({ results: [...answer.results, renamed] }));
  assert.equal(catalogue.release, '7.2.5');
  assert.equal(catalogue.shipped, false);
  const policy = catalogue.find('/router/policy-x')!;
  assert.deepEqual(
    [policy.key, policy.keyType, policy.fields.days],
    [
      'seq-num',
      'integer',
      {
        type: 'string',
        enum: ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'],
        multiple: true,
        default: 'monday',
        deviceType: 'option',
      },
    ],
  );
  const spec = catalogue.find('firewall.ipmacbinding/table')!;
  const shipped = SHIPPED_CATALOGUE.find('firewall.ipmacbinding/table')!;
  assert.deepEqual(
    [spec.spec, spec.operations, spec.specOperations],
    [true, shipped.operations, shipped.specOperations],
  );
  const filter = catalogue.find('log.vendoranalyzer2/filter')!;
  assert.deepEqual(
    [filter.spec, filter.deviceName, filter.fields.severity],
    [true, 'log.fortianalyzer2/filter', { type: 'string', enum: ['information'], deviceType: 'option' }],
  );
  assert.equal(catalogue.find('log.fortianalyzer2/filter')!.aliasOf, 'log.vendoranalyzer2/filter');
  assert.equal(catalogue.find('router/static'), undefined);
  assert.deepEqual(
    catalogue.summaries().map((t) => t.path),
    [
      'firewall.ipmacbinding/table',
      'firewall/vip-x',
      'log.vendoranalyzer2/filter',
      'router/policy-x',
      'system/new-feature',
    ],
  );
  assert.ok(!('fields' in catalogue.summaries()[0]));
  assert.equal(catalogue.schemaOf('system/new-feature')!.category, 'complex');
  assert.equal(catalogue.tree().length, 5);
});

test('which releases use the shipped catalogue: 6.4.14, or one not known yet', () => {
  assert.ok(usesShipped(undefined));
  assert.ok(usesShipped({}));
  assert.ok(usesShipped({ version: 'v6.4.14', build: 2093 }));
  assert.ok(!usesShipped({ version: 'v7.2.5', build: 1517 }));
  assert.ok(!usesShipped({ version: 'v6.4.13' }));
});

test("a schema's datasource as references (resolved against its tables), object_range as scope, default and required", () => {
  const tables = new Set(['firewall/address', 'firewall.service/custom', 'system/sdwan', 'system/interface']);
  const has = (path: string) => tables.has(path);
  assert.deepEqual(referenceOf('firewall.address.name', has), { table: 'firewall/address', field: 'name' });
  assert.deepEqual(referenceOf('firewall.service.custom.name', has), {
    table: 'firewall.service/custom',
    field: 'name',
  });
  assert.deepEqual(referenceOf('system.sdwan.zone.name', has), { table: 'system/sdwan', field: 'zone.name' });
  assert.equal(referenceOf('user.group.name', has), undefined);
  assert.deepEqual(
    fieldFromSchema(STATIC.children.device, (ds) => referenceOf(ds, has)),
    {
      type: 'string',
      maxLength: 35,
      references: [{ table: 'system/interface', field: 'name' }],
      deviceType: 'string',
    },
  );
  // A datasource naming a table the schema lacks: the field names nothing checkable.
  assert.equal(
    fieldFromSchema({ type: 'string', datasource: ['user.group.name'] }, (ds) => referenceOf(ds, has)).references,
    undefined,
  );
  assert.equal(scopeOf({ object_range: 'global' }), 'global');
  assert.equal(scopeOf({ object_range: 'strange' }), undefined);
  assert.equal(tableFromSchema('system/x', { category: 'complex', object_range: 'global' }).scope, 'global');

  const catalogue = new DeviceCatalogue({ version: 'v7.2.5' }, [
    { path: 'system', name: 'interface', schema: { category: 'table', mkey: 'name', object_range: 'both' } },
    ...treeEntries(fixture()),
  ]);
  const input = catalogue.find('router/policy-x')!.fields['input-device'].items!.name;
  assert.deepEqual(input.references, [{ table: 'system/interface', field: 'name' }]);
  assert.equal(catalogue.find('system/interface')!.scope, 'both');
  assert.deepEqual(
    catalogue.referrers('system/interface').map((r) => [r.table, r.field, r.path.join('.'), r.target]),
    [['router/policy-x', 'input-device', 'input-device.name', 'name']],
  );
});

test('the shipped catalogue: who can name a table, and the factory objects, compiled at build time', async () => {
  const { factoryObjects, isFactoryObject } = await import('../../src/catalogue/factory.js');
  const policy = SHIPPED_CATALOGUE.referrers('firewall/address').find(
    (r) => r.table === 'firewall/policy' && r.field === 'srcaddr',
  );
  assert.deepEqual(policy, { table: 'firewall/policy', field: 'srcaddr', path: ['srcaddr', 'name'], target: 'name' });
  assert.ok(SHIPPED_CATALOGUE.referrers('system/sdwan').some((r) => r.target === 'zone.name'));
  assert.deepEqual(SHIPPED_CATALOGUE.referrers('log.disk/setting'), []);
  const factory = factoryObjects();
  assert.deepEqual(factory.objects.get('firewall/address')?.slice(0, 2), ['all', 'none']);
  assert.ok(factory.objects.get('system/vdom')?.includes('root'));
  assert.ok(factory.databases.has('firewall/internet-service-name'));
  assert.ok(isFactoryObject('firewall.schedule/recurring', 'always'));
  assert.ok(!isFactoryObject('firewall/address', 'lan-net'));
  // As a reference names them (by the key, or a sub-table's entry), the file's alsoFactory rules too.
  assert.ok(isFactoryObject('firewall/address', 'all', 'name'));
  assert.ok(isFactoryObject('system/interface', 'ssl.root', 'name'));
  assert.ok(isFactoryObject('system/sdwan', 'virtual-wan-link', 'zone.name'));
  assert.ok(!isFactoryObject('system/sdwan', 'virtual-wan-link'));
  assert.ok(!isFactoryObject('system/interface', 'port1'), "the model's ports are the emulator's own");
  // Every table the file names is a table of the catalogue, under its path.
  for (const path of [...factory.objects.keys(), ...factory.databases]) assert.ok(SHIPPED_CATALOGUE.find(path), path);
});
