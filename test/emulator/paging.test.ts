import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { CMDB, get, keysOf, start } from './helpers.js';

const TABLE = 'firewall.ipmacbinding/table';
const TOTAL = 50_000;

let emu: RunningEmulator;
before(async () => {
  emu = await start({ seed: 'empty' });
  const objects = Array.from({ length: TOTAL }, (_, i) => ({
    'seq-num': i + 1,
    ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    name: `host-${i + 1}`,
    status: i % 2 ? 'disable' : 'enable',
  }));
  emu.populate(TABLE, 'root', objects);
});
after(() => emu.close());

describe('paging a 50,000-object table', () => {
  it('returns the content of a deep page', async () => {
    const reply = await get(emu, `${CMDB}/${TABLE}?start=49000&count=1000`);
    assert.equal(reply.status, 200);
    const seq = keysOf(reply.json.results, 'seq-num');
    assert.equal(seq.length, 1000);
    assert.deepEqual(
      seq,
      Array.from({ length: 1000 }, (_, i) => 49_001 + i),
    );
    assert.deepEqual(reply.json.results[999], {
      'seq-num': 50_000,
      q_origin_key: 50_000,
      ip: '10.0.195.79',
      mac: '00:00:00:00:00:00',
      name: 'host-50000',
      status: 'disable',
    });
  });

  it('returns a short last page and an empty one past the end', async () => {
    assert.deepEqual(
      keysOf((await get(emu, `${CMDB}/${TABLE}?start=49995&count=1000`)).json.results, 'seq-num'),
      [49_996, 49_997, 49_998, 49_999, 50_000],
    );
    assert.deepEqual((await get(emu, `${CMDB}/${TABLE}?start=50000&count=1000`)).json.results, []);
  });

  it('pages the filtered entries', async () => {
    const reply = await get(emu, `${CMDB}/${TABLE}?filter=status==disable&start=24990&count=20`);
    assert.deepEqual(
      keysOf(reply.json.results, 'seq-num'),
      Array.from({ length: 10 }, (_, i) => 49_982 + 2 * i),
    );
  });

  it('refuses a populate with a duplicate key, inserting nothing', () => {
    assert.throws(() => emu.populate(TABLE, 'root', [{ 'seq-num': TOTAL + 1 }, { 'seq-num': 7 }]), /duplicate/);
    assert.equal((emu.objects(TABLE) as unknown[]).length, TOTAL);
  });
});
