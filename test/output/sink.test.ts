import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { describe, it } from 'node:test';
import { createRowSink, type Row } from '../../src/output/index.js';
import { bindings, opts, tty } from './fixtures.js';

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
    assert.equal(out.text(), bindings().map((r) => JSON.stringify(r) + '\n').join(''));
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

  it('buffers json into one array', async () => {
    const out = collector();
    const sink = createRowSink(out, opts('json'));
    await sink.write(page1);
    await sink.write(page2);
    assert.equal(out.text(), '');
    await sink.end();
    assert.equal(out.text(), JSON.stringify(bindings()) + '\n');
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
