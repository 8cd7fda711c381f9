// A request to several VDOMs that answer differently: one result per VDOM (which succeeded, which failed
// and why), and the most severe exit code, in every format.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { parse as parseYaml } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

const TABLE = 'firewall.ipmacbinding/table';
const ITEM = { 'seq-num': 5, ip: '10.0.0.5', mac: '00:09:0f:00:00:05' };
let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

const run = (...args: string[]): Promise<Run> => runInProcess(args, { env });
/** The object exists in root only. */
function onlyInRoot(): void {
  const present = (emu.objects(TABLE, 'root') as { 'seq-num': number }[]).some((o) => o['seq-num'] === 5);
  if (!present) emu.populate(TABLE, 'root', [ITEM]);
}

describe('a write to several VDOMs', () => {
  test('a delete done in root and refused in dmz: one result each, exit 6 (json, yaml)', async () => {
    for (const format of ['json', 'yaml']) {
      onlyInRoot();
      const r = await run('delete', TABLE, '5', '--vdom', 'root,dmz', '-o', format);
      assert.equal(r.code, 6, r.stderr);
      const out = (format === 'json' ? JSON.parse(r.stdout) : parseYaml(r.stdout)) as Record<
        string,
        { status: string; vdom: string; error?: { exit: number; message: string } }
      >;
      assert.deepEqual(Object.keys(out), ['root', 'dmz']);
      assert.equal(out.root.status, 'success');
      assert.equal(out.dmz.status, 'error');
      assert.equal(out.dmz.error?.exit, 6);
      assert.match(out.dmz.error!.message, /not found in vdom dmz/);
      assert.ok(
        !(emu.objects(TABLE, 'root') as { 'seq-num': number }[]).some((o) => o['seq-num'] === 5),
        'deleted in root',
      );
    }
  });

  test('in table and ndjson: the success and the failure, each with its VDOM', async () => {
    onlyInRoot();
    const table = await run('delete', TABLE, '5', '--vdom', 'root,dmz', '-o', 'table');
    assert.equal(table.code, 6, table.stderr);
    assert.match(table.stdout, /deleted firewall\.ipmacbinding\/table 5 in vdom root/);
    assert.match(table.stderr, /not found in vdom dmz/);
    assert.doesNotMatch(table.stderr, /in vdom root/);
    onlyInRoot();
    const nd = await run('delete', TABLE, '5', '--vdom', 'root,dmz', '-o', 'ndjson');
    assert.equal(nd.code, 6, nd.stderr);
    assert.deepEqual(
      nd.stdout
        .trim()
        .split('\n')
        .map((l) => [JSON.parse(l).vdom, JSON.parse(l).status]),
      [
        ['root', 'success'],
        ['dmz', 'error'],
      ],
    );
  });

  test('succeeding in every VDOM: one result each, keyed by VDOM, exit 0', async () => {
    const r = await run(
      'create',
      TABLE,
      '--set',
      'seq-num=9',
      '--set',
      'ip=10.0.0.9',
      '--set',
      'mac=00:09:0f:00:00:09',
      '--vdom',
      'root,dmz',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, { status: string; mkey: number }>;
    assert.deepEqual(
      Object.entries(out).map(([v, o]) => [v, o.status, o.mkey]),
      [
        ['root', 'success', 9],
        ['dmz', 'success', 9],
      ],
    );
  });
});

describe('a read of several VDOMs', () => {
  test('what each had, and an error for each that failed: exit 6', async () => {
    onlyInRoot();
    const r = await run('get', TABLE, '5', '--vdom', 'root,dmz', '-o', 'json');
    assert.equal(r.code, 6, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, { 'seq-num': number }>;
    assert.deepEqual(Object.keys(out), ['root']);
    assert.equal(out.root['seq-num'], 5);
    assert.match(r.stderr, /not found in vdom dmz/);
  });
});
