// The cli format on its own: reads and documents handed to the printer, written by src/syntax.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { findTable, type TableDef } from '../../src/catalogue/index.js';
import { createRowSink, render, type RenderOptions, type Row } from '../../src/output/index.js';
import { accessLists, bindings, pipe } from './fixtures.js';

const ACL = findTable('router/access-list')!;
const BINDINGS = findTable('firewall.ipmacbinding/table')!;
const DNS = findTable('system/dns')!;

const cli = (conf: RenderOptions['conf']): RenderOptions => ({ format: 'cli', terminal: pipe(), conf });

async function paged(view: RenderOptions, pages: Row[][]): Promise<string[]> {
  const chunks: string[] = [];
  const sink = createRowSink({ write: (s: string) => void chunks.push(s) }, view);
  for (const page of pages) await sink.write(page);
  await sink.end();
  return chunks;
}

describe('the cli format', () => {
  it('writes a read page by page, each object as it comes, the same text as the whole read', async () => {
    for (const [table, rows] of [
      [ACL, accessLists()],
      [BINDINGS, bindings()],
      [ACL, []],
    ] as [TableDef, Row[]][]) {
      for (const changed of [false, true]) {
        const view = cli({ table, changed });
        const whole = await render({ kind: 'list', rows }, view);
        const chunks = await paged(
          view,
          rows.map((row) => [row]),
        );
        assert.equal(chunks.join(''), whole);
        // One chunk per object as its page comes, then the closing `end`.
        assert.equal(chunks.length, rows.length + 1);
      }
    }
    assert.equal(await render({ kind: 'list', rows: [] }, cli({ table: ACL })), 'config router access-list\nend\n');
  });

  it('writes a singleton without edit, a keyed object in its edit block, several VDOMs a block each', async () => {
    assert.equal(
      await render({ kind: 'object', object: { primary: '10.0.0.53' } }, cli({ table: DNS })),
      'config system dns\n    set primary 10.0.0.53\nend\n',
    );
    assert.equal(
      // Only the fields off their default: `status disable` is the catalogue's.
      await render({ kind: 'object', object: bindings()[1] }, cli({ table: BINDINGS, changed: true })),
      'config firewall ipmacbinding table\n    edit 2\n        set ip 10.0.0.2\n        set mac 00:11:22:33:44:66\n' +
        '        set name "srv2"\n    next\nend\n',
    );
    const byVdom = await render(
      { kind: 'byVdom', vdoms: { root: { primary: '10.0.0.1' }, dmz: { primary: '10.0.0.2' } } },
      cli({ table: DNS }),
    );
    assert.equal(
      byVdom,
      'config vdom\nedit root\nconfig system dns\n    set primary 10.0.0.1\nend\nnext\nend\n' +
        'config vdom\nedit dmz\nconfig system dns\n    set primary 10.0.0.2\nend\nnext\nend\n',
    );
  });

  it('writes a document with a table the device holds once in config global, once, from the first VDOM', async () => {
    const document = {
      vdoms: {
        root: { 'system/dns': { primary: '10.0.0.1' }, 'firewall.ipmacbinding/table': [] },
        dmz: { 'system/dns': { primary: '10.0.0.2' }, 'firewall.ipmacbinding/table': [] },
      },
    };
    const text = await render({ kind: 'object', object: document }, cli({ tables: [DNS, BINDINGS], changed: true }));
    assert.equal(
      text,
      '#cmdb:defaults=excluded\n' +
        'config vdom\nedit root\nnext\nedit dmz\nnext\nend\n' +
        'config global\nconfig system dns\n    set primary 10.0.0.1\nend\nend\n' +
        'config vdom\nedit root\nconfig firewall ipmacbinding table\nend\nnext\nend\n' +
        'config vdom\nedit dmz\nconfig firewall ipmacbinding table\nend\nnext\nend\n',
    );
    // A document that holds its global tables apart (`global:`) is written the same way.
    const apart = await render(
      {
        kind: 'object',
        object: { global: { 'system/dns': { primary: '10.0.0.1' } }, vdoms: { root: {}, dmz: {} } },
      },
      cli({ tables: [DNS], changed: true }),
    );
    assert.match(
      apart,
      /^#cmdb:defaults=excluded\nconfig global\nconfig system dns\n {4}set primary 10\.0\.0\.1\nend\nend\n$/,
    );
  });

  it('one VDOM and no global table: the tables as they are, every field without the defaults mark', async () => {
    const text = await render(
      { kind: 'object', object: { vdoms: { root: { 'firewall.ipmacbinding/table': bindings().slice(0, 1) } } } },
      cli({ tables: [BINDINGS] }),
    );
    assert.match(text, /^config firewall ipmacbinding table\n {4}edit 1\n/);
    assert.match(text, /^ {8}set status enable$/m);
  });
});
