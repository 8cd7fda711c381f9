// Starting the emulator and answering one table reads that table's catalogue file, not all 472.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { CMDB, get, start } from './helpers.js';

/** The catalogue files read while the test runs (this file runs in a process of its own, so none is cached yet). */
const reads: string[] = [];
const original = fs.readFileSync;

describe('a cheap start', () => {
  let emu: RunningEmulator;
  before(async () => {
    fs.readFileSync = ((file: fs.PathOrFileDescriptor, options?: unknown) => {
      const name = file instanceof URL ? file.pathname : String(file);
      if (name.includes('/catalogue/data/'))
        reads.push(name.slice(name.indexOf('/catalogue/data/') + '/catalogue/data/'.length));
      return (original as (f: fs.PathOrFileDescriptor, o?: unknown) => unknown)(file, options);
    }) as typeof fs.readFileSync;
    syncBuiltinESMExports();
    emu = await start();
  });
  after(async () => {
    await emu.close();
    fs.readFileSync = original;
    syncBuiltinESMExports();
  });

  it('a singleton read (what `cmdb --demo get log.disk/setting` asks) reads that table only', async () => {
    const reply = await get(emu, `${CMDB}/log.disk/setting`);
    assert.equal(reply.status, 200);
    assert.deepEqual(reads, ['t/log.disk_2fsetting.json']);
  });

  it('a list reads its own table, and the small list of factory objects a keyed table starts with', async () => {
    assert.equal((await get(emu, `${CMDB}/firewall/policy`)).status, 200);
    assert.deepEqual(reads.slice(1).sort(), ['factory-objects.json', 't/firewall_2fpolicy.json']);
  });

  it('the whole schema tree reads the whole catalogue (what the watch above would catch)', async () => {
    assert.equal((await get(emu, `${CMDB}/?action=schema`)).status, 200);
    assert.ok(reads.includes('all.json'));
  });
});
