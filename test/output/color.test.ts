import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideColor, defaultFormat, OUTPUT_FORMATS, isOutputFormat, terminalFor } from '../../src/output/index.js';

const TTY = { isTTY: true };
const PIPE = { isTTY: false };

describe('decideColor', () => {
  const cases: [string, { isTTY?: boolean }, NodeJS.ProcessEnv, boolean, boolean][] = [
    ['terminal', TTY, {}, false, true],
    ['pipe', PIPE, {}, false, false],
    ['stream without isTTY', {}, {}, false, false],
    ['--no-color on a terminal', TTY, {}, true, false],
    ['NO_COLOR on a terminal', TTY, { NO_COLOR: '1' }, false, false],
    ['NO_COLOR empty is unset', TTY, { NO_COLOR: '' }, false, true],
    ['FORCE_COLOR into a pipe', PIPE, { FORCE_COLOR: '1' }, false, true],
    ['FORCE_COLOR=3 into a pipe', PIPE, { FORCE_COLOR: '3' }, false, true],
    ['FORCE_COLOR empty is unset', PIPE, { FORCE_COLOR: '' }, false, false],
    ['FORCE_COLOR=0 on a terminal', TTY, { FORCE_COLOR: '0' }, false, false],
    ['FORCE_COLOR=false on a terminal', TTY, { FORCE_COLOR: 'false' }, false, false],
    ['FORCE_COLOR beats NO_COLOR', PIPE, { FORCE_COLOR: '1', NO_COLOR: '1' }, false, true],
    ['--no-color beats FORCE_COLOR', TTY, { FORCE_COLOR: '1' }, true, false],
    ['TERM=dumb on a terminal', TTY, { TERM: 'dumb' }, false, false],
    ['FORCE_COLOR beats TERM=dumb', TTY, { TERM: 'dumb', FORCE_COLOR: '1' }, false, true],
  ];
  for (const [name, stream, env, flag, expected] of cases) {
    it(`${name} -> ${expected ? 'colour' : 'no colour'}`, () => {
      assert.equal(decideColor(stream, env, flag), expected);
    });
  }
});

describe('defaultFormat', () => {
  it('is table on a terminal and json otherwise', () => {
    assert.equal(defaultFormat(true), 'table');
    assert.equal(defaultFormat(false), 'json');
  });

  it('lists the six formats', () => {
    assert.deepEqual([...OUTPUT_FORMATS], ['table', 'json', 'yaml', 'ndjson', 'csv', 'cli']);
    assert.ok(isOutputFormat('ndjson'));
    assert.ok(!isOutputFormat('xml'));
  });
});

describe('terminalFor', () => {
  it('takes the width of a terminal', () => {
    assert.deepEqual(terminalFor({ isTTY: true, columns: 132 }, {}, false), { isTTY: true, columns: 132, color: true });
  });

  it('falls back on $COLUMNS, then 80', () => {
    assert.equal(terminalFor({ isTTY: false }, { COLUMNS: '100' }, false).columns, 100);
    assert.equal(terminalFor({ isTTY: false }, {}, false).columns, 80);
    assert.equal(terminalFor({ isTTY: true, columns: 0 }, { COLUMNS: 'wide' }, false).columns, 80);
  });

  it('decides colour the same way as decideColor', () => {
    assert.equal(terminalFor({ isTTY: true, columns: 80 }, { NO_COLOR: '1' }, false).color, false);
    assert.equal(terminalFor({ isTTY: false }, { FORCE_COLOR: '1' }, false).color, true);
  });
});
