import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { createRowSink, type Row } from '../../src/output/index.js';
import { accessLists, bindings, opts, pipe, tty } from './fixtures.js';
import { render, type RenderOptions } from '../../src/output/index.js';
import { Spool } from '../../src/output/spool.js';

function collector() {
  const chunks: string[] = [];
  return { chunks, write: (s: string) => void chunks.push(s), text: () => chunks.join('') };
}

const [page1, page2] = [bindings().slice(0, 1), bindings().slice(1)];

describe('createRowSink', () => {
  it('writes each ndjson page at once', async () => {
    const out = collector();
    const sink = createRowSink(out, opts('ndjson'));
    await sink.write(page1);
    assert.equal(out.text(), JSON.stringify(page1[0]) + '\n');
    await sink.write(page2);
    assert.equal(out.chunks.length, 2);
    await sink.end();
    assert.equal(
      out.text(),
      bindings()
        .map((r) => JSON.stringify(r) + '\n')
        .join(''),
    );
  });

  it('buffers a table until end, then prints one table of every page', async () => {
    const out = collector();
    const sink = createRowSink(out, opts('table', tty(120), { keyField: 'seq-num' }));
    await sink.write(page1);
    await sink.write([{ ...page2[0]!, extra: 'late field' }]);
    assert.equal(out.text(), '');
    await sink.end();
    const lines = out.text().trimEnd().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^seq-num .* extra$/);
    assert.match(lines[2]!, /late field$/);
  });

  it('writes json as the pages come, into one array', async () => {
    const out = collector();
    const sink = createRowSink(out, opts('json'));
    await sink.write(page1);
    assert.equal(out.text(), '[' + JSON.stringify(page1[0]));
    await sink.write(page2);
    await sink.end();
    assert.equal(out.text(), JSON.stringify(bindings()) + '\n');
  });

  it('writes csv with --fields as the pages come', async () => {
    const out = collector();
    const sink = createRowSink(out, opts('csv', pipe(), { fields: ['seq-num', 'ip'] }));
    await sink.write(page1);
    assert.equal(out.text(), `seq-num,ip\n${page1[0]!['seq-num']},${page1[0]!.ip}\n`);
    await sink.end();
  });

  it('writes [] for no rows in json and nothing in table', async () => {
    const json = collector();
    await createRowSink(json, opts('json')).end();
    assert.equal(json.text(), '[]\n');
    const table = collector();
    const sink = createRowSink(table, opts('table', tty()));
    await sink.write([]);
    await sink.end();
    assert.deepEqual(table.chunks, []);
  });

  it('refuses rows after end', async () => {
    const sink = createRowSink(collector(), opts('ndjson'));
    await sink.end();
    await assert.rejects(sink.write(page1), /after end/);
  });

  it('waits for a full stream to drain', async () => {
    const stream = new (class extends EventEmitter {
      written: string[] = [];
      write(s: string) {
        this.written.push(s);
        return false;
      }
    })();
    const sink = createRowSink(stream, opts('ndjson'));
    let done = false;
    const pending = sink.write(page1 as Row[]).then(() => (done = true));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(stream.written.length, 1);
    assert.equal(done, false);
    stream.emit('drain');
    await pending;
    assert.equal(done, true);
    assert.equal(stream.listenerCount('drain'), 0);
    assert.equal(stream.listenerCount('error'), 0);
  });
});

/** Rows whose shape changes from page to page: late fields, the key field late, meta fields, wide text. */
function awkward(): Row[] {
  return [
    { name: 'a', q_origin_key: 'a', comment: 'first, with "quotes"' },
    { name: 'b', extra: 'late\nfield', nested: [{ name: 'x' }, { name: 'y' }] },
    { id: 3, name: '漢字テキスト', q_ref: 2, status: 'enable' },
    { comment: 'no name at all' },
    { name: 'e', id: 5, 'long-field-name-for-a-narrow-terminal': 'x'.repeat(90) },
  ];
}

const FORMATS = ['table', 'json', 'ndjson', 'csv', 'yaml'] as const;
const VIEWS: [string, Partial<RenderOptions> & { terminal: RenderOptions['terminal'] }][] = [
  ['piped', { terminal: pipe() }],
  ['a narrow coloured terminal', { terminal: tty(40, true) }],
  ['a wide terminal', { terminal: tty(200) }],
  ['keyed by id', { terminal: pipe(), keyField: 'id' }],
  ['keyed by name on a terminal', { terminal: tty(80), keyField: 'name' }],
  ['--fields', { terminal: tty(60), fields: ['name', 'q_ref', 'missing', 'name'] }],
];

async function paged(format: RenderOptions['format'], view: Partial<RenderOptions>, pages: Row[][]): Promise<string> {
  const out = collector();
  const sink = createRowSink(out, { format, terminal: pipe(), ...view });
  for (const page of pages) await sink.write(page);
  await sink.end();
  return out.text();
}

describe('createRowSink prints what render() prints for all the rows', () => {
  for (const format of FORMATS) {
    for (const [name, view] of VIEWS) {
      it(`${format}, ${name}`, async () => {
        for (const rows of [awkward(), accessLists(), bindings(), []]) {
          const whole = await render({ kind: 'list', rows }, { format, ...view });
          assert.equal(await paged(format, view, [rows]), whole);
          assert.equal(
            await paged(
              format,
              view,
              rows.map((row) => [row]),
            ),
            whole,
            'one row a page',
          );
          assert.equal(await paged(format, view, [[], rows, []]), whole, 'empty pages');
        }
      });
    }
  }

  it('keeps table and csv rows beyond its memory in a temporary file, with the same result', async () => {
    const rows: Row[] = Array.from({ length: 40_000 }, (_, i) => ({
      id: i,
      name: `host-${i} ✓`,
      ip: `10.0.${i >> 8}.${i & 255}`,
      comment: 'é'.repeat(i % 7) + 'x'.repeat(60),
    }));
    rows[39_999] = { ...rows[39_999], late: 'a field seen last' };
    for (const format of ['table', 'csv'] as const) {
      const view = { terminal: pipe(), keyField: 'id' };
      const pages = Array.from({ length: 40 }, (_, p) => rows.slice(p * 1000, p * 1000 + 1000));
      assert.equal(await paged(format, view, pages), await render({ kind: 'list', rows }, { format, ...view }));
    }
  });
});

describe('a long piped table', () => {
  it('is laid out as a plain reading of the rule: columns as wide as their widest cell, two spaces apart, no blanks at the end', async () => {
    // Plain rows, with now and then a row that ends in an empty or blank cell, lacks fields, or has none.
    const rows: Row[] = Array.from({ length: 30_000 }, (_, i) => ({
      id: i,
      name: `h${i}`,
      ip: `10.0.${i >> 8}.${i & 255}`,
      comment: i % 7 ? 'x'.repeat(i % 23) : '',
    }));
    for (let i = 500; i < rows.length; i += 3001) {
      rows[i] = { ...rows[i], comment: 'blank at the end ' };
      rows[i + 1] = { id: rows[i + 1]!.id, name: '' };
      rows[i + 2] = {};
      rows[i + 3] = { ...rows[i + 3], name: '  spaced  ', comment: ' ' };
    }
    const columns = ['id', 'name', 'ip', 'comment'];
    const text = (row: Row, c: string) => (row[c] === undefined ? '' : String(row[c]));
    const widths = columns.map((c) => Math.max(c.length, ...rows.map((row) => text(row, c).length)));
    const line = (cells: string[]) =>
      cells
        .map((cell, c) => (c < cells.length - 1 ? cell.padEnd(widths[c]! + 2) : cell))
        .join('')
        .trimEnd() + '\n';
    const expected = line(columns) + rows.map((row) => line(columns.map((c) => text(row, c)))).join('');
    const pages = Array.from({ length: 30 }, (_, p) => rows.slice(p * 1000, p * 1000 + 1000));
    assert.equal(await paged('table', { keyField: 'id' }, pages), expected);
  });
});

describe('Spool', () => {
  it('gives back every record in order, in memory and spilled, multi-byte text cut anywhere', () => {
    const spool = new Spool(100);
    const records = Array.from({ length: 5000 }, (_, i) => `${i}:${'é漢'.repeat(i % 13)}:"x"`);
    for (const r of records) spool.push(r);
    assert.deepEqual([...spool.records()], records);
    assert.deepEqual([...spool.records()], records, 'twice');
    spool.close();
  });

  it('gives back rows of cells as pushed, whatever characters the cells hold, in memory and spilled', () => {
    const odd = [
      '',
      'a,b',
      '"q"',
      'line\nbreak',
      'unit\x1fsep',
      'rec\x1esep',
      '\x1en',
      '\x1e',
      '\x1f',
      '\n',
      '\\n',
      'é漢\u2028',
      '[1,"x"]',
      'null',
    ];
    const rows = Array.from({ length: 3000 }, (_, i) => [
      String(i),
      odd[i % odd.length]!,
      odd[(i * 7) % odd.length]! + odd[(i * 3) % odd.length]!,
    ]);
    for (const limit of [100, 1 << 20]) {
      const spool = new Spool(limit);
      for (const row of rows) spool.pushCells(row);
      assert.deepEqual([...spool.cellRecords()], rows);
      spool.close();
    }
  });

  it('reads a missing cell back as empty text', () => {
    const spool = new Spool();
    spool.pushCells(['a', undefined, 'c']);
    spool.pushCells([]);
    spool.pushCells([undefined]);
    assert.deepEqual([...spool.cellRecords()], [['a', '', 'c'], [''], ['']]);
    spool.close();
  });
});
