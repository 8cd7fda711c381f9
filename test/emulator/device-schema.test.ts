// `?action=schema` in the device's shape (PROTOCOL.md "The device's own schema"): per table and the whole tree.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allTables, findTable } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { tableSchema } from '../../src/emulator/schema.js';
import { call, CMDB, get, start, type Json } from './helpers.js';

const schemaOf = (path: string): Json => tableSchema(findTable(path)!);

describe('a table schema in the device shape', () => {
  it('a keyed table: category table, mkey, mkey_type, path, name, q_type, access_group, the key required', () => {
    const s = schemaOf('router/static');
    assert.equal(s.name, 'static');
    assert.equal(s.path, 'router');
    assert.equal(s.category, 'table');
    assert.equal(s.mkey, 'seq-num');
    assert.equal(s.mkey_type, 'integer');
    assert.equal(typeof s.q_type, 'number');
    assert.equal(s.access_group, 'netgrp');
    assert.deepEqual(s.children['seq-num'], {
      name: 'seq-num',
      category: 'unitary',
      type: 'integer',
      'min-value': 0,
      'max-value': 4294967295,
      default: 0,
      required: true,
    });
  });

  it('a singleton: category complex, no mkey', () => {
    const s = schemaOf('system/global');
    assert.equal(s.category, 'complex');
    assert.equal(s.path, 'system');
    assert.equal(s.name, 'global');
    assert.equal(s.mkey, undefined);
    assert.equal(s.mkey_type, undefined);
  });

  it('option fields: options by name, multiple_values false or true', () => {
    const status = schemaOf('router/static').children.status;
    assert.deepEqual(status, {
      name: 'status',
      category: 'unitary',
      type: 'option',
      options: [{ name: 'enable' }, { name: 'disable' }],
      multiple_values: false,
      default: 'enable',
    });
    const allowaccess = schemaOf('system/interface').children.allowaccess;
    assert.equal(allowaccess.type, 'option');
    assert.equal(allowaccess.multiple_values, true);
    assert.ok(allowaccess.options.some((o: Json) => o.name === 'https'));
  });

  it('strings with their size: string, var-string for long text', () => {
    const policy = schemaOf('firewall/policy').children;
    assert.deepEqual(policy.name, { name: 'name', category: 'unitary', type: 'string', size: 35, default: '' });
    assert.deepEqual(policy.comments, {
      name: 'comments',
      category: 'unitary',
      type: 'var-string',
      size: 1023,
      default: '',
    });
  });

  it('address types: ipv4-classnet for subnets, ipv4-address for addresses, ipv6, mac-address', () => {
    const route = schemaOf('router/static').children;
    assert.equal(route.dst.type, 'ipv4-classnet');
    assert.equal(route.gateway.type, 'ipv4-address');
    assert.equal(schemaOf('firewall/address').children.subnet.type, 'ipv4-classnet');
    assert.equal(schemaOf('firewall/address').children['start-ip'].type, 'ipv4-address');
    assert.equal(schemaOf('system/interface').children.ip.type, 'ipv4-classnet');
    assert.equal(schemaOf('firewall.ipmacbinding/table').children.ip.type, 'ipv4-address');
    assert.equal(schemaOf('system.dhcp6/server').children.subnet.type, 'ipv6-prefix');
    assert.equal(schemaOf('firewall/address6').children['start-ip'].type, 'ipv6-address');
    assert.equal(schemaOf('system/interface').children.macaddr.type, 'mac-address');
  });

  it('password and uuid', () => {
    assert.equal(schemaOf('user/local').children.passwd.type, 'password');
    assert.equal(schemaOf('firewall/address').children.uuid.type, 'uuid');
  });

  it('a member table: category table, member_table, mkey name, its one child', () => {
    assert.deepEqual(schemaOf('firewall/policy').children.srcintf, {
      name: 'srcintf',
      category: 'table',
      member_table: true,
      mkey: 'name',
      mkey_type: 'string',
      children: {
        name: {
          name: 'name',
          category: 'unitary',
          type: 'string',
          size: 79,
          default: '',
          datasource: ['system.interface.name', 'system.zone.name', 'system.sdwan.zone.name'],
        },
      },
    });
  });

  it('a sub-table with fields of its own: no member_table, its key and typed children', () => {
    const secondary = schemaOf('system/interface').children.secondaryip;
    assert.equal(secondary.category, 'table');
    assert.equal(secondary.member_table, undefined);
    assert.equal(secondary.mkey, 'id');
    assert.equal(secondary.mkey_type, 'integer');
    assert.equal(secondary.children.ip.type, 'ipv4-classnet');
    assert.equal(secondary.children.allowaccess.multiple_values, true);
  });

  it("a table SPEC.md renamed is described under the device's name", () => {
    const s = schemaOf('log.vendoranalyzer2/filter');
    assert.equal(s.path, 'log.fortianalyzer2');
    assert.equal(s.name, 'filter');
  });

  it('every table of the catalogue has a schema whose fields all have a category and, when unitary, a type', () => {
    for (const table of allTables()) {
      const s = tableSchema(table);
      assert.deepEqual(Object.keys(s.children as object), Object.keys(table.fields), table.path);
      const walk = (children: Json) => {
        for (const field of Object.values(children) as Json[]) {
          assert.ok(
            field.category === 'unitary'
              ? typeof field.type === 'string'
              : field.category === 'table' && field.children,
            `${table.path} ${field.name}`,
          );
          if (field.category === 'table') walk(field.children);
        }
      };
      walk(s.children);
    }
  });
});

describe('action=schema over HTTP', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start({
      tokens: [
        { token: 'testtoken0000000000000000000001' },
        { token: 'fwonlytoken0000000000000000001', groups: ['fwgrp'] },
      ],
    });
  });
  after(() => emu.close());

  it('per table: the envelope with results one object, on the collection and on an item', async () => {
    const reply = await get(emu, `${CMDB}/router/static?action=schema`);
    assert.equal(reply.status, 200);
    assert.equal(reply.json.status, 'success');
    assert.equal(reply.json.results.name, 'static');
    assert.equal(reply.json.results.children.dst.type, 'ipv4-classnet');
    assert.equal((await get(emu, `${CMDB}/router/static/1?action=schema`)).json.results.mkey, 'seq-num');
  });

  for (const path of [`${CMDB}/?action=schema`, `${CMDB}?action=schema`]) {
    it(`the whole tree at ${path}: every table as {path, name, schema}`, async () => {
      const reply = await get(emu, path);
      assert.equal(reply.status, 200);
      assert.equal(reply.json.status, 'success');
      const results: Json[] = reply.json.results;
      assert.equal(results.length, allTables().length);
      const policy = results.find((entry) => entry.path === 'firewall' && entry.name === 'policy');
      assert.equal(policy.schema.mkey, 'policyid');
      assert.equal(policy.schema.children.srcintf.member_table, true);
      assert.ok(results.some((entry) => entry.path === 'log.fortianalyzer2' && entry.name === 'filter'));
      for (const entry of results) assert.deepEqual([entry.schema.path, entry.schema.name], [entry.path, entry.name]);
    });
  }

  it('the whole tree holds only the tables of the access groups the caller has', async () => {
    const reply = await get(emu, `${CMDB}/?action=schema`, { token: 'fwonlytoken0000000000000000001' });
    assert.equal(reply.status, 200);
    const groups = new Set((reply.json.results as Json[]).map((entry) => entry.schema.access_group));
    assert.deepEqual([...groups], ['fwgrp']);
  });

  it('other methods are refused', async () => {
    assert.equal((await call(emu, 'POST', `${CMDB}/?action=schema`, { body: {} })).status, 405);
  });
});

describe("another release's schema (`--schema`): its datasource, default and object_range", () => {
  let emu: RunningEmulator;
  before(async () => {
    const { readFileSync } = await import('node:fs');
    const { join } = await import('node:path');
    const { DeviceCatalogue } = await import('../../src/catalogue/provider.js');
    const { releaseOf, treeEntries } = await import('../../src/catalogue/device-schema.js');
    const { ROOT } = await import('../helpers/cli.js');
    const answer = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/schema-7.2.5.json'), 'utf8'));
    const entries = treeEntries(answer).map((entry) =>
      entry.name === 'new-feature' ? { ...entry, schema: { ...entry.schema, object_range: 'global' } } : entry,
    );
    // The tree with the interfaces its policies name, as a device's holds them.
    const interfaces = {
      path: 'system',
      name: 'interface',
      schema: {
        category: 'table',
        mkey: 'name',
        mkey_type: 'string',
        access_group: 'netgrp',
        object_range: 'both',
        children: { name: { category: 'unitary', type: 'string', size: 15 }, vdom: { type: 'string', size: 31 } },
      },
    };
    const release = releaseOf(answer);
    emu = await start({ catalogue: new DeviceCatalogue(release, [...entries, interfaces]), release });
  });
  after(() => emu.close());

  it("refuses a name its datasource does not hold, takes one it does; a new object gets the schema's defaults", async () => {
    const create = (device: string) =>
      call(emu, 'POST', `${CMDB}/router/policy-x`, { body: { 'seq-num': 7, 'input-device': [{ name: device }] } });
    const refused = await create('port9');
    assert.deepEqual([refused.status, refused.json.error], [500, -651]);
    assert.equal((await create('port1')).status, 200);
    const [policy] = (await get(emu, `${CMDB}/router/policy-x/7`)).json.results;
    assert.deepEqual([policy.days, policy.action, policy.status], ['monday', 'permit', 'enable']);
    assert.match(policy.uuid, /^[0-9a-f]{8}-[0-9a-f]{4}-4/);
  });

  it('a table whose object_range is global is one for every VDOM', async () => {
    assert.equal(
      (await call(emu, 'PUT', `${CMDB}/system/new-feature?vdom=dmz`, { body: { interval: 90 } })).status,
      200,
    );
    assert.equal((await get(emu, `${CMDB}/system/new-feature`)).json.results.interval, 90);
  });
});
