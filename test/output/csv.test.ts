import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { render } from '../../src/output/index.js';
import { accessLists, bindings, diskSetting, opts } from './fixtures.js';

/** A strict RFC 4180 reader (with "\n" line ends), to check what a spreadsheet would see. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (c === '"' && field === '') {
      i++;
      for (;;) {
        const d = text[i];
        if (d === undefined) throw new Error('unterminated quote');
        if (d === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          break;
        }
        field += d;
        i++;
      }
      const next = text[i];
      if (next !== ',' && next !== '\n') throw new Error(`junk after quoted field at ${i}`);
      continue;
    }
    if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
    } else {
      if (c === '"' || c === '\r') throw new Error(`unquoted ${JSON.stringify(c)} at ${i}`);
      field += c;
    }
    i++;
  }
  assert.equal(field, '', 'text must end with a line end');
  return records;
}

describe('csv', () => {
  it('puts the key column first, then the other fields in first-seen order', async () => {
    const text = await render({ kind: 'list', rows: bindings() }, opts('csv', undefined, { keyField: 'seq-num' }));
    assert.equal(
      text,
      'seq-num,ip,q_origin_key,mac,name,status\n' +
        '1,10.0.0.1,1,00:11:22:33:44:55,srv1,enable\n' +
        '2,10.0.0.2,2,00:11:22:33:44:66,srv2,disable\n',
    );
  });

  it('leaves out the header line with headers: false (--no-headers)', async () => {
    const text = await render(
      { kind: 'list', rows: bindings() },
      opts('csv', undefined, { keyField: 'seq-num', headers: false }),
    );
    assert.equal(
      text,
      '1,10.0.0.1,1,00:11:22:33:44:55,srv1,enable\n' + '2,10.0.0.2,2,00:11:22:33:44:66,srv2,disable\n',
    );
  });

  it("takes the union of the rows' fields, missing and null values empty", async () => {
    const rows = [
      { name: 'a', x: 1 },
      { name: 'b', y: null, z: true },
    ];
    const text = await render({ kind: 'list', rows }, opts('csv', undefined, { keyField: 'name' }));
    assert.equal(text, 'name,x,y,z\na,1,,\nb,,,true\n');
  });

  it('quotes fields with a comma, a quote, CR or LF, doubling quotes', async () => {
    const rows = [{ name: 'a,b', comments: 'say "hi"', multi: 'one\ntwo', cr: 'x\ry', plain: 'p q' }];
    const text = await render({ kind: 'list', rows }, opts('csv'));
    assert.equal(text, 'name,comments,multi,cr,plain\n"a,b","say ""hi""","one\ntwo","x\ry",p q\n');
    assert.deepEqual(parseCsv(text), [
      ['name', 'comments', 'multi', 'cr', 'plain'],
      ['a,b', 'say "hi"', 'one\ntwo', 'x\ry', 'p q'],
    ]);
  });

  it('quotes header names that need it', async () => {
    const text = await render({ kind: 'list', rows: [{ 'a,b': 1, 'say "x"': 2 }] }, opts('csv'));
    assert.deepEqual(parseCsv(text), [
      ['a,b', 'say "x"'],
      ['1', '2'],
    ]);
  });

  it('writes nested tables as compact JSON', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('csv', undefined, { keyField: 'name' }));
    const [header, first] = parseCsv(text);
    assert.deepEqual(header, ['name', 'q_origin_key', 'comments', 'rule']);
    assert.deepEqual(JSON.parse(first![3]!), accessLists()[0]!.rule);
    assert.equal(first![3], JSON.stringify(accessLists()[0]!.rule));
  });

  it('prints exactly the --fields columns, in that order', async () => {
    const text = await render(
      { kind: 'list', rows: bindings() },
      opts('csv', undefined, { keyField: 'seq-num', fields: ['name', 'ip'] }),
    );
    assert.equal(text, 'name,ip\nsrv1,10.0.0.1\nsrv2,10.0.0.2\n');
  });

  it('ends lines with LF only', async () => {
    const text = await render({ kind: 'list', rows: bindings() }, opts('csv'));
    assert.ok(!text.includes('\r'));
    assert.ok(text.endsWith('\n'));
  });

  it('prints a singleton as a header and one row', async () => {
    const text = await render({ kind: 'object', object: diskSetting() }, opts('csv'));
    assert.equal(
      text,
      'status,max-log-file-size,roll-schedule,upload-destination,uploadip\nenable,20,daily,ftp-server,0.0.0.0\n',
    );
  });

  it('puts a vdom column first for several VDOMs', async () => {
    const vdoms = { root: [{ name: 'a', vdom: 'ignored' }], dmz: [{ name: 'b', extra: 1 }], empty: [] };
    const text = await render({ kind: 'byVdom', vdoms }, opts('csv', undefined, { keyField: 'name' }));
    assert.equal(text, 'vdom,name,extra\nroot,a,\ndmz,b,1\n');
  });

  it('prints a write as a header and one row', async () => {
    const text = await render(
      { kind: 'write', result: { status: 'success', mkey: 'a,b', vdom: 'root' }, message: 'm' },
      opts('csv'),
    );
    assert.equal(text, 'status,mkey,revision,vdom\nsuccess,"a,b",,root\n');
  });

  it('prints nothing for an empty list, or just the header with --fields', async () => {
    assert.equal(await render({ kind: 'list', rows: [] }, opts('csv')), '');
    assert.equal(
      await render({ kind: 'list', rows: [] }, opts('csv', undefined, { fields: ['name', 'ip'] })),
      'name,ip\n',
    );
  });
});
