// The columns a table chooses (CLI.md, "Output"): the key, `name`, the fields that carry information in
// catalogue order, a chosen set for the tables read daily, --wide and --columns; lists as names in
// table and csv cells; pages and whole lists alike.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { findTable, type FieldSchema } from '../../src/catalogue/index.js';
import { tableFromSchema } from '../../src/catalogue/device-schema.js';
import { createRowSink, render, type RenderOptions, type Row } from '../../src/output/index.js';
import { CHOSEN_COLUMNS } from '../../src/output/chosen.js';
import { ROOT } from '../helpers/cli.js';
import { linesOf, opts, pipe, tty } from './fixtures.js';

const schemaOf = (path: string) => {
  const table = findTable(path)!;
  return { keyField: table.key, schema: { path: table.path, fields: table.fields } };
};

/** The header cells of a table (columns are two spaces apart or more). */
const header = (text: string) => linesOf(text)[0]!.trim().split(/ {2,}/);

const table = (rows: Row[], extra: Partial<RenderOptions>, terminal = pipe()) =>
  render({ kind: 'list', rows }, opts('table', terminal, extra));

/** Two addresses as a device answers them: every field, most at their defaults. */
function addresses(): Row[] {
  const fields = findTable('firewall/address')!.fields;
  const base = Object.fromEntries(Object.entries(fields).map(([name, f]) => [name, f.default ?? (f.items ? [] : '')]));
  return [
    { ...base, name: 'lan-net', uuid: '0e03151e-3e07-4425-ace9-e3b1dbc56e1d', subnet: '192.168.1.0 255.255.255.0' },
    {
      ...base,
      name: 'pool',
      uuid: '1e03151e-3e07-4425-ace9-e3b1dbc56e1d',
      type: 'iprange',
      'start-ip': '10.0.0.10',
      'end-ip': '10.0.0.20',
      q_origin_key: 'pool',
    },
  ];
}

describe('the columns a table chooses', () => {
  it('a table without a chosen set: key, name, then the fields that differ from their default, in catalogue order', async () => {
    const rows: Row[] = [
      { 'seq-num': 1, ip: '10.0.0.1', mac: '00:00:00:00:00:00', name: '', status: 'disable', q_origin_key: 1 },
      { 'seq-num': 2, ip: '10.0.0.2', mac: '00:00:00:00:00:00', name: 'srv2', status: 'disable', extra: 'x' },
    ];
    const fields = findTable('firewall.ipmacbinding/table')!.fields;
    assert.equal(fields.mac!.default, '00:00:00:00:00:00');
    assert.equal(fields.status!.default, 'disable');
    // mac and status hold their defaults everywhere; a field the catalogue does not know counts when filled.
    assert.deepEqual(header(await table(rows, schemaOf('firewall.ipmacbinding/table'))), [
      'seq-num',
      'name',
      'ip',
      'extra',
    ]);
  });

  it('leaves out uuid, q_* and empty values; a field without a default counts when non-empty', async () => {
    const fields: Record<string, FieldSchema> = {
      id: { type: 'integer' },
      uuid: { type: 'string', format: 'uuid', default: '00000000-0000-0000-0000-000000000000' },
      comment: { type: 'string' },
      note: { type: 'string' },
      member: { type: 'array', items: { name: { type: 'string' } } },
      mode: { type: 'string', default: 'auto' },
      weight: { type: 'integer', default: 10 },
    };
    const rows: Row[] = [
      { id: 1, uuid: 'a6f3…', comment: '', note: 'kept', member: [], mode: 'auto', weight: '10', q_ref: 2 },
      { id: 2, uuid: 'b6f3…', comment: null, note: '', member: [{ name: 'x' }], mode: 'AUTO', weight: 10 },
    ];
    const text = await table(rows, { keyField: 'id', schema: { path: 'area/made-up', fields } });
    // weight '10' is the default 10 by value; mode AUTO is not auto.
    assert.deepEqual(header(text), ['id', 'note', 'member', 'mode']);
  });

  it("works for another release's schema: its defaults where it gives them, else any value counts", async () => {
    const schema = {
      category: 'table',
      mkey: 'name',
      mkey_type: 'string',
      children: {
        name: { type: 'string', size: 35 },
        color: { type: 'integer', 'min-value': 0, 'max-value': 32 },
        'obj-type': { type: 'option', options: [{ name: 'ip' }, { name: 'mac' }] },
        comment: { type: 'var-string', size: 255 },
      },
    };
    const def = tableFromSchema('firewall/address', schema);
    const withDefaults = {
      ...def,
      fields: {
        ...def.fields,
        color: { ...def.fields.color!, default: 0 },
        'obj-type': { ...def.fields['obj-type']!, default: 'ip' },
      },
    };
    const rows: Row[] = [
      { name: 'a', color: 0, 'obj-type': 'ip', comment: '' },
      { name: 'b', color: 0, 'obj-type': 'ip', comment: 'hello' },
    ];
    const path = 'firewall/made-up-in-7.4';
    const without = await table(rows, { keyField: 'name', schema: { path, fields: def.fields } });
    assert.deepEqual(header(without), ['name', 'color', 'obj-type', 'comment']);
    const withThem = await table(rows, { keyField: 'name', schema: { path, fields: withDefaults.fields } });
    assert.deepEqual(header(withThem), ['name', 'comment']);
  });

  it('the chosen set of a table read daily: firewall/policy exactly as CLI.md gives it', async () => {
    assert.equal(
      CHOSEN_COLUMNS['firewall/policy'],
      'policyid name srcintf dstintf srcaddr dstaddr service schedule action nat status',
    );
    const policy: Row = {
      policyid: 4,
      status: 'enable',
      name: 'server-updates',
      uuid: '14884330-f490-4a9a-ab46-3faeb096ba95',
      srcintf: [{ name: 'port4' }],
      dstintf: [{ name: 'port2' }],
      srcaddr: [{ name: 'servers-net' }, { name: 'my net' }],
      dstaddr: [{ name: 'update.example.com' }],
      srcaddr6: [],
      action: 'deny',
      schedule: 'always',
      service: [{ name: 'HTTPS' }],
      'inspection-mode': 'proxy',
      nat: 'disable',
      comments: 'not in the set',
    };
    const text = await table([policy], schemaOf('firewall/policy'));
    assert.deepEqual(header(text), CHOSEN_COLUMNS['firewall/policy']!.split(' '));
    // Lists of references as names joined by spaces, a name with a blank in quotes.
    assert.match(linesOf(text)[1]!, / servers-net "my net" +update\.example\.com +HTTPS /);
  });

  it('a chosen column marked `?` shows only where some object differs from its default', async () => {
    const rows = addresses();
    assert.deepEqual(header(await table(rows, schemaOf('firewall/address'))), [
      'name',
      'type',
      'subnet',
      'start-ip',
      'end-ip',
    ]);
    assert.deepEqual(header(await table(rows.slice(0, 1), schemaOf('firewall/address'))), ['name', 'type', 'subnet']);
  });

  it('every chosen column is a field of its catalogued table, and docs/objects.md lists every chosen set', () => {
    const docs = readFileSync(join(ROOT, 'docs', 'objects.md'), 'utf8');
    for (const [path, words] of Object.entries(CHOSEN_COLUMNS)) {
      const found = findTable(path);
      assert.ok(found?.known, path);
      for (const word of words.split(' ')) assert.ok(word.replace(/\?$/, '') in found.fields, `${path} ${word}`);
      const shown = words.replace(/(\S+)\?/g, '($1)');
      assert.ok(docs.includes(`| \`${path}\` | ${shown} |`), `docs/objects.md lists ${path}: ${shown}`);
    }
  });

  it('--wide: every column, key first, in the order the device gave them, whole on a terminal', async () => {
    const rows = addresses();
    const text = await table(rows, { ...schemaOf('firewall/address'), wide: true }, tty(80));
    const names = header(text);
    assert.deepEqual(names.slice(0, 4), ['name', 'uuid', 'subnet', 'type']);
    assert.equal(names.length, Object.keys(rows[0]!).length);
    assert.ok(!text.includes('…'), 'nothing is cut');
  });

  it('--columns (fields): exactly those, in that order, none left out to fit; cells are cut', async () => {
    const rows = addresses();
    const notes: string[] = [];
    const fields = ['comment', 'name', 'uuid', 'subnet', 'start-ip', 'end-ip', 'type', 'fqdn'];
    const text = await table(
      rows,
      { ...schemaOf('firewall/address'), fields, keepColumns: true, note: (m) => notes.push(m) },
      tty(60),
    );
    assert.deepEqual(header(text).slice(0, 2), ['comment', 'name']);
    assert.equal(linesOf(text)[0]!.split(/ {2,}/).length, fields.length);
    assert.deepEqual(notes, []);
  });

  it('one object: its chosen set first, then every other field that carries information', async () => {
    const policy = {
      policyid: 1,
      status: 'enable',
      name: 'p',
      uuid: 'x',
      srcintf: [{ name: 'port1' }],
      action: 'accept',
      'inspection-mode': 'proxy',
      'anti-replay': 'enable',
      nat: 'disable',
    };
    const text = await render({ kind: 'object', object: policy }, opts('table', tty(80), schemaOf('firewall/policy')));
    assert.deepEqual(
      linesOf(text).map((l) => l.split(/ +/)[0]),
      ['policyid', 'name', 'srcintf', 'action', 'nat', 'status', 'inspection-mode'],
    );
  });

  it('page by page (list --all) gives the same text as the whole list', async () => {
    const rows = [...addresses(), ...addresses().map((r) => ({ ...r, name: `${r.name}-2`, comment: 'late' }))];
    for (const terminal of [pipe(), tty(70)]) {
      const o = opts('table', terminal, schemaOf('firewall/address'));
      let paged = '';
      const sink = createRowSink({ write: (s: string) => (paged += s) }, o);
      for (const row of rows) await sink.write([row]);
      await sink.end();
      assert.equal(paged, await render({ kind: 'list', rows }, o));
    }
  });

  it('one note on stderr for a table of several VDOMs, however many sections left columns out', async () => {
    const notes: string[] = [];
    const wide = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`field-${i}`, `value-${i}`]));
    await render(
      { kind: 'byVdom', vdoms: { root: [{ id: 1, ...wide }], dmz: [{ id: 2, ...wide }] } },
      opts('table', tty(60), { keyField: 'id', note: (m) => notes.push(m) }),
    );
    assert.equal(notes.length, 1);
  });
});

describe('lists as names in csv', () => {
  it('a list of references or members is its names joined by spaces; other nested values stay JSON', async () => {
    const rows: Row[] = [
      {
        policyid: 1,
        srcaddr: [{ name: 'lan-net' }, { name: 'my net', q_origin_key: 'my net' }],
        service: [],
        'src-vendor-mac': [{ id: 3 }, { id: 5 }],
        'custom-log-fields': [{ 'field-id': 'a' }],
      },
    ];
    const text = await render({ kind: 'list', rows }, opts('csv', pipe(), schemaOf('firewall/policy')));
    assert.equal(text, 'policyid,srcaddr,service,src-vendor-mac,custom-log-fields\n1,"lan-net ""my net""",,3 5,a\n');
    const acl = [{ name: 'acl', rule: [{ id: 1, action: 'permit' }] }];
    const nested = await render({ kind: 'list', rows: acl }, opts('csv', pipe(), schemaOf('router/access-list')));
    assert.equal(nested, 'name,rule\nacl,"[{""id"":1,""action"":""permit""}]"\n');
  });

  it('without a catalogue entry, a list whose entries hold one value each', async () => {
    const rows: Row[] = [{ name: 'g', member: [{ name: 'a' }, { name: 'b' }], pairs: [{ a: 1, b: 2 }] }];
    assert.equal(
      await render({ kind: 'list', rows }, opts('csv', pipe(), { keyField: 'name' })),
      'name,member,pairs\ng,a b,"[{""a"":1,""b"":2}]"\n',
    );
  });

  it('page by page, and with --columns, the same cells', async () => {
    const rows: Row[] = [{ name: 'g', member: [{ name: 'a' }, { name: 'b' }], comment: 'c' }];
    const o = opts('csv', pipe(), { ...schemaOf('firewall/addrgrp'), fields: ['member', 'name'] });
    let paged = '';
    const sink = createRowSink({ write: (s: string) => (paged += s) }, o);
    await sink.write(rows);
    await sink.end();
    assert.equal(paged, 'member,name\na b,g\n');
    assert.equal(await render({ kind: 'list', rows }, o), paged);
  });
});
