// Every folder a test makes in the temp folder is made here and removed when its test file's process
// ends, whether its tests passed or failed; `npm test` (scripts/test.js) fails if one is left.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const made: string[] = [];

function removeAll(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
}

/** A new folder `<temp>/<prefix>XXXXXX`, removed at the end of this test file's process. */
export function tempDir(prefix = 'cmdb-test-'): string {
  if (!made.length) process.once('exit', removeAll);
  const dir = mkdtempSync(join(tmpdir(), prefix));
  made.push(dir);
  return dir;
}
