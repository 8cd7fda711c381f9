// Write → read → write gives the same text, over the whole demo seed's content (every table of the
// catalogue in both VDOMs, global tables once), every field and only those that differ from their
// default, in the backup layout.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { allTables, findTable } from '../../src/catalogue/index.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { contentOf, readConf, writeConf, type ConfTableInput, type WriteOptions } from '../../src/syntax/index.js';
import { start } from '../emulator/helpers.js';

describe('the demo seed in the device syntax', () => {
  let emu: RunningEmulator;
  let tables: ConfTableInput[];
  before(async () => {
    emu = await start({ seed: 'demo' });
    tables = allTables()
      .filter((table) => !table.aliasOf)
      .flatMap((table): ConfTableInput[] =>
        table.scope === 'global'
          ? [{ vdom: null, table, content: emu.objects(table.path, emu.vdoms[0]) }]
          : emu.vdoms.map((vdom) => ({ vdom, table, content: emu.objects(table.path, vdom) })),
      );
  });
  after(() => emu.close());

  for (const fields of ['all', 'changed'] as const) {
    test(`write, read, write: the same text (${fields === 'all' ? 'every field' : 'defaults excluded'})`, () => {
      const options: WriteOptions = { fields, document: true };
      const text = writeConf(tables, options);
      const doc = readConf(text, 'demo.conf', { lookup: findTable });
      assert.deepEqual(doc.unknown, []);
      assert.equal(doc.defaultsExcluded, fields === 'changed');
      assert.deepEqual(doc.vdoms, emu.vdoms);
      // Every table came back, in its place: global ones once, the others per VDOM.
      const placed = new Set(doc.tables.map((t) => `${t.vdom} ${t.table.path}`));
      for (const { vdom, table } of tables.filter((t) => t.table.path !== 'system/vdom'))
        assert.ok(placed.has(`${vdom} ${table.path}`), `${table.path} in ${vdom ?? 'global'}`);
      const again = writeConf(
        doc.tables.map((t) => ({ vdom: t.vdom, table: t.table, content: contentOf(t) })),
        options,
      );
      assert.equal(again, text);
    });
  }

  test('objects read back equal the objects written, every field', () => {
    const text = writeConf(tables);
    const doc = readConf(text, 'demo.conf', { lookup: findTable });
    const read = new Map(doc.tables.map((t) => [`${t.vdom} ${t.table.path}`, contentOf(t)]));
    const addresses = tables.find((t) => t.vdom === 'root' && t.table.path === 'firewall/address')!;
    assert.deepEqual(read.get('root firewall/address'), addresses.content);
    const acl = tables.find((t) => t.vdom === 'root' && t.table.path === 'router/access-list')!;
    assert.deepEqual(read.get('root router/access-list'), acl.content);
  });
});
