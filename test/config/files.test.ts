// The one writer of files: every folder cmdb creates is 0700 and every file 0600, whatever the umask.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, closeSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { makePrivateTempDir, openPrivateFile, writePrivateFile } from '../../src/files.js';
import { withLock } from '../../src/config/lock.js';
import { tooDeepAt } from '../../src/config/files.js';
import { tempDir } from '../helpers/temp.js';

const mode = (path: string) => statSync(path).mode & 0o777;

test('under any umask: folders 0700 (parents too), files 0600, a stale temporary file or an old file of another mode included', async (t) => {
  const root = tempDir('cmdb-files-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  for (const umask of [0o000, 0o022, 0o277]) {
    const saved = process.umask(umask);
    try {
      const base = join(root, `u${umask.toString(8)}`);
      const file = join(base, 'a', 'b', 'config.yaml');
      writePrivateFile(file, 'one');
      assert.deepEqual(
        [mode(base), mode(join(base, 'a')), mode(join(base, 'a', 'b')), mode(file)],
        [0o700, 0o700, 0o700, 0o600],
        `umask ${umask.toString(8)}`,
      );
      writeFileSync(`${file}.${process.pid}.tmp`, 'stale', { mode: 0o666 });
      writeFileSync(file, 'old', { mode: 0o644 });
      writePrivateFile(file, 'two');
      assert.equal(mode(file), 0o600);
      assert.equal(readFileSync(file, 'utf8'), 'two');
      assert.deepEqual(readdirSync(join(base, 'a', 'b')), ['config.yaml']);
      const temp = makePrivateTempDir(base, 'cmdb-edit-');
      assert.equal(mode(temp), 0o700);
      closeSync(openPrivateFile(join(temp, 'spool'), 'wx+'));
      assert.equal(mode(join(temp, 'spool')), 0o600);
      const lock = join(base, 'locks', 'config.yaml.lock');
      await withLock(lock, () => assert.deepEqual([mode(join(base, 'locks')), mode(lock)], [0o700, 0o600]));
    } finally {
      process.umask(saved);
    }
  }
});

test('an existing folder is left as it is, named once when others can read it', (t) => {
  const root = tempDir('cmdb-files-');
  t.after(() => rmSync(root, { recursive: true, force: true }));
  const warnings: string[] = [];
  writePrivateFile(join(root, 'x.yaml'), 'x', { warn: (m) => warnings.push(m) });
  writePrivateFile(join(root, 'y.yaml'), 'y', { warn: (m) => warnings.push(m) });
  assert.equal(mode(root), 0o700);
  assert.equal(warnings.length, 0, 'a private folder is not named');
  const open = join(root, 'open');
  mkdirSync(open);
  chmodSync(open, 0o755);
  writePrivateFile(join(open, 'x'), 'x', { warn: (m) => warnings.push(m) });
  writePrivateFile(join(open, 'y'), 'y', { warn: (m) => warnings.push(m) });
  assert.equal(mode(open), 0o755);
  assert.equal(warnings.length, 1, warnings.join('\n'));
  assert.match(warnings[0], /already exists and other users can read it/);
});

test('the nesting bound counts flow collections, block items on one line and indentation; ordinary documents pass', () => {
  const stairs = (n: number) =>
    'x: [1]\n' + Array.from({ length: n }, (_, i) => `${' '.repeat(i)}k${i}:\n`).join('') + `${' '.repeat(n)}k: v\n`;
  assert.equal(tooDeepAt(stairs(60)), null);
  assert.notEqual(tooDeepAt(stairs(70)), null);
  assert.notEqual(tooDeepAt(`${'- '.repeat(70)}x\n`), null);
  assert.notEqual(tooDeepAt(`a: ${'['.repeat(70)}`), null);
  assert.equal(
    tooDeepAt(
      'vdoms:\n  root:\n    t:\n      - a: 1\n        b: [1, {c: "[[[["}]\n      - a: don\'t [[[[\n    # [[[[\n    u:\n      x: 1\n',
    ),
    null,
  );
});
