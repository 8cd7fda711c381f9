// Habits of the source tree that the formatter cannot keep: it wraps code at 120 characters, but not comments
// or long string literals, so a line of src/ over 120 characters fails here, named by file and line.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../helpers/cli.js';

const MAX = 120;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

test(`no line of src/**/*.ts is over ${MAX} characters`, () => {
  const files = sources(join(ROOT, 'src'));
  assert.ok(files.length > 100, 'the sources are found');
  const long = files.flatMap((path) =>
    readFileSync(path, 'utf8')
      .split('\n')
      .flatMap((line, i) => (line.length > MAX ? [`${relative(ROOT, path)}:${i + 1}: ${line.length} characters`] : [])),
  );
  assert.deepEqual(long, []);
});
