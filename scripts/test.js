#!/usr/bin/env node
// Runs every compiled *.test.js under dist/test with node:test (explicit files: Node 20 would also
// treat every .js file below a `test` folder as a test, fixtures included).
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
  );
}

const only = process.argv.slice(2);
const files = find('dist/test')
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
if (!files.length) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
const result = spawnSync(process.execPath, ['--test', '--test-reporter=spec', ...files], { stdio: 'inherit' });
process.exit(result.status ?? 1);
