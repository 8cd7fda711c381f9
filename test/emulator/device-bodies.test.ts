// Bodies as a device takes them: single-quoted JSON, IPv4 subnets in the mask form, the checks of every table.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { allTables, type FieldSchema, type TableDef } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { DeviceError } from '../../src/emulator/envelope.js';
import { holdsSubnet, parseIpv4, prefixToMask } from '../../src/emulator/ipv4.js';
import { parseLenientJson } from '../../src/emulator/lenient-json.js';
import { validateObject } from '../../src/emulator/validate.js';
import { call, CMDB, get, item, PASSWORD, start, type Json } from './helpers.js';

describe('the tolerant JSON parser', () => {
  it('takes strict JSON as it is', () => {
    assert.deepEqual(parseLenientJson('{"name": "a\'b", "n": 1, "l": [true, null]}'), {
      name: "a'b",
      n: 1,
      l: [true, null],
    });
  });

  it("takes single-quoted strings, as the device's documentation sends them", () => {
    assert.deepEqual(parseLenientJson("{'name': 'Test', 'type': 'subnet', 'subnet': '192.168.0.0 255.255.255.0'}"), {
      name: 'Test',
      type: 'subnet',
      subnet: '192.168.0.0 255.255.255.0',
    });
  });

  it('keeps double quotes, escaped single quotes and JSON escapes inside single-quoted strings', () => {
    assert.deepEqual(parseLenientJson(`{'comment': 'say "hi"', 'it': 'it\\'s', 'tab': 'a\\tb', "mixed": ['x', "y"]}`), {
      comment: 'say "hi"',
      it: "it's",
      tab: 'a\tb',
      mixed: ['x', 'y'],
    });
  });

  it('still refuses what is not JSON either way', () => {
    for (const text of ["{'name': 'open}", 'name=x', "{'a': 1,}", '{"a": 1'])
      assert.throws(() => parseLenientJson(text), SyntaxError, text);
  });
});

describe('IPv4-shaped values', () => {
  it('prefix lengths as masks', () => {
    assert.equal(prefixToMask(0), '0.0.0.0');
    assert.equal(prefixToMask(8), '255.0.0.0');
    assert.equal(prefixToMask(23), '255.255.254.0');
    assert.equal(prefixToMask(32), '255.255.255.255');
  });

  it('a subnet field stores the mask form; an address field keeps the value as given', () => {
    assert.equal(parseIpv4('10.0.0.0/24', true), '10.0.0.0 255.255.255.0');
    assert.equal(parseIpv4('10.0.0.0/255.255.0.0', true), '10.0.0.0 255.255.0.0');
    assert.equal(parseIpv4('10.0.0.0  255.255.255.0', true), '10.0.0.0 255.255.255.0');
    assert.equal(parseIpv4('10.0.0.1', true), '10.0.0.1');
    assert.equal(parseIpv4('10.0.0.1', false), '10.0.0.1');
    assert.equal(parseIpv4('10.0.0.1/24', false), '10.0.0.1/24');
    assert.equal(parseIpv4('10.0.0.1-10.0.0.20', false), '10.0.0.1-10.0.0.20');
  });

  it('refuses what is not IPv4-shaped', () => {
    for (const text of [
      '',
      '10.0.0',
      '300.0.0.1',
      '10.0.0.0/33',
      '10.0.0.0/x',
      '10.0.0.0 255.255.255',
      '10.0.0.1-10.0.0',
      'any',
    ])
      assert.equal(parseIpv4(text, true), undefined, text);
  });

  it('tells subnet fields from address fields by name (and interface addresses by table)', () => {
    assert.ok(holdsSubnet('firewall/address', 'subnet'));
    assert.ok(holdsSubnet('router/static', 'dst'));
    assert.ok(holdsSubnet('system/interface', 'ip'));
    assert.ok(holdsSubnet('system/interface', 'secondaryip.ip'));
    assert.ok(holdsSubnet('system/admin', 'trusthost3'));
    assert.ok(!holdsSubnet('router/static', 'gateway'));
    assert.ok(!holdsSubnet('firewall.ipmacbinding/table', 'ip'));
    assert.ok(!holdsSubnet('firewall/address', 'start-ip'));
  });
});

/** A value the field refuses as a device does (-651), or undefined when it has no such value. */
function refusedValue(field: FieldSchema): unknown {
  if (field.enum) return 'no-such-option';
  if (field.type === 'integer' && field.maximum !== undefined && field.maximum < Number.MAX_SAFE_INTEGER)
    return field.maximum + 1;
  if (field.type === 'integer') return 'not-a-number';
  if (field.format === 'uuid' || field.format === 'mac-address') return 'not-an-address';
  return undefined;
}

function writeOf(table: TableDef): { method: string; path: string; key: Json } | undefined {
  if (table.singleton)
    return table.operations.includes('P') ? { method: 'PUT', path: `${CMDB}/${table.path}`, key: {} } : undefined;
  if (!table.operations.includes('C')) return undefined;
  return {
    method: 'POST',
    path: `${CMDB}/${table.path}`,
    key: { [table.key!]: table.keyType === 'integer' ? 77 : 'k' },
  };
}

describe('bodies over HTTP', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await start({ seed: 'empty' });
  });
  after(() => emu.close());

  it('a single-quoted body creates the object (the documented example)', async () => {
    const body = "{'name': 'Test', 'type': 'ipmask', 'subnet': '192.168.0.0 255.255.255.0'}";
    const reply = await call(emu, 'POST', `${CMDB}/firewall/address`, {
      rawBody: body,
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(reply.status, 200, reply.text);
    assert.equal(
      (await get(emu, item('firewall/address', 'Test'))).json.results[0].subnet,
      '192.168.0.0 255.255.255.0',
    );
  });

  it('the JSON login of /api/v2/authentication takes single quotes too', async () => {
    const body = `{'username': 'admin', 'secretkey': '${PASSWORD}', 'ack_pre_disclaimer': true}`;
    const reply = await call(emu, 'POST', '/api/v2/authentication', {
      rawBody: body,
      token: null,
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(reply.json.status_code, 5, reply.text);
  });

  it('a form body and malformed JSON are still refused with 424', async () => {
    const form = await call(emu, 'POST', `${CMDB}/firewall/address`, {
      rawBody: "name='x'",
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 424);
    const open = await call(emu, 'POST', `${CMDB}/firewall/address`, { rawBody: "{'name': 'x}" });
    assert.equal(open.status, 424);
  });

  it('a /24 subnet is stored and answered in the mask form; a plain address stays plain', async () => {
    assert.equal(
      (await call(emu, 'POST', `${CMDB}/firewall/address`, { body: { name: 'lan2', subnet: '10.0.0.0/24' } })).status,
      200,
    );
    assert.equal((await get(emu, item('firewall/address', 'lan2'))).json.results[0].subnet, '10.0.0.0 255.255.255.0');
    const route = await call(emu, 'POST', `${CMDB}/router/static`, {
      body: { dst: '172.16.0.0/12', gateway: '10.0.0.254' },
    });
    assert.equal(route.status, 200, route.text);
    const [stored] = (await get(emu, item('router/static', route.json.mkey))).json.results;
    assert.deepEqual([stored.dst, stored.gateway], ['172.16.0.0 255.240.0.0', '10.0.0.254']);
    assert.equal(
      (await call(emu, 'PUT', item('router/static', route.json.mkey), { body: { dst: '192.168.0.0/16' } })).status,
      200,
    );
    assert.equal(
      (await get(emu, item('router/static', route.json.mkey))).json.results[0].dst,
      '192.168.0.0 255.255.0.0',
    );
  });

  it('sub-table entries too, through the object and through the sub-table path', async () => {
    const body = { name: 'port9', ip: '192.0.2.1/24', secondaryip: [{ id: 1, ip: '198.51.100.1/25' }] };
    assert.equal((await call(emu, 'POST', `${CMDB}/system/interface`, { body })).status, 200);
    assert.equal(
      (await call(emu, 'POST', `${item('system/interface', 'port9')}/secondaryip`, { body: { ip: '203.0.113.1/30' } }))
        .status,
      200,
    );
    const [stored] = (await get(emu, item('system/interface', 'port9'))).json.results;
    assert.equal(stored.ip, '192.0.2.1 255.255.255.0');
    assert.deepEqual(
      stored.secondaryip.map((entry: Json) => entry.ip),
      ['198.51.100.1 255.255.255.128', '203.0.113.1 255.255.255.252'],
    );
  });

  it('a range and an address with a mask are taken loosely; a value that is not IPv4 answers 500 with -8', async () => {
    assert.equal(
      (
        await call(emu, 'POST', `${CMDB}/firewall/address`, {
          body: { name: 'range', type: 'iprange', 'start-ip': '10.1.0.1', 'end-ip': '10.1.0.9' },
        })
      ).status,
      200,
    );
    assert.equal(
      (
        await call(emu, 'POST', `${CMDB}/firewall.ipmacbinding/table`, {
          body: { 'seq-num': 5, ip: '10.1.0.1-10.1.0.9' },
        })
      ).status,
      200,
    );
    const bad = await call(emu, 'POST', `${CMDB}/firewall/address`, { body: { name: 'bad', subnet: '10.0.0.0/33' } });
    assert.deepEqual([bad.status, bad.json.error], [500, -8]);
    assert.match(bad.json.cli_error, /node_check_object fail! for subnet 10\.0\.0\.0\/33/);
  });

  it('a malformed UUID is refused with 500 and -651; a well-formed one is kept', async () => {
    const bad = await call(emu, 'POST', `${CMDB}/firewall/address`, { body: { name: 'u1', uuid: 'not-a-uuid' } });
    assert.deepEqual([bad.status, bad.json.error], [500, -651]);
    const uuid = '6f1c2a34-1b2c-4d5e-8f90-0123456789ab';
    assert.equal((await call(emu, 'POST', `${CMDB}/firewall/address`, { body: { name: 'u2', uuid } })).status, 200);
    assert.equal((await get(emu, item('firewall/address', 'u2'))).json.results[0].uuid, uuid);
  });

  it('multi-value options of any table are checked value by value and kept in the device order', async () => {
    const created = await call(emu, 'POST', `${CMDB}/system/interface`, {
      body: { name: 'port8', allowaccess: 'ssh ping https ping' },
    });
    assert.equal(created.status, 200, created.text);
    assert.equal((await get(emu, item('system/interface', 'port8'))).json.results[0].allowaccess, 'ping https ssh');
    const bad = await call(emu, 'PUT', item('system/interface', 'port8'), { body: { allowaccess: 'ping gopher' } });
    assert.deepEqual([bad.status, bad.json.error], [500, -651]);
  });

  it('a sample of the catalogue tables over HTTP: an unknown field and a refused value answer 500, -651 and a cli_error', async () => {
    let checked = 0;
    for (const [i, table] of allTables().entries()) {
      const write = writeOf(table);
      if (!write || i % 10 !== 0) continue;
      const unknown = await call(emu, write.method, write.path, { body: { 'no-such-field': 1, ...write.key } });
      assert.deepEqual([unknown.status, unknown.json.error], [500, -651], `${table.path} unknown field`);
      const field = Object.entries(table.fields).find(
        ([name, f]) => name !== table.key && refusedValue(f) !== undefined,
      );
      if (!field) continue;
      const [name, schema] = field;
      const reply = await call(emu, write.method, write.path, { body: { [name]: refusedValue(schema), ...write.key } });
      assert.deepEqual([reply.status, reply.json.error], [500, -651], `${table.path} ${name}: ${reply.text}`);
      assert.match(
        reply.json.cli_error,
        new RegExp(`node_check_object fail! for ${name.replace(/[+]/g, '\\+')} [^]*Return code -651`),
        table.path,
      );
      checked++;
    }
    assert.ok(checked > 30, `${checked} tables checked`);
  });
});

describe('the checks of every table', () => {
  it('each of the catalogue tables refuses an unknown field and a refused value of its own as a device does (500, -651)', () => {
    const refusal = (body: Json, table: TableDef) => {
      try {
        validateObject(table.fields, body, '', table.path);
      } catch (error) {
        return error instanceof DeviceError ? [error.httpStatus, error.code] : error;
      }
      return 'accepted';
    };
    let checked = 0;
    for (const table of allTables()) {
      assert.deepEqual(refusal({ 'no-such-field': 1 }, table), [500, -651], `${table.path} unknown field`);
      for (const [name, field] of Object.entries(table.fields)) {
        // A list field: its entries are checked against their own fields.
        const [entryField, entrySchema] =
          Object.entries(field.items ?? {}).find(([, f]) => refusedValue(f) !== undefined) ?? [];
        const value = entryField ? [{ [entryField]: refusedValue(entrySchema!) }] : refusedValue(field);
        if (value === undefined) continue;
        assert.deepEqual(refusal({ [name]: value }, table), [500, -651], `${table.path} ${name}`);
        checked++;
      }
    }
    assert.ok(checked > 3500, `${checked} fields checked`);
  });
});
