// The tables administrators manage every day, over `--demo` (the program in-process in a throwaway HOME; the
// lazy catalogue reads through the built bin/cmdb.js).
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cmdb, isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

type Obj = Record<string, unknown>;

const env = isolatedEnv();
after(() => rmSync(env.HOME!, { recursive: true, force: true }));
const demo = (...args: string[]) => runInProcess(['--demo', ...args], { env });

test('list firewall/policy: the seeded policies in the device order, not the id order, with no notice', async () => {
  const r = await demo('list', 'firewall/policy', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const policies = json<Obj[]>(r);
  assert.deepEqual(
    policies.map((p) => p.policyid),
    [1, 3, 2, 5, 4],
  );
  assert.deepEqual(
    policies[0].srcintf,
    [{ name: 'port1' }],
    "the device's bookkeeping fields (q_*) are left out without --with-meta",
  );
  assert.equal(policies[0].schedule, 'always');
});

test('get router/static 1: an integer key, the destination in the mask form', async () => {
  const r = await demo('get', 'router/static', '1', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stderr, '');
  const route = json<Obj>(r);
  assert.equal(route['seq-num'], 1);
  assert.equal(route.dst, '0.0.0.0 0.0.0.0');
  assert.equal(route.device, 'port2');
});

test('create firewall/address with a /24 subnet: a get answers the mask form, as a device does', async () => {
  const created = await demo(
    'create',
    'firewall/address',
    '--set',
    'name=lan2',
    '--set',
    'subnet=10.0.0.0/24',
    '-o',
    'json',
  );
  assert.equal(created.code, 0, created.stderr);
  assert.equal(json<Obj>(created).mkey, 'lan2');
  const read = await demo('get', 'firewall/address', 'lan2', '-o', 'json');
  assert.equal(read.code, 0, read.stderr);
  assert.equal(json<Obj>(read).subnet, '10.0.0.0 255.255.255.0');
  // The example: the demo's own networks are named otherwise (lan-net...), so `lan` is free.
  const lan = await demo('create', 'firewall/address', '--set', 'name=lan', '--set', 'subnet=10.0.0.0/24');
  assert.equal(lan.code, 0, lan.stderr);
  assert.equal(lan.stderr, '');
});

test('a value the device refuses (a malformed MAC address) is refused with HTTP 500 and -651, and the device text shown', async () => {
  const r = await demo('update', 'system/interface', 'port1', '--set', 'macaddr=not-a-mac', '-o', 'json');
  assert.equal(r.code, 7, r.stderr);
  const { error } = JSON.parse(r.stderr) as { error: Obj };
  assert.equal(error.status, 500);
  assert.equal(error.code, -651);
  assert.match(String(error.cli_error), /node_check_object fail! for macaddr not-a-mac[\s\S]*Return code -651/);
  const table = await demo('update', 'system/interface', 'port1', '--set', 'macaddr=not-a-mac');
  assert.equal(table.code, 7);
  assert.match(table.stderr, /Return code -651/);
});

test('the demo state persists: the second VDOM is still there after a change, and demo reset brings the seed back', async () => {
  const dmz = await demo('list', 'system/interface', '--vdom', 'dmz', '-o', 'json');
  assert.equal(dmz.code, 0, dmz.stderr);
  assert.deepEqual(
    json<Obj[]>(dmz).map((port) => port.vdom),
    ['dmz', 'dmz'],
  );
  assert.equal((await runInProcess(['demo', 'reset'], { env })).code, 0);
  assert.equal((await demo('get', 'firewall/address', 'lan2')).code, 6);
});

test('--demo get log.disk/setting reads the catalogue file of that table, not the whole catalogue', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'cmdb-reads-'));
  try {
    const preload = join(dir, 'watch.cjs');
    const log = join(dir, 'reads.txt');
    // Every catalogue file the run reads, written when it exits.
    writeFileSync(
      preload,
      `const fs = require('node:fs');
const read = fs.readFileSync;
const seen = [];
fs.readFileSync = function (file, ...rest) {
  const name = String(file instanceof URL ? file.pathname : file);
  const at = name.indexOf('/catalogue/data/');
  if (at >= 0) seen.push(name.slice(at + '/catalogue/data/'.length));
  return read.call(this, file, ...rest);
};
process.on('exit', () => fs.writeFileSync(${JSON.stringify(log)}, seen.join('\\n')));
`,
    );
    const r = await cmdb(['--demo', 'get', 'log.disk/setting', '-o', 'json'], {
      env,
      nodeArgs: ['--require', preload],
    });
    assert.equal(r.code, 0, r.stderr);
    const reads = readFileSync(log, 'utf8').split('\n').filter(Boolean);
    assert.ok(reads.includes('t/log.disk_2fsetting.json'), reads.join());
    assert.ok(!reads.includes('all.json'), reads.join());
    assert.ok(reads.filter((name) => name.startsWith('t/')).length <= 2, reads.join());
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
