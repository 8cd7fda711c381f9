import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import { render } from '../../src/output/index.js';
import { accessLists, bindings, diskSetting, opts } from './fixtures.js';

describe('yaml', () => {
  it('prints the same list as json, with keys like seq-num unquoted', async () => {
    const text = await render({ kind: 'list', rows: bindings() }, opts('yaml'));
    assert.deepEqual(parse(text), bindings());
    assert.match(text, /^ {2}seq-num: 1$/m);
    assert.match(text, /^- ip: 10\.0\.0\.1$/m);
  });

  it('prints nested tables as nested sequences', async () => {
    const text = await render({ kind: 'list', rows: accessLists() }, opts('yaml'));
    assert.deepEqual(parse(text), accessLists());
    assert.match(text, /^ {2}rule:\n {4}- id: 1\n {6}q_origin_key: 1$/m);
  });

  it('prints a singleton, several VDOMs and a write like json', async () => {
    assert.deepEqual(parse(await render({ kind: 'object', object: diskSetting() }, opts('yaml'))), diskSetting());
    const vdoms = { root: bindings(), dmz: diskSetting() };
    assert.deepEqual(parse(await render({ kind: 'byVdom', vdoms }, opts('yaml'))), vdoms);
    const write = await render({ kind: 'write', result: { status: 'success', mkey: 'x' }, message: 'm' }, opts('yaml'));
    assert.equal(write, 'status: success\nmkey: x\nrevision: null\nvdom: null\n');
  });

  it('prints [] for an empty list', async () => {
    assert.equal(await render({ kind: 'list', rows: [] }, opts('yaml')), '[]\n');
  });

  it('keeps look-alike strings strings for YAML 1.2 and YAML 1.1 readers', async () => {
    const tricky = [
      '0123',
      'yes',
      'no',
      'on',
      'off',
      'y',
      'n',
      'true',
      'null',
      '~',
      '',
      '1e3',
      '0x1F',
      '1_000',
      '12:30',
      '2024-01-31',
      '.inf',
      '+1',
    ];
    const row = Object.fromEntries(tricky.map((value, i) => [`f${i}`, value]));
    row.n = 'key named n';
    row.on = 'key named on';
    const text = await render({ kind: 'object', object: row }, opts('yaml'));
    assert.deepEqual(parse(text), row);
    assert.deepEqual(parse(text, { version: '1.1' }), row);
  });

  it('does not fold long strings', async () => {
    const comments = 'word '.repeat(40).trim();
    const text = await render({ kind: 'object', object: { comments } }, opts('yaml'));
    assert.equal(text, `comments: ${comments}\n`);
  });
});
