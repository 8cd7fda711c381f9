import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, keysOf, start } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const IPMAC = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';

describe('reading', () => {
  it('lists a keyed table in order inside the device envelope', async () => {
    const reply = await get(emu, `${CMDB}/${IPMAC}`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /application\/json/);
    const { results, ...envelope } = reply.json;
    assert.deepEqual(keysOf(results, 'seq-num'), [1, 2, 3, 4, 5, 6, 7, 8]);
    assert.equal(results[0].q_origin_key, 1);
    assert.equal(envelope.http_method, 'GET');
    assert.match(envelope.revision, /^[0-9a-f]{32}$/);
    assert.deepEqual(
      {
        vdom: envelope.vdom,
        path: envelope.path,
        name: envelope.name,
        status: envelope.status,
        http_status: envelope.http_status,
      },
      { vdom: 'root', path: 'firewall.ipmacbinding', name: 'table', status: 'success', http_status: 200 },
    );
    assert.deepEqual([envelope.serial, envelope.version, envelope.build], ['FGVMEMU000000001', 'v6.4.14', 2093]);
  });

  it('reads one object as an array of one', async () => {
    const reply = await get(emu, item(IPMAC, 2));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.results.length, 1);
    assert.deepEqual(reply.json.results[0], {
      'seq-num': 2,
      q_origin_key: 2,
      ip: '192.168.1.11',
      mac: '00:09:0f:00:00:02',
      name: 'nas-01',
      status: 'enable',
    });
  });

  it('reads a singleton as an object', async () => {
    const reply = await get(emu, `${CMDB}/log.disk/setting`);
    assert.equal(reply.status, 200);
    assert.equal(Array.isArray(reply.json.results), false);
    assert.equal(reply.json.results['max-log-file-size'], 20);
    assert.equal(reply.json.results.q_origin_key, undefined);
  });

  it('answers 404 (-3) for a missing key, a non-integer key of an integer table and a path outside the catalogue', async () => {
    for (const path of [item(IPMAC, 999), `${CMDB}/${IPMAC}/abc`, `${CMDB}/firewall/nosuch`, `${CMDB}/${ACL}/a/b`]) {
      const reply = await get(emu, path);
      assert.equal(reply.status, 404, path);
      assert.equal(reply.json.error, -3, path);
      assert.equal(reply.json.status, 'error');
    }
  });

  it('shows secrets only in encrypted form', async () => {
    const reply = await get(emu, item('wanopt/auth-group', 'peers-psk'));
    assert.match(reply.json.results[0].psk, /^ENC \S+$/);
    assert.doesNotMatch(reply.text, /wanopt-demo-psk/);
  });
});

describe('writing', () => {
  it("creates an object, filling in the catalogue's defaults, and moves the revision", async () => {
    const before = await get(emu, `${CMDB}/${IPMAC}`);
    const reply = await call(emu, 'POST', `${CMDB}/${IPMAC}`, {
      body: { 'seq-num': 100, ip: '10.1.1.1', mac: '00:11:22:33:44:55' },
    });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.mkey, 100);
    assert.equal(reply.json.revision_changed, true);
    assert.equal(reply.json.old_revision, before.json.revision);
    assert.notEqual(reply.json.revision, before.json.revision);
    const created = await get(emu, item(IPMAC, 100));
    assert.deepEqual(created.json.results[0], {
      'seq-num': 100,
      q_origin_key: 100,
      ip: '10.1.1.1',
      mac: '00:11:22:33:44:55',
      name: 'noname',
      status: 'disable',
    });
  });

  it('refuses a duplicate key with HTTP 500 and error -5, as 6.4 devices do', async () => {
    const reply = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'deny-all' } });
    assert.equal(reply.status, 500);
    assert.equal(reply.json.http_status, 500);
    assert.equal(reply.json.error, -5);
    assert.match(reply.json.cli_error, /already exists/);
    assert.match(reply.json.cli_error, /Return code -5\n$/);
  });

  it('refuses a create without its key field with 424 naming the field', async () => {
    const reply = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { comments: 'no name' } });
    assert.equal(reply.status, 424);
    assert.equal(reply.json.error, -651);
    assert.equal(reply.json.cli_error, "Attribute 'name' MUST be set");
  });

  it('updates only the fields a PUT carries', async () => {
    await call(emu, 'POST', `${CMDB}/${ACL}`, {
      body: { name: 'upd', comments: 'first', rule: [{ action: 'deny', prefix: 'any' }] },
    });
    const reply = await call(emu, 'PUT', item(ACL, 'upd'), { body: { comments: 'second' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.mkey, 'upd');
    const [object] = (await get(emu, item(ACL, 'upd'))).json.results;
    assert.equal(object.comments, 'second');
    assert.equal(object.rule.length, 1);
    assert.equal(object.rule[0].action, 'deny');
    assert.equal(object.rule[0].id, 1);
  });

  it('answers revision_changed false for a PUT that changes nothing', async () => {
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'same', comments: 'x' } });
    const reply = await call(emu, 'PUT', item(ACL, 'same'), { body: { comments: 'x' } });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.revision_changed, false);
  });

  it('renames through the key field, and refuses a rename onto an existing key', async () => {
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'old-name' } });
    const clash = await call(emu, 'PUT', item(ACL, 'old-name'), { body: { name: 'deny-all' } });
    assert.equal(clash.status, 500);
    assert.equal(clash.json.error, -5);
    const renamed = await call(emu, 'PUT', item(ACL, 'old-name'), { body: { name: 'new-name' } });
    assert.equal(renamed.json.mkey, 'new-name');
    assert.equal((await get(emu, item(ACL, 'old-name'))).status, 404);
    assert.equal((await get(emu, item(ACL, 'new-name'))).status, 200);
  });

  it('answers 404 for an update or delete of a missing key', async () => {
    assert.equal((await call(emu, 'PUT', item(ACL, 'ghost'), { body: { comments: 'x' } })).json.error, -3);
    const deleted = await call(emu, 'DELETE', item(ACL, 'ghost'));
    assert.equal(deleted.status, 404);
    assert.equal(deleted.json.error, -3);
  });

  it('deletes an object', async () => {
    await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'to-delete' } });
    const reply = await call(emu, 'DELETE', item(ACL, 'to-delete'));
    assert.equal(reply.status, 200);
    assert.equal(reply.json.mkey, 'to-delete');
    assert.equal((await get(emu, item(ACL, 'to-delete'))).status, 404);
  });

  it('merges a singleton PUT', async () => {
    const reply = await call(emu, 'PUT', `${CMDB}/firewall.ipmacbinding/setting`, { body: { bindtofw: 'enable' } });
    assert.equal(reply.status, 200);
    assert.deepEqual(emu.objects('firewall.ipmacbinding/setting'), {
      bindthroughfw: 'disable',
      bindtofw: 'enable',
      undefinedhost: 'block',
    });
  });
});

describe('clone and move', () => {
  it('clones an entry under nkey, appended at the end', async () => {
    const reply = await call(
      emu,
      'POST',
      `${item(ACL, 'mgmt nets')}?action=clone&nkey=${encodeURIComponent('mgmt copy')}`,
    );
    assert.equal(reply.status, 200);
    assert.equal(reply.json.mkey, 'mgmt copy');
    const list = (await get(emu, `${CMDB}/${ACL}`)).json.results;
    const copy = list[list.length - 1];
    assert.equal(copy.name, 'mgmt copy');
    assert.equal(copy.rule.length, 3);
  });

  it('refuses a clone without nkey (424) or onto an existing key (500, -5)', async () => {
    const missing = await call(emu, 'POST', `${item(ACL, 'deny-all')}?action=clone`);
    assert.equal(missing.status, 424);
    assert.match(missing.json.cli_error, /nkey/);
    const duplicate = await call(emu, 'POST', `${item(ACL, 'deny-all')}?action=clone&nkey=10.0.0.0%2F8`);
    assert.equal(duplicate.status, 500);
    assert.equal(duplicate.json.error, -5);
  });

  it('moves an entry before or after another, visibly in lists', async () => {
    const table = 'system.3g-modem/custom';
    for (const id of [2, 3, 4]) await call(emu, 'POST', `${CMDB}/${table}`, { body: { id, vendor: `v${id}` } });
    assert.equal((await call(emu, 'PUT', `${item(table, 4)}?action=move&before=1`)).status, 200);
    assert.deepEqual(keysOf((await get(emu, `${CMDB}/${table}`)).json.results, 'id'), [4, 1, 2, 3]);
    assert.equal((await call(emu, 'PUT', `${item(table, 4)}?action=move&after=3`)).status, 200);
    assert.deepEqual(keysOf((await get(emu, `${CMDB}/${table}`)).json.results, 'id'), [1, 2, 3, 4]);
  });

  it('needs exactly one of before and after', async () => {
    const table = 'system.3g-modem/custom';
    assert.equal((await call(emu, 'PUT', `${item(table, 1)}?action=move`)).status, 424);
    assert.equal((await call(emu, 'PUT', `${item(table, 1)}?action=move&before=2&after=3`)).status, 424);
    const unknownTarget = await call(emu, 'PUT', `${item(table, 1)}?action=move&before=77`);
    assert.equal(unknownTarget.status, 404);
    assert.equal(unknownTarget.json.error, -3);
  });
});

describe('operations the device does not document', () => {
  const cases: [string, string][] = [
    ['PUT', item('certificate/ca', 'Device_CA')],
    ['POST', `${CMDB}/certificate/ca`],
    ['DELETE', item('certificate/local', 'Device_Self_Sign')],
    ['DELETE', `${CMDB}/${ACL}`],
    ['DELETE', `${CMDB}/log.disk/setting`],
    ['POST', `${CMDB}/log.disk/setting`],
    ['POST', item(ACL, 'deny-all')],
  ];
  for (const [method, path] of cases) {
    it(`answers 405 to ${method} ${path}`, async () => {
      const reply = await call(emu, method, path, method === 'GET' || method === 'DELETE' ? {} : { body: {} });
      assert.equal(reply.status, 405);
      assert.equal(reply.json.status, 'error');
      assert.equal(reply.json.http_status, 405);
    });
  }

  it('still serves the operations it lists on such tables', async () => {
    assert.equal((await call(emu, 'DELETE', item(IPMAC, 8))).status, 200);
    assert.equal(
      (await call(emu, 'PUT', item(IPMAC, 1), { body: { name: 'renamed' } })).status,
      200,
      'SPEC.md leaves it out; the device takes it',
    );
    assert.equal((await get(emu, item('report/theme', 'Blue Theme'))).status, 200);
    assert.equal(
      (await call(emu, 'PUT', item('vpn.ipsec/concentrator', 'hub'), { body: { 'src-check': 'disable' } })).status,
      200,
    );
  });

  it('answers 400 to an action the operation does not support', async () => {
    const cases: [string, string][] = [
      ['PUT', `${item(ACL, 'deny-all')}?action=clone&nkey=x`],
      ['GET', `${item(ACL, 'deny-all')}?action=meta`],
      ['POST', `${CMDB}/${ACL}?action=move`],
      ['DELETE', `${item(ACL, 'deny-all')}?action=move`],
      ['GET', `${CMDB}/${ACL}?action=frobnicate`],
    ];
    for (const [method, path] of cases) {
      const reply = await call(
        emu,
        method,
        path,
        method === 'POST' || method === 'PUT' ? { body: { name: 'zz' } } : {},
      );
      assert.equal(reply.status, 400, `${method} ${path}`);
      assert.equal(reply.json.status, 'error');
    }
    assert.equal((await get(emu, item(ACL, 'deny-all'))).status, 200);
    assert.equal((await get(emu, item(ACL, 'zz'))).status, 404);
  });
});

describe('body validation', () => {
  const post = (body: unknown) => call(emu, 'POST', `${CMDB}/${IPMAC}`, { body });

  it('refuses an unknown field naming it', async () => {
    const reply = await post({ 'seq-num': 500, foo: 1 });
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -651);
    assert.match(reply.json.cli_error, /'foo'/);
  });

  it('refuses a value outside the enum with HTTP 500, -651 and a multi-line cli_error naming the options', async () => {
    const reply = await post({ 'seq-num': 500, status: 'maybe' });
    assert.equal(reply.status, 500);
    assert.equal(reply.json.error, -651);
    assert.equal(
      reply.json.cli_error,
      "node_check_object fail! for status maybe\n\nvalue parse error before 'maybe': 'status' takes enable|disable\nCommand fail. Return code -651\n",
    );
  });

  it('refuses a non-numeric integer and one out of range, but takes a numeric string', async () => {
    assert.equal((await post({ 'seq-num': 'abc' })).json.error, -651);
    assert.equal((await post({ 'seq-num': 4294967296 })).json.error, -651);
    assert.equal((await post({ 'seq-num': 1.5 })).json.error, -651);
    const ok = await post({ 'seq-num': '501' });
    assert.equal(ok.status, 200);
    assert.equal(ok.json.mkey, 501);
  });

  it('refuses a string over its maximum length (-72) and an empty key (-1)', async () => {
    const long = await post({ 'seq-num': 502, name: 'x'.repeat(36) });
    assert.equal(long.status, 500);
    assert.equal(long.json.error, -72);
    assert.match(long.json.cli_error, /'name'/);
    const empty = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: '' } });
    assert.equal(empty.json.error, -1);
  });

  it('checks address formats loosely', async () => {
    assert.equal((await post({ 'seq-num': 503, ip: '300.1.1.1' })).json.error, -8);
    assert.equal((await post({ 'seq-num': 503, mac: 'zz:zz' })).json.error, -651);
    assert.equal((await post({ 'seq-num': 503, ip: '10.0.0.1', mac: '00-AA-BB-CC-DD-EE' })).status, 200);
    assert.equal(
      (emu.objects(IPMAC) as { mac: string }[]).find((o) => o.mac.startsWith('00:aa'))?.mac,
      '00:aa:bb:cc:dd:ee',
    );
  });

  it('validates sub-table entries against their fields', async () => {
    const reply = await call(emu, 'POST', `${CMDB}/${ACL}`, {
      body: { name: 'bad-rule', rule: [{ action: 'allow' }] },
    });
    assert.equal(reply.status, 500);
    assert.match(reply.json.cli_error, /'rule\.action'/);
    const notList = await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name: 'bad-rule', rule: 'permit any' } });
    assert.equal(notList.status, 500);
  });

  it('accepts the annotations of a read sent back unchanged', async () => {
    const [object] = (await get(emu, item(ACL, 'mgmt nets'))).json.results;
    const reply = await call(emu, 'PUT', item(ACL, 'mgmt nets'), { body: object });
    assert.equal(reply.status, 200);
    assert.equal(reply.json.revision_changed, false);
  });

  it('refuses bodies that are not JSON (form fields, malformed JSON) and non-objects with 424', async () => {
    const form = await call(emu, 'POST', `${CMDB}/${IPMAC}`, {
      rawBody: 'seq-num=600',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
    });
    assert.equal(form.status, 424);
    const broken = await call(emu, 'POST', `${CMDB}/${IPMAC}`, {
      rawBody: '{"seq-num": 600',
      headers: { 'Content-Type': 'application/json' },
    });
    assert.equal(broken.status, 424);
    const array = await call(emu, 'POST', `${CMDB}/${IPMAC}`, { body: [{ 'seq-num': 600 }] });
    assert.equal(array.status, 424);
    assert.equal((await get(emu, item(IPMAC, 600))).status, 404);
  });
});

describe('keys that need percent-encoding', () => {
  const awkward = ['a b', 'x?y', '50%', '#1', 'café', 'ü/ß', 'a+b'];
  for (const name of awkward) {
    it(`creates, reads, updates and deletes ${JSON.stringify(name)}`, async () => {
      assert.equal((await call(emu, 'POST', `${CMDB}/${ACL}`, { body: { name } })).status, 200);
      const read = await get(emu, item(ACL, name));
      assert.equal(read.status, 200);
      assert.equal(read.json.results[0].name, name);
      assert.equal((await call(emu, 'PUT', item(ACL, name), { body: { comments: 'ok' } })).json.mkey, name);
      assert.equal((await call(emu, 'DELETE', item(ACL, name))).status, 200);
      assert.equal((await get(emu, item(ACL, name))).status, 404);
    });
  }

  it('finds the seeded 10.0.0.0/8 only through %2F', async () => {
    assert.equal((await get(emu, `${CMDB}/${ACL}/10.0.0.0%2F8`)).status, 200);
    assert.equal((await get(emu, `${CMDB}/${ACL}/10.0.0.0/8`)).status, 404);
  });

  it('records the path as sent, still encoded', async () => {
    await get(emu, `${CMDB}/${ACL}/mgmt%20nets?vdom=root`);
    const last = emu.requests[emu.requests.length - 1];
    assert.equal(last.path, `${CMDB}/${ACL}/mgmt%20nets`);
    assert.equal(last.query, 'vdom=root');
  });
});
