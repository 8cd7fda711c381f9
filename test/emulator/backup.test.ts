// The emulator's monitor endpoints: the configuration backup (every table it holds, in the device's
// CLI form; GET on 6.4, a POST with a JSON body on 7.6), the release it reports, and 404 in the
// device's JSON for any other monitor path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allTables } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, start } from './helpers.js';

const BACKUP = '/api/v2/monitor/system/config/backup';

describe('a 6.4.14 emulator', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await start()));
  after(() => emu.close());

  test('the backup holds every table with objects in every VDOM, in config/edit/set/next/end form', async () => {
    const reply = await call(emu, 'GET', `${BACKUP}?scope=global`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/plain/);
    const text = reply.text;
    assert.match(text, /^#config-version=FGVM64-6\.4\.14-FW-build2093-\d+:opmode=0:vdom=1:user=\S+\n/);
    for (const vdom of emu.vdoms) {
      // The VDOM's block: up to its own `next` (those of objects are indented).
      const from = text.indexOf(`\nedit ${vdom}\nconfig `);
      assert.ok(from > 0, `vdom ${vdom} has a block`);
      const section = text.slice(from, text.indexOf('\nnext\n', from) + 1);
      for (const table of allTables().filter((t) => !t.aliasOf)) {
        const objects = emu.objects(table.path, vdom);
        if (!Array.isArray(objects) || objects.length === 0) continue;
        assert.ok(section.includes(`\nconfig ${table.path.replace(/[./]/g, ' ')}\n`), `${table.path} in vdom ${vdom}`);
        const key = objects[0][table.key!];
        assert.ok(
          section.includes(`edit ${typeof key === 'number' ? key : JSON.stringify(key)}\n`),
          `${table.path} ${String(key)} in vdom ${vdom}`,
        );
      }
    }
    // Every block closes: as many `end` as `config`, as many `next` as `edit`.
    const count = (re: RegExp) => (text.match(re) ?? []).length;
    assert.equal(count(/^\s*config /gm), count(/^\s*end$/gm));
    assert.equal(count(/^\s*edit /gm), count(/^\s*next$/gm));
  });

  test('scope=vdom holds that VDOM only; the POST form is refused (405)', async () => {
    const dmz = await call(emu, 'GET', `${BACKUP}?scope=vdom&vdom=dmz`);
    assert.equal(dmz.status, 200);
    assert.match(dmz.text, /#global_vdom=0\nconfig vdom\nedit dmz\n/);
    assert.ok(!/^edit root$/m.test(dmz.text));
    const post = await call(emu, 'POST', BACKUP, { body: { destination: 'file', scope: 'global' } });
    assert.equal(post.status, 405);
    assert.equal(post.json.status, 'error');
  });

  test('an unknown monitor path answers 404 in the device JSON', async () => {
    const reply = await call(emu, 'GET', '/api/v2/monitor/system/no-such-thing');
    assert.equal(reply.status, 404);
    assert.deepEqual([reply.json.status, reply.json.http_status, reply.json.error], ['error', 404, -3]);
  });
});

describe('a 7.6 emulator', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await start({ release: '7.6.0' })));
  after(() => emu.close());

  test('status, firmware and every envelope report 7.6.0', async () => {
    const status = await call(emu, 'GET', '/api/v2/monitor/system/status');
    assert.equal(status.json.version, 'v7.6.0');
    const firmware = await call(emu, 'GET', '/api/v2/monitor/system/firmware');
    assert.deepEqual(
      [firmware.json.results.current.major, firmware.json.results.current.minor, firmware.json.results.current.patch],
      [7, 6, 0],
    );
    const list = await call(emu, 'GET', '/api/v2/cmdb/dlp/filepattern');
    assert.equal(list.json.version, 'v7.6.0');
  });

  test('the backup is a POST with {"destination":"file","scope":...}; the GET is refused (405)', async () => {
    const post = await call(emu, 'POST', BACKUP, { body: { destination: 'file', scope: 'global' } });
    assert.equal(post.status, 200);
    assert.match(post.text, /^#config-version=FGVM64-7\.6\.0-FW-build\d+-/);
    const vdom = await call(emu, 'POST', `${BACKUP}?vdom=dmz`, { body: { destination: 'file', scope: 'vdom' } });
    assert.match(vdom.text, /config vdom\nedit dmz\n/);
    const get = await call(emu, 'GET', `${BACKUP}?scope=global`);
    assert.equal(get.status, 405);
    assert.equal(get.json.http_status, 405);
    const wrong = await call(emu, 'POST', BACKUP, { body: { destination: 'usb', scope: 'global' } });
    assert.equal(wrong.status, 400);
  });
});
