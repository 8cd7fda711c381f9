// Another release than 6.4.14 (CLI.md, "Every table the device has"): `cmdb emulator --schema FILE`
// serves a 7.2.5 tree written by hand (test/fixtures/schema-7.2.5.json) with tables 6.4.14 lacks; the
// CLI reads that device's schema once, caches it, and checks keys and bodies against it before sending.
// Requests are counted from the client's --verbose exchange log.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BIN, cmdb, isolatedEnv, json, ROOT, type Run } from '../helpers/cli.js';

type Obj = Record<string, unknown>;

const FIXTURE = join(ROOT, 'test/fixtures/schema-7.2.5.json');

let emulator: ChildProcess;
let start: { url: string; token: string };
const homes: string[] = [];

/** An isolated HOME, removed after the suite. */
function home(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env = isolatedEnv(extra);
  homes.push(env.HOME!);
  return env;
}

before(async () => {
  emulator = spawn(process.execPath, [BIN, 'emulator', '--schema', FIXTURE, '--seed', 'empty', '-o', 'json'], {
    env: home(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  start = await new Promise((resolve, reject) => {
    let out = '';
    emulator.stdout!.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]) as { url: string; token: string });
    });
    emulator.on('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
  });
});

after(() => {
  emulator.kill('SIGTERM');
  for (const dir of homes) rmSync(dir, { recursive: true, force: true });
});

/** The requests a run sent, from its --verbose log: `GET /api/v2/cmdb/router/policy-x?action=schema`. */
const sent = (run: Run) =>
  [...run.stderr.matchAll(/^> (GET|POST|PUT|DELETE) https?:\/\/[^/]+(\S+)$/gm)].map((m) => `${m[1]} ${m[2]}`);
const schemaReads = (run: Run) => sent(run).filter((r) => r.includes('action=schema'));

function ok(run: Run, what: string): void {
  assert.equal(run.code, 0, `${what} failed (exit ${run.code}):\n${run.stderr}${run.stdout}`);
}

describe('cmdb emulator --schema FILE', () => {
  test('reports the release and serial number of the saved answer, and answers its schema', async () => {
    const get = async (path: string) =>
      (await (
        await fetch(`${start.url}${path}`, { headers: { authorization: `Bearer ${start.token}` } })
      ).json()) as Obj;
    const firmware = await get('/api/v2/monitor/system/firmware');
    assert.deepEqual([firmware.version, firmware.build, firmware.serial], ['v7.2.5', 1517, 'FGVM72TEST000001']);
    assert.deepEqual((firmware.results as { current: Obj }).current.minor, 2);
    const status = await get('/api/v2/monitor/system/status');
    assert.deepEqual([status.version, status.build, status.serial], ['v7.2.5', 1517, 'FGVM72TEST000001']);
    const saved = JSON.parse(readFileSync(FIXTURE, 'utf8')) as {
      results: { path: string; name: string; schema: Obj }[];
    };
    const table = await get('/api/v2/cmdb/router/policy-x?action=schema');
    assert.deepEqual(table.results, saved.results.find((e) => e.name === 'policy-x')!.schema);
    const tree = await get('/api/v2/cmdb/?action=schema');
    assert.deepEqual(
      (tree.results as Obj[]).map((e) => `${e.path}/${e.name}`),
      ['router/policy-x', 'firewall/vip-x', 'system/new-feature', 'firewall.ipmacbinding/table'],
    );
    assert.equal((await get('/api/v2/cmdb/router/static')).http_status, 404);
    const backup = await (
      await fetch(`${start.url}/api/v2/monitor/system/config/backup?scope=global`, {
        headers: { authorization: `Bearer ${start.token}` },
      })
    ).text();
    assert.match(backup, /^#config-version=FGVM64-7\.2\.5-FW-build1517-/);
  });
});

describe('a saved device of release 7.2.5', () => {
  let env: NodeJS.ProcessEnv;
  const run = (...args: string[]) => cmdb([...args, '-d', 'fw'], { env });

  before(async () => {
    env = home();
    const login = await cmdb(
      ['login', '--host', start.url, '-d', 'fw', '--token-stdin', '--insecure-storage', '-o', 'json'],
      { env, stdin: start.token },
    );
    ok(login, 'login');
    assert.equal(json<Obj>(login).version, 'v7.2.5');
    const profile = readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), 'utf8');
    assert.match(profile, /version: v7\.2\.5\n\s+build: 1517\n\s+serial: FGVM72TEST000001/);
  });

  test('the first run reads the whole tree once and caches it (0600 in a 0700 folder); the next runs read no schema', async () => {
    const first = await run('list', 'router/policy-x', '-o', 'json', '-v');
    ok(first, 'list');
    assert.deepEqual(json(first), []);
    assert.deepEqual(schemaReads(first), ['GET /api/v2/cmdb?action=schema']);
    assert.doesNotMatch(first.stderr, /not in the/);
    const folder = join(env.XDG_CACHE_HOME!, 'cmdb', 'schema');
    assert.deepEqual(readdirSync(folder), ['FGVM72TEST000001_v7.2.5_1517.json']);
    assert.equal(statSync(folder).mode & 0o777, 0o700);
    assert.equal(statSync(join(folder, 'FGVM72TEST000001_v7.2.5_1517.json')).mode & 0o777, 0o600);
    assert.doesNotMatch(
      readFileSync(join(folder, 'FGVM72TEST000001_v7.2.5_1517.json'), 'utf8'),
      new RegExp(start.token),
    );

    const second = await run('list', 'firewall/vip-x', '-o', 'json', '-v');
    ok(second, 'second list');
    assert.deepEqual(schemaReads(second), []);
    assert.deepEqual(sent(second), ['GET /api/v2/cmdb/firewall/vip-x']);
  });

  test('an integer key is checked before sending: a non-integer is exit 2, nothing sent', async () => {
    await run('list', 'router/policy-x');
    const bad = await run('get', 'router/policy-x', 'abc', '-v');
    assert.equal(bad.code, 2, bad.stderr);
    assert.match(bad.stderr, /router\/policy-x has integer keys \(seq-num\); 'abc' is not an integer/);
    assert.deepEqual(sent(bad), []);
    const missing = await run('get', 'router/policy-x', '9', '-o', 'json');
    assert.equal(missing.code, 6, missing.stderr);
  });

  test('create checks the body against the device schema: a wrong value or an unknown field is exit 2, nothing sent', async () => {
    for (const [set, message] of [
      ['action=maybe', /'action' must be one of permit, deny, not "maybe"/],
      ['actoin=deny', /'actoin' is not a field of router\/policy-x \(did you mean 'action'\?\)/],
      ['days=monday funday', /'funday' is not one of monday, tuesday, .*sunday/],
      ['priority=300', /'priority' must be between 0 and 255, not 300/],
      [`comments=${'x'.repeat(256)}`, /'comments' is 256 characters long; the maximum is 255/],
    ] as const) {
      const refused = await run('create', 'router/policy-x', '--set', 'seq-num=3', '--set', set, '-v');
      assert.equal(refused.code, 2, `${set}: ${refused.stderr}`);
      assert.match(refused.stderr, message);
      assert.deepEqual(sent(refused), [], set);
    }
    const created = await run(
      'create',
      'router/policy-x',
      '--set',
      'seq-num=3',
      '--set',
      'action=deny',
      '--set',
      'days=friday monday',
      '--set',
      'hit-tag=anything',
      '-o',
      'json',
    );
    ok(created, 'create');
    assert.equal(json<Obj>(created).mkey, 3);
    const read = await run('get', 'router/policy-x', '3', '-o', 'json');
    ok(read, 'get');
    // A multi-value field: the device keeps its own order.
    assert.deepEqual(
      [json<Obj>(read).action, String(json<Obj>(read).days).split(' ').sort()],
      ['deny', ['friday', 'monday']],
    );
  });

  test('a string-keyed table and a singleton of that release', async () => {
    const tooLong = await run('create', 'firewall/vip-x', '--set', `name=${'n'.repeat(80)}`, '-v');
    assert.equal(tooLong.code, 2, tooLong.stderr);
    assert.deepEqual(sent(tooLong), []);
    ok(
      await run(
        'create',
        'firewall/vip-x',
        '--set',
        'name=web 1',
        '--set',
        'extip=10.0.0.1',
        '--set',
        'type=load-balance',
      ),
      'create vip-x',
    );
    const vip = await run('get', 'firewall/vip-x', 'web 1', '-o', 'json');
    ok(vip, 'get vip-x');
    assert.deepEqual([json<Obj>(vip).extip, json<Obj>(vip).type], ['10.0.0.1', 'load-balance']);
    const range = await run('update', 'system/new-feature', '--set', 'interval=4000', '-v');
    assert.equal(range.code, 2, range.stderr);
    assert.deepEqual(sent(range), []);
    ok(await run('update', 'system/new-feature', '--set', 'interval=300'), 'update new-feature');
    assert.equal(json<Obj>(await run('get', 'system/new-feature', '-o', 'json')).interval, 300);
  });

  test('cmdb tables -d lists the cached schema, sending nothing; SPEC.md tables keep their shipped operations', async () => {
    const tables = await run('tables', '-o', 'json', '-v');
    ok(tables, 'tables');
    assert.deepEqual(sent(tables), []);
    const rows = json<Obj[]>(tables);
    assert.deepEqual(
      rows.map((t) => t.path),
      ['firewall.ipmacbinding/table', 'firewall/vip-x', 'router/policy-x', 'system/new-feature'],
    );
    assert.deepEqual(
      rows.find((t) => t.path === 'router/policy-x'),
      {
        path: 'router/policy-x',
        kind: 'keyed',
        key: 'seq-num',
        keyType: 'integer',
        operations: ['L', 'C', 'R', 'U', 'D'],
        group: 'netgrp',
        spec: false,
      },
    );
    assert.deepEqual(rows.find((t) => t.path === 'system/new-feature')!.operations, ['G', 'P']);
    assert.equal(rows.find((t) => t.path === 'firewall.ipmacbinding/table')!.spec, true);
    const shipped = json<Obj[]>(await cmdb(['tables', '-o', 'json'], { env }));
    assert.equal(shipped.length, 472);
  });

  test('schema --all --raw is the answer untouched; --refresh reads the tree again and rewrites the cache', async () => {
    const raw = await run('schema', '--all', '--raw');
    ok(raw, 'schema --all --raw');
    assert.deepEqual(
      (JSON.parse(raw.stdout) as { results: Obj[] }).results.map((e) => e.name),
      ['policy-x', 'vip-x', 'new-feature', 'table'],
    );
    assert.equal((JSON.parse(raw.stdout) as Obj).version, 'v7.2.5');
    const refreshed = await run('tables', '--refresh', '-o', 'json', '-v');
    ok(refreshed, 'tables --refresh');
    assert.deepEqual(schemaReads(refreshed), ['GET /api/v2/cmdb?action=schema']);
    const one = await run('schema', 'router/policy-x', '-o', 'json');
    ok(one, 'schema router/policy-x');
    assert.equal(json<Obj>(one).mkey, 'seq-num');
  });

  test('export, diff and apply know the tables of that release', async () => {
    ok(await run('create', 'router/policy-x', '--set', 'seq-num=20', '--set', 'priority=7'), 'create');
    const exported = await run('export', 'router/policy-x', 'firewall/vip-x', '-o', 'json');
    ok(exported, 'export');
    const document = json<{ vdoms: { root: Record<string, Obj[]> } }>(exported);
    assert.ok(document.vdoms.root['router/policy-x'].some((p) => p['seq-num'] === 20));
    const file = join(env.HOME!, 'fw.json');
    writeFileSync(file, exported.stdout);
    ok(await run('diff', '-f', file), 'diff in sync');
    document.vdoms.root['router/policy-x'].find((p) => p['seq-num'] === 20)!.priority = 9;
    writeFileSync(file, JSON.stringify(document));
    const diff = await run('diff', '-f', file, '-o', 'json');
    assert.equal(diff.code, 10, diff.stderr);
    assert.deepEqual(
      json<{ update: { key: unknown; changes: Obj }[] }>(diff).update.map((u) => [u.key, u.changes]),
      [[20, { priority: { from: 7, to: 9 } }]],
    );
    ok(await run('apply', '-f', file, '--yes'), 'apply');
    assert.equal(json<Obj>(await run('get', 'router/policy-x', '20', '-o', 'json')).priority, 9);
  });

  test('Tab offers the tables and fields of that release, from its cache', async () => {
    const complete = async (...words: string[]) =>
      (await cmdb(['__complete', 'fish', '--', ...words], { env })).stdout
        .split('\n')
        .slice(1)
        .filter(Boolean)
        .map((l) => l.split('\t')[0]);
    await run('list', 'router/policy-x');
    assert.deepEqual(await complete('get', '-d', 'fw', 'router/pol'), ['router/policy-x']);
    assert.deepEqual(await complete('create', '-d', 'fw', 'router/policy-x', '--set', 'ac'), ['action=']);
    assert.deepEqual(await complete('create', '-d', 'fw', 'router/policy-x', '--set', 'days=t'), [
      'days=thursday',
      'days=tuesday',
    ]);
    assert.deepEqual(await complete('list', '-d', 'fw', 'firewall/vip-x', '--fields', 'ext'), ['extip', 'extip6']);
    assert.deepEqual(await complete('get', '-d', 'fw', 'router/stat'), []);
    // Another device (here the built-in one, 6.4.14) keeps the shipped catalogue.
    assert.deepEqual(await complete('--demo', 'get', 'router/stat'), ['router/static', 'router/static6']);
  });
});

describe('a device whose release is not known yet (CMDB_HOST, no profile)', () => {
  test('a table the shipped catalogue lacks is looked up in its schema first; the release is then remembered', async () => {
    const env = home({ CMDB_HOST: start.url, CMDB_TOKEN: start.token });
    const first = await cmdb(['get', 'router/policy-x', 'seven', '-v'], { env });
    assert.equal(first.code, 2, first.stderr);
    assert.deepEqual(sent(first), ['GET /api/v2/cmdb/router/policy-x?action=schema']);
    const second = await cmdb(['list', 'router/policy-x', '-o', 'json', '-v'], { env });
    ok(second, 'list');
    assert.deepEqual(sent(second), ['GET /api/v2/cmdb?action=schema', 'GET /api/v2/cmdb/router/policy-x']);
    const third = await cmdb(['list', 'firewall/vip-x', '-o', 'json', '-v'], { env });
    ok(third, 'list again');
    assert.deepEqual(sent(third), ['GET /api/v2/cmdb/firewall/vip-x']);
  });
});
