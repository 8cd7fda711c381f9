#!/usr/bin/env node
// Runs every compiled *.test.js under dist/test with node:test (explicit files: Node 20 would also
// treat every .js file below a `test` folder as a test, fixtures included).
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function find(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? find(join(dir, e.name)) : e.name.endsWith('.test.js') ? [join(dir, e.name)] : [],
  );
}

// The files that take longest (tens of seconds of processes, or of waiting on timeouts) start first, so
// that the run does not end waiting on one of them alone; the others follow in path order.
const SLOW = [
  'e2e/examples',
  'e2e/memory',
  'e2e/concurrency',
  'keychain/keychain',
  'e2e/rate-limit',
  'e2e/hostile',
  'completion/shells',
  'e2e/config-as-code',
  'e2e/lost-answers',
  'e2e/refused',
  'e2e/full-export',
];
const slowness = (f) => {
  const i = SLOW.findIndex((s) => f.endsWith(`/${s}.test.js`));
  return i < 0 ? SLOW.length : i;
};
const only = process.argv.slice(2);
const files = find('dist/test')
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort()
  .sort((a, b) => slowness(a) - slowness(b));
if (!files.length) {
  console.error('no test files found under dist/test');
  process.exit(1);
}
// Test files run CONCURRENCY at a time (node:test's default on two cores is one after another): most of
// a file's time is spent waiting on the processes, servers and timeouts it starts, so files overlap
// well, and every file has its own HOMEs, temp folders, emulators (port 0) and keyring bus.
const concurrency = Number(process.env.CMDB_TEST_CONCURRENCY) || 4;
// The run's own temp folder (TMPDIR for the tests and every program they start): whatever a test made
// there and did not remove fails the run, which then removes it, so nothing piles up run after run.
const temp = mkdtempSync(join(tmpdir(), 'cmdb-test-run-'));
let result;
let left;
try {
  result = spawnSync(
    process.execPath,
    ['--test', '--test-reporter=spec', `--test-concurrency=${concurrency}`, ...files],
    {
      stdio: 'inherit',
      env: { ...process.env, TMPDIR: temp },
    },
  );
  left = readdirSync(temp);
} finally {
  rmSync(temp, { recursive: true, force: true, maxRetries: 3 });
}
if (left.length) {
  console.error(
    `\nthe tests left ${left.length} entries in the temp folder (${temp}, now removed): ${left.slice(0, 20).join(', ')}${left.length > 20 ? ', ...' : ''}`,
  );
  console.error('every test must remove what it creates: make folders with tempDir() (test/helpers/temp.ts)');
  process.exit(result.status || 1);
}
process.exit(result.status ?? 1);
