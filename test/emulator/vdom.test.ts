import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, item, keysOf, start, TOKEN } from './helpers.js';

const DMZ_ONLY = 'dmzonlytoken000000000000000001';
const NO_FW = 'nofwgrouptoken0000000000000001';

let emu: RunningEmulator;
before(async () => {
  emu = await start({
    vdoms: ['root', 'dmz', 'lab'],
    tokens: [{ token: TOKEN }, { token: DMZ_ONLY, vdoms: ['dmz'] }, { token: NO_FW, groups: ['loggrp', 'netgrp'] }],
  });
});
after(() => emu.close());

const ACL = `${CMDB}/router/access-list`;

describe('VDOMs', () => {
  it('uses the management VDOM (the first) without vdom', async () => {
    const reply = await get(emu, ACL);
    assert.equal(reply.json.vdom, 'root');
    assert.ok(keysOf(reply.json.results, 'name').includes('mgmt nets'));
  });

  it('keeps separate data per VDOM', async () => {
    const dmz = await get(emu, `${ACL}?vdom=dmz`);
    assert.equal(dmz.json.vdom, 'dmz');
    assert.deepEqual(keysOf(dmz.json.results, 'name'), ['10.0.0.0/8', 'dmz servers', 'deny-all']);
    assert.equal((await call(emu, 'POST', `${ACL}?vdom=dmz`, { body: { name: 'only-in-dmz' } })).json.vdom, 'dmz');
    assert.equal((await get(emu, `${item('router/access-list', 'only-in-dmz')}?vdom=dmz`)).status, 200);
    assert.equal((await get(emu, item('router/access-list', 'only-in-dmz'))).status, 404);
  });

  it('answers a JSON array of envelopes for a list of VDOMs', async () => {
    const reply = await get(emu, `${CMDB}/firewall.ipmacbinding/table?vdom=root,dmz`);
    assert.equal(reply.status, 200);
    assert.ok(Array.isArray(reply.json));
    assert.deepEqual(
      reply.json.map((envelope: { vdom: string }) => envelope.vdom),
      ['root', 'dmz'],
    );
    assert.equal(reply.json[0].results.length, 8);
    assert.equal(reply.json[1].results.length, 4);
  });

  it('answers every VDOM for vdom=*', async () => {
    const reply = await get(emu, `${CMDB}/log.disk/setting?vdom=*`);
    assert.deepEqual(
      reply.json.map((envelope: { vdom: string }) => envelope.vdom),
      ['root', 'dmz', 'lab'],
    );
    assert.deepEqual(
      reply.json.map((envelope: { results: { 'maximum-log-age': number } }) => envelope.results['maximum-log-age']),
      [7, 30, 30],
    );
  });

  it('writes to each VDOM of a list, each with its own outcome', async () => {
    const reply = await call(emu, 'POST', `${ACL}?vdom=root,lab`, { body: { name: 'both-vdoms' } });
    assert.equal(reply.status, 200);
    assert.deepEqual(
      reply.json.map((envelope: { mkey: string }) => envelope.mkey),
      ['both-vdoms', 'both-vdoms'],
    );
    const again = await call(emu, 'POST', `${ACL}?vdom=root,dmz`, { body: { name: 'both-vdoms' } });
    assert.equal(again.status, 500);
    assert.deepEqual(
      again.json.map((envelope: { http_status: number }) => envelope.http_status),
      [500, 200],
    );
  });

  it('answers 403 (-37) for a VDOM the caller may not use, and only its VDOMs for *', async () => {
    const denied = await get(emu, `${ACL}?vdom=root`, { token: DMZ_ONLY });
    assert.equal(denied.status, 403);
    assert.equal(denied.json.error, -37);
    assert.equal((await get(emu, ACL, { token: DMZ_ONLY })).status, 403);
    assert.equal((await get(emu, `${ACL}?vdom=dmz,root`, { token: DMZ_ONLY })).status, 403);
    const all = await get(emu, `${ACL}?vdom=*`, { token: DMZ_ONLY });
    assert.deepEqual(
      all.json.map((envelope: { vdom: string }) => envelope.vdom),
      ['dmz'],
    );
  });

  it('answers 403 (-37) for an unknown VDOM, as 6.4 devices do, to every caller', async () => {
    const unknown = await get(emu, `${ACL}?vdom=nope`);
    assert.equal(unknown.status, 403);
    assert.equal(unknown.json.error, -37);
    assert.equal((await get(emu, `${ACL}?vdom=nope`, { token: DMZ_ONLY })).status, 403);
  });

  it('acts on every VDOM the caller may use with global=1, answering an array of envelopes', async () => {
    const all = await get(emu, `${CMDB}/log.disk/setting?global=1`);
    assert.deepEqual(
      all.json.map((envelope: { vdom: string }) => envelope.vdom),
      ['root', 'dmz', 'lab'],
    );
    const mine = await get(emu, `${ACL}?global=1`, { token: DMZ_ONLY });
    assert.deepEqual(
      mine.json.map((envelope: { vdom: string }) => envelope.vdom),
      ['dmz'],
    );
  });

  it('answers 403 (-14) when the profile lacks the table access group', async () => {
    const reply = await get(emu, `${CMDB}/firewall.ipmacbinding/table`, { token: NO_FW });
    assert.equal(reply.status, 403);
    assert.equal(reply.json.error, -14);
    assert.match(reply.json.cli_error, /fwgrp/);
    assert.equal((await get(emu, ACL, { token: NO_FW })).status, 200);
  });
});
