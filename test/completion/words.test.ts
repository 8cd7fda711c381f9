// Splitting the line as bash would, and printing candidates so that each shell inserts them right.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatCompletion } from '../../src/completion/format.js';
import { splitLine } from '../../src/completion/words.js';

const BREAKS = `"'><=;|&(:`;

describe('splitLine', () => {
  it('splits at blanks and removes quotes and escapes', () => {
    assert.deepEqual(splitLine(`cmdb get 'a b' "c\\"d" e\\ f g`).words, ['cmdb', 'get', 'a b', 'c"d', 'e f']);
    assert.deepEqual(splitLine('cmdb get ').current, { value: '', quote: null, kept: 0 });
  });

  it('knows an open quote: readline replaces what follows it', () => {
    assert.deepEqual(splitLine(`cmdb get t 'lab g`, BREAKS).current, { value: 'lab g', quote: "'", kept: 0 });
    assert.deepEqual(splitLine(`cmdb get t --set="name=a b`, BREAKS).current, {
      value: '--set=name=a b',
      quote: '"',
      kept: 6,
    });
  });

  it('keeps the text up to the last unquoted word break', () => {
    assert.deepEqual(splitLine('cmdb x --set roll-day=mo', BREAKS).current, {
      value: 'roll-day=mo',
      quote: null,
      kept: 9,
    });
    assert.deepEqual(splitLine('cmdb x edge:a', BREAKS).current, { value: 'edge:a', quote: null, kept: 5 });
    assert.deepEqual(splitLine('cmdb x edge\\:a', BREAKS).current, { value: 'edge:a', quote: null, kept: 0 });
    assert.deepEqual(splitLine('cmdb x edge:a', '').current.kept, 0);
  });
});

describe('formatCompletion', () => {
  const plain = { value: '', quote: null, kept: 0 } as const;

  it('prints nothing when there is nothing to offer', () => {
    for (const shell of ['bash', 'zsh', 'fish'] as const)
      assert.equal(formatCompletion(shell, { candidates: [] }, plain), '');
  });

  it('asks the shell for file names', () => {
    assert.equal(formatCompletion('bash', { candidates: [], files: true }, plain), 'files\n');
  });

  it('escapes for bash as the word is typed', () => {
    const keys = { candidates: [{ value: 'lab gateway' }, { value: "it's $x" }, { value: '10.0.0.0/8' }] };
    assert.equal(formatCompletion('bash', keys, plain), "words\nlab\\ gateway\nit\\'s\\ \\$x\n10.0.0.0/8\n");
    assert.equal(
      formatCompletion('bash', keys, { value: '', quote: "'", kept: 0 }),
      "words\nlab gateway\nit'\\''s $x\n10.0.0.0/8\n",
    );
    assert.equal(
      formatCompletion('bash', keys, { value: '', quote: '"', kept: 0 }),
      "words\nlab gateway\nit's \\$x\n10.0.0.0/8\n",
    );
  });

  it('trims bash candidates to what readline replaces, and says when no space may follow', () => {
    const set = { candidates: [{ value: 'roll-day=', noSpace: true }] };
    assert.equal(formatCompletion('bash', set, { value: 'roll-d', quote: null, kept: 0 }), 'nospace\nroll-day=\n');
    const values = { candidates: [{ value: 'roll-day=monday' }] };
    assert.equal(formatCompletion('bash', values, { value: 'roll-day=mo', quote: null, kept: 9 }), 'words\nmonday\n');
  });

  it('gives zsh the space flag and fish the description', () => {
    const c = {
      candidates: [
        { value: 'log.disk/', noSpace: true },
        { value: 'get', description: 'read one\tobject' },
      ],
    };
    assert.equal(formatCompletion('zsh', c, plain), 'words\n-\tlog.disk/\t\n+\tget\tread one object\n');
    assert.equal(formatCompletion('fish', c, plain), 'words\nlog.disk/\nget\tread one object\n');
  });

  it('drops a candidate that cannot travel on one line', () => {
    assert.equal(formatCompletion('fish', { candidates: [{ value: 'a\nb' }, { value: 'c' }] }, plain), 'words\nc\n');
  });
});
