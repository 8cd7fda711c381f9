// What `npm pack` ships runs: the package's files alone (bin, dist/src, the catalogue, help, man),
// unpacked in a folder of their own, answer `cmdb tables` and a --demo list. The dependencies are
// the project's own (a symlinked node_modules): an offline `npm install` of the tarball needs every
// dependency in the npm cache, which a test machine does not promise.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

test('the packed package runs: cmdb tables and cmdb --demo list', () => {
  const dir = tempDir('cmdb-pack-');
  // --ignore-scripts: the tree under test is already built; `prepare` would rebuild it under the other tests.
  execFileSync('npm', ['pack', '--ignore-scripts', '--pack-destination', dir], { cwd: ROOT, stdio: 'ignore' });
  const tarball = readdirSync(dir).find((f) => f.endsWith('.tgz'))!;
  execFileSync('tar', ['-xzf', join(dir, tarball), '-C', dir]);
  const pkg = join(dir, 'package');
  symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  const env = isolatedEnv();
  const run = (args: string[]) =>
    spawnSync(process.execPath, [join(pkg, 'bin/cmdb.js'), ...args], { env, encoding: 'utf8', cwd: dir });

  const tables = run(['tables', '-o', 'json']);
  assert.equal(tables.status, 0, tables.stderr);
  assert.ok((JSON.parse(tables.stdout) as { path: string }[]).some((t) => t.path === 'firewall.ipmacbinding/table'));

  const list = run(['--demo', 'list', 'firewall.ipmacbinding/table', '-o', 'json']);
  assert.equal(list.status, 0, list.stderr);
  assert.ok((JSON.parse(list.stdout) as unknown[]).length > 0);

  const help = run(['list', '--help']);
  assert.equal(help.status, 0, help.stderr);
  assert.match(help.stdout, /--no-headers/);
});
