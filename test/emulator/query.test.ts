import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { parseCondition, parseFilter } from '../../src/emulator/query.js';
import { call, CMDB, get, item, keysOf, start, type Json } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start();
});
after(() => emu.close());

const IPMAC = `${CMDB}/firewall.ipmacbinding/table`;

async function seqNums(query: string): Promise<unknown[]> {
  const reply = await get(emu, `${IPMAC}?${query}`);
  assert.equal(reply.status, 200, reply.text);
  return keysOf(reply.json.results, 'seq-num');
}

const filter = (expression: string) => `filter=${encodeURIComponent(expression)}`;

describe('filter', () => {
  it('== and != match case-insensitively', async () => {
    assert.deepEqual(await seqNums(filter('name==NAS-01')), [2]);
    assert.deepEqual(await seqNums(filter('status!=ENABLE')), [3, 6]);
  });

  it('=@ and !@ look for a substring, case-insensitively', async () => {
    assert.deepEqual(await seqNums(filter('name=@ER')), [1, 5, 6]);
    assert.deepEqual(await seqNums(filter('name!@O')), [1, 2, 5, 6, 8]);
  });

  it('<, <=, >, >= compare numbers as numbers', async () => {
    assert.deepEqual(await seqNums(filter('seq-num<3')), [1, 2]);
    assert.deepEqual(await seqNums(filter('seq-num<=3')), [1, 2, 3]);
    assert.deepEqual(await seqNums(filter('seq-num>6')), [7, 8]);
    assert.deepEqual(await seqNums(filter('seq-num>=6')), [6, 7, 8]);
    assert.deepEqual(await seqNums(filter('seq-num>10')), []);
  });

  it('compares addresses digit-aware rather than as plain text', async () => {
    assert.deepEqual(await seqNums(filter('ip>=192.168.1.16')), [7, 8]);
  });

  it('ORs the alternatives of one filter and ANDs repeated filters', async () => {
    assert.deepEqual(await seqNums(filter('name==nas-01,name==voip-gw')), [2, 3]);
    assert.deepEqual(await seqNums(`${filter('seq-num>2')}&${filter('status==enable')}`), [4, 5, 7, 8]);
    assert.deepEqual(await seqNums(`${filter('seq-num<3,seq-num>7')}&${filter('status==enable')}`), [1, 2, 8]);
  });

  it('matches a sub-table by the keys of its entries', async () => {
    const reply = await get(emu, `${CMDB}/router/access-list?${filter('rule==3')}`);
    assert.deepEqual(keysOf(reply.json.results, 'name'), ['mgmt nets']);
  });

  it('answers 400 for a condition without one of the eight operators', async () => {
    for (const bad of ['name=nas-01', 'name~nas', 'name']) {
      const reply = await get(emu, `${IPMAC}?${filter(bad)}`);
      assert.equal(reply.status, 400, bad);
      assert.equal(reply.json.status, 'error');
    }
  });

  it('parses the first operator after the field name and keeps the rest as the value', () => {
    assert.deepEqual(parseCondition('name==a==b'), { field: 'name', op: '==', value: 'a==b' });
    assert.deepEqual(parseCondition('seq-num>=5'), { field: 'seq-num', op: '>=', value: '5' });
    assert.deepEqual(parseCondition('name=@<x>'), { field: 'name', op: '=@', value: '<x>' });
    assert.deepEqual(
      parseFilter('comments==a\\,b,name==c').map((c) => c.value),
      ['a,b', 'c'],
    );
  });

  it('key + pattern select like key==pattern', async () => {
    assert.deepEqual(await seqNums('key=name&pattern=voip-gw'), [3]);
  });
});

describe('paging and fields', () => {
  it('start and count select a window', async () => {
    assert.deepEqual(await seqNums('start=2&count=3'), [3, 4, 5]);
    assert.deepEqual(await seqNums('start=6'), [7, 8]);
    assert.deepEqual(await seqNums('start=50&count=5'), []);
    assert.deepEqual(await seqNums(`start=1&count=2&${filter('status==enable')}`), [2, 4]);
  });

  it('answers 400 for a start or count that is not a non-negative integer', async () => {
    assert.equal((await get(emu, `${IPMAC}?count=-1`)).status, 400);
    assert.equal((await get(emu, `${IPMAC}?start=x`)).status, 400);
  });

  it('format keeps only the named fields plus q_origin_key', async () => {
    const reply = await get(emu, `${IPMAC}?format=${encodeURIComponent('ip|mac')}&count=1`);
    assert.deepEqual(reply.json.results, [{ q_origin_key: 1, ip: '192.168.1.10', mac: '00:09:0f:00:00:01' }]);
    const single = await get(emu, `${CMDB}/log.disk/setting?format=status`);
    assert.deepEqual(single.json.results, { status: 'enable' });
  });

  it('with_meta adds the meta fields', async () => {
    const [object] = (await get(emu, `${IPMAC}/1?with_meta=1`)).json.results;
    for (const field of ['q_ref', 'q_static', 'q_type', 'q_path', 'q_name']) assert.ok(field in object, field);
    assert.equal(object.q_path, 'firewall.ipmacbinding');
    assert.equal(object.q_name, 'table');
    assert.equal(typeof object.q_type, 'number');
  });

  it('with_contents_hash adds a checksum that follows the contents', async () => {
    const hashOf = async () =>
      (await get(emu, `${CMDB}/ips/custom/Detect.Admin.Login?with_contents_hash=1`)).json.results[0].q_contents_hash;
    const first = await hashOf();
    assert.match(first, /^[0-9a-f]{64}$/);
    assert.equal(await hashOf(), first);
    await call(emu, 'PUT', item('ips/custom', 'Detect.Admin.Login'), { body: { comment: 'changed' } });
    assert.notEqual(await hashOf(), first);
  });

  it('datasource=1 names the table a reference list points to', async () => {
    const settings = (await get(emu, `${CMDB}/web-proxy/explicit?datasource=1`)).json.results;
    assert.deepEqual(settings['pac-policy'][0].srcaddr, [
      { name: 'all', q_origin_key: 'all', datasource: 'firewall.address' },
    ]);
    const without = (await get(emu, `${CMDB}/web-proxy/explicit`)).json.results;
    assert.deepEqual(without['pac-policy'][0].srcaddr, [{ name: 'all', q_origin_key: 'all' }]);
  });

  it('skip=1 hides empty properties', async () => {
    const [object] = (await get(emu, `${CMDB}/router/access-list/deny-all?skip=1`)).json.results;
    assert.equal('comments' in object, false);
    assert.equal(object.name, 'deny-all');
    assert.equal('wildcard' in object.rule[0], false);
  });

  it('exclude-default-values=1 drops fields holding their default', async () => {
    const [object] = (await get(emu, `${IPMAC}/1?exclude-default-values=1`)).json.results;
    assert.deepEqual(object, {
      'seq-num': 1,
      q_origin_key: 1,
      ip: '192.168.1.10',
      mac: '00:09:0f:00:00:01',
      name: 'printer-2f',
      status: 'enable',
    });
  });

  it('scope selects global or VDOM objects where objects have a range', async () => {
    const names = async (scope: string) =>
      keysOf((await get(emu, `${CMDB}/certificate/ca?scope=${scope}`)).json.results, 'name');
    assert.deepEqual(await names('global'), ['Fortinet_CA', 'Fortinet_Wifi_CA', 'Device_CA', 'Device_CA_Untrusted']);
    // A global table, held once: every VDOM's certificates are in it.
    assert.deepEqual(await names('vdom'), ['Corp_Root_CA', 'Partner_CA']);
    assert.equal((await names('both')).length, 6);
    assert.equal((await get(emu, `${CMDB}/certificate/ca?scope=everything`)).status, 400);
  });
});

describe('table actions', () => {
  it('schema describes fields, options and sub-tables', async () => {
    const reply = await get(emu, `${CMDB}/router/access-list?action=schema`);
    const schema: Json = reply.json.results;
    assert.equal(schema.mkey, 'name');
    assert.equal(schema.children.name.size, 35);
    assert.equal(schema.children.rule.category, 'table');
    assert.deepEqual(schema.children.rule.children.action.options, [{ name: 'permit' }, { name: 'deny' }]);
  });

  it("default gives every field its default: the catalogue's, as a device's schema gives it", async () => {
    const reply = await get(emu, `${IPMAC}?action=default`);
    assert.deepEqual(reply.json.results, {
      'seq-num': 0,
      ip: '0.0.0.0',
      mac: '00:00:00:00:00:00',
      name: 'noname',
      status: 'disable',
    });
    assert.equal((await get(emu, `${IPMAC}/1?action=default`)).status, 200);
  });

  it('meta describes the table, including tables without a list operation', async () => {
    const meta = (await get(emu, `${CMDB}/report/theme?action=meta`)).json.results;
    assert.deepEqual(
      [meta.name, meta.path, meta.mkey, meta.access_group, meta.size],
      ['theme', 'report', 'name', 'loggrp', 2],
    );
  });

  it('revision follows writes', async () => {
    const revision = async () => (await get(emu, `${CMDB}/dlp/filepattern?action=revision`)).json.results.revision;
    const first = await revision();
    assert.equal((await get(emu, `${CMDB}/dlp/filepattern/1?action=revision`)).json.results.revision, first);
    await call(emu, 'PUT', item('dlp/filepattern', 1), { body: { comment: 'new comment' } });
    assert.notEqual(await revision(), first);
  });

  it('transaction-list answers on a table path too', async () => {
    const reply = await get(emu, `${IPMAC}?action=transaction-list`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reply.json.results, []);
  });
});
