// The emulator's monitor endpoints: the configuration backup (every table it holds, in the device's
// syntax, src/syntax; GET on 6.4, a POST with a JSON body on 7.6), the release it reports, and 404 in the
// device's JSON for any other monitor path.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allTables, findTable } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { isDefault } from '../../src/emulator/schema.js';
import { contentOf, readConf, writeConf } from '../../src/syntax/index.js';
import { call, PASSWORD, start } from './helpers.js';

const BACKUP = '/api/v2/monitor/system/config/backup';

describe('a 6.4.14 emulator', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await start()));
  after(() => emu.close());

  test('the backup is the device syntax: its header, the VDOM list, config global, then a block per VDOM', async () => {
    const reply = await call(emu, 'GET', `${BACKUP}?scope=global`);
    assert.equal(reply.status, 200);
    assert.match(reply.headers.get('content-type') ?? '', /^text\/plain/);
    const text = reply.text;
    assert.match(
      text,
      /^#config-version=FGVM64-6\.4\.14-FW-build2093-\d+:opmode=0:vdom=1:user=\S+\n#conf_file_ver=\d+\n#buildno=2093\n#global_vdom=1\nconfig vdom\nedit root\nnext\nedit dmz\nnext\nend\nconfig global\n/,
    );
    // Objects as the device's `show` prints them: values that differ from the defaults, secrets encrypted.
    assert.match(text, /\nend\nend\nconfig vdom\nedit root\nconfig [^\n]+\n/);
    assert.match(text, /\nnext\nend\nconfig vdom\nedit dmz\nconfig [^\n]+\n/);
    assert.match(text, /\nend\nnext\nend\n$/);
    assert.ok(
      text.includes(
        [
          'config firewall addrgrp',
          '    edit "internal-nets"',
          '        set uuid f3dce756-536f-407b-ad6f-ad84cfd6f0ca',
          '        set member "lan-net" "servers-net"',
          '        set comment "every internal network"',
          '    next',
          '    edit "published"',
          '        set uuid 4c4a8328-d774-49e9-ab06-d117657dcc82',
          '        set member "web-server"',
          '    next',
          'end',
          '',
        ].join('\n'),
      ),
    );
    assert.match(
      text,
      /\nconfig user local\n {4}edit "alice"\n {8}set id 1\n {8}set passwd ENC [A-Za-z0-9+/]+=*\n {8}set email-to "alice@example\.com"\n {4}next\nend\n/,
    );
    assert.ok(!text.includes(PASSWORD) && !text.includes('demo-Passw0rd'));
  });

  test('every table holding objects is in the backup, in its place: global tables once, the others per VDOM', async () => {
    const text = (await call(emu, 'GET', `${BACKUP}?scope=global`)).text;
    const doc = readConf(text, 'backup.conf', { lookup: findTable });
    assert.equal(doc.backup, true);
    assert.deepEqual(doc.unknown, []);
    assert.deepEqual(doc.vdoms, emu.vdoms);
    const read = new Map(doc.tables.map((t) => [`${t.vdom} ${t.table.path}`, t]));
    let checked = 0;
    for (const table of allTables().filter((t) => !t.aliasOf && !t.singleton && t.path !== 'system/vdom')) {
      const places = table.scope === 'global' ? [null] : emu.vdoms;
      for (const vdom of places) {
        const objects = emu.objects(table.path, vdom ?? emu.vdoms[0]) as Record<string, unknown>[];
        if (!objects.length) continue;
        const found = read.get(`${vdom} ${table.path}`);
        assert.ok(found, `${table.path} in ${vdom ?? 'config global'}`);
        assert.deepEqual(
          found.objects.map((o) => o.key),
          objects.map((o) => o[table.key!]),
          `${table.path} in ${vdom ?? 'config global'}`,
        );
        checked++;
      }
    }
    assert.ok(checked > 20, `${checked} tables checked`);
    // Read back and written again with the same header and defaults, the text is the same.
    const header = text.split('\n').filter((line) => line.startsWith('#'));
    const again = writeConf(
      doc.tables.map((t) => ({ vdom: t.vdom, table: t.table, content: contentOf(t) })),
      { layout: 'backup', fields: 'changed', header, isDefault: (field, name, value) => isDefault(field, value, name) },
    );
    assert.equal(again, text);
  });

  test('scope=vdom holds that VDOM only; the POST form is refused (405)', async () => {
    const dmz = await call(emu, 'GET', `${BACKUP}?scope=vdom&vdom=dmz`);
    assert.equal(dmz.status, 200);
    assert.match(dmz.text, /#global_vdom=0\nconfig vdom\nedit dmz\nconfig /);
    assert.ok(!/^edit root$/m.test(dmz.text));
    // The device's global tables are not a VDOM's.
    assert.ok(!/^config global$/m.test(dmz.text));
    const doc = readConf(dmz.text, 'dmz.conf', { lookup: findTable });
    assert.deepEqual([...new Set(doc.tables.map((t) => t.vdom))], ['dmz']);
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
