import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { render } from '../../src/output/index.js';
import { ESC, accessLists, diskSetting, opts, pipe, tty } from './fixtures.js';

describe('json', () => {
  it('prints a list as the results array, on one line when piped', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('json'));
    assert.equal(text, JSON.stringify(accessLists()) + '\n');
    assert.equal(text.split('\n').length, 2);
  });

  it('indents by two spaces on a terminal', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('json', tty()));
    assert.equal(text, JSON.stringify(accessLists(), null, 2) + '\n');
  });

  it('prints a singleton as the object', async () => {
    const text = await render({ kind: 'object', object: diskSetting() }, opts('json'));
    assert.deepEqual(JSON.parse(text), diskSetting());
  });

  it('keys several VDOMs by name', async () => {
    const vdoms = { root: accessLists(), dmz: [] };
    const text = await render({ kind: 'byVdom', vdoms }, opts('json'));
    assert.equal(text, '{"root":' + JSON.stringify(accessLists()) + ',"dmz":[]}\n');
  });

  it('prints a write as status, mkey, revision, vdom (absent ones null)', async () => {
    const text = await render(
      { kind: 'write', result: { status: 'success', mkey: 7 }, message: 'Created dlp/filepattern 7 in vdom root' },
      opts('json'),
    );
    assert.equal(text, '{"status":"success","mkey":7,"revision":null,"vdom":null}\n');
    const full = await render(
      { kind: 'write', result: { vdom: 'root', revision: 'abc', mkey: 'web', status: 'success' }, message: 'x' },
      opts('json'),
    );
    assert.equal(full, '{"status":"success","mkey":"web","revision":"abc","vdom":"root"}\n');
  });

  it('prints [] for an empty list', async () => {
    assert.equal(await render({ kind: 'list', rows: [] }, opts('json')), '[]\n');
  });

  it('never colours JSON, even on a colour terminal', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('json', tty(80, true)));
    assert.ok(!text.includes(ESC));
  });
});

describe('ndjson', () => {
  it('prints one compact object per row', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('ndjson', tty()));
    const lines = text.split('\n');
    assert.equal(lines.pop(), '');
    assert.deepEqual(
      lines.map((l) => JSON.parse(l)),
      accessLists(),
    );
    assert.equal(lines[0], JSON.stringify(accessLists()[0]));
  });

  it('prints a singleton as one line', async () => {
    assert.equal(
      await render({ kind: 'object', object: diskSetting() }, opts('ndjson')),
      JSON.stringify(diskSetting()) + '\n',
    );
  });

  it('adds the VDOM as the first field of each row, the queried VDOM winning', async () => {
    const text = await render(
      { kind: 'byVdom', vdoms: { root: [{ name: 'a' }, { name: 'b' }], dmz: { status: 'enable', vdom: 'other' } } },
      opts('ndjson'),
    );
    assert.equal(text, '{"vdom":"root","name":"a"}\n{"vdom":"root","name":"b"}\n{"vdom":"dmz","status":"enable"}\n');
  });

  it('prints a write as one line', async () => {
    const text = await render(
      { kind: 'write', result: { status: 'success', mkey: 3, vdom: 'root' }, message: 'm' },
      opts('ndjson'),
    );
    assert.equal(text, '{"status":"success","mkey":3,"revision":null,"vdom":"root"}\n');
  });

  it('prints nothing for an empty list', async () => {
    assert.equal(await render({ kind: 'list', rows: [] }, opts('ndjson')), '');
  });
});

describe('raw', () => {
  const body = [{ http_method: 'GET', results: [{ 'seq-num': 1 }], vdom: 'root', status: 'success' }];

  it('prints the body as compact JSON whatever the format when piped', async () => {
    for (const format of ['table', 'json', 'yaml', 'ndjson', 'csv'] as const) {
      assert.equal(await render({ kind: 'raw', body }, opts(format, pipe())), JSON.stringify(body) + '\n', format);
    }
  });

  it('pretty-prints on a terminal', async () => {
    assert.equal(
      await render({ kind: 'raw', body }, opts('table', tty(80, true))),
      JSON.stringify(body, null, 2) + '\n',
    );
  });
});
