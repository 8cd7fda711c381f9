import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { tempDir } from '../helpers/temp.js';

// A resolve hook that refuses the heavy libraries: importing the output layer must still
// work, and only the formatters that need them may fail.
const HOOKS = `
export async function resolve(specifier, context, next) {
  if (/^(yaml|cli-table3|chalk)(\\/|$)/.test(specifier)) throw new Error('blocked ' + specifier);
  return next(specifier, context);
}
`;

const SCRIPT = (indexUrl: string) => `
const output = await import(${JSON.stringify(indexUrl)});
console.log('imported');
const terminal = { isTTY: false, columns: 80, color: false };
const data = { kind: 'list', rows: [{ name: 'a' }] };
for (const format of ['json', 'ndjson', 'csv', 'yaml', 'table']) {
  try {
    await output.render(data, { format, terminal });
    console.log(format + ' ok');
  } catch (err) {
    console.log(format + ' ' + err.message);
  }
}
const plain = output.formatError({ exit: 1, status: null, code: null, message: 'x' }, { json: false, color: true });
console.log(plain === 'cmdb: x' + String.fromCharCode(10) ? 'errors ok' : 'errors coloured without chalk');
await output.loadPalette().then(() => console.log('palette loaded'), (err) => console.log('palette ' + err.message));
`;

describe('startup cost', () => {
  it('imports the output layer without yaml, cli-table3 or chalk', () => {
    const dir = tempDir('cmdb-output-');
    try {
      writeFileSync(join(dir, 'hooks.mjs'), HOOKS);
      writeFileSync(
        join(dir, 'register.mjs'),
        `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(join(dir, 'hooks.mjs')).href)});\n`,
      );
      const indexUrl = new URL('../../src/output/index.js', import.meta.url).href;
      const run = spawnSync(
        process.execPath,
        ['--import', pathToFileURL(join(dir, 'register.mjs')).href, '--input-type=module', '-e', SCRIPT(indexUrl)],
        { encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } },
      );
      assert.equal(run.status, 0, run.stderr);
      assert.deepEqual(run.stdout.trim().split('\n'), [
        'imported',
        'json ok',
        'ndjson ok',
        'csv ok',
        'yaml blocked yaml',
        'table ok',
        'errors ok',
        'palette blocked chalk',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
