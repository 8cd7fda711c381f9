// --demo: an in-process emulator whose state persists in the XDG state folder, and `cmdb demo reset`.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

type Obj = Record<string, unknown>;

test('the README quick start shows the demo bindings', async () => {
  const env = isolatedEnv();
  const r = await runInProcess(['--demo', 'list', 'firewall.ipmacbinding/table', '--vdom', 'root', '-o', 'table'], {
    env,
  });
  assert.equal(r.code, 0, r.stderr);
  // The key, the name, then what carries information in the catalogue's order (CLI.md, "Output").
  assert.match(r.stdout.split('\n')[0], /^seq-num\s+name\s+ip\s+mac/);
  assert.ok(r.stdout.trim().split('\n').length > 3);
});

test('list --no-headers: table and csv rows only, --all too; json is unchanged', async () => {
  const env = isolatedEnv();
  const csv = await runInProcess(
    ['--demo', 'list', 'firewall.ipmacbinding/table', '--vdom', 'root', '-o', 'csv', '--fields', 'seq-num,ip'],
    { env },
  );
  const bare = await runInProcess(
    [
      '--demo',
      'list',
      'firewall.ipmacbinding/table',
      '--vdom',
      'root',
      '-o',
      'csv',
      '--fields',
      'seq-num,ip',
      '--no-headers',
    ],
    { env },
  );
  assert.equal(bare.code, 0, bare.stderr);
  assert.equal(csv.stdout.split('\n')[0], 'seq-num,ip');
  assert.equal(bare.stdout, csv.stdout.split('\n').slice(1).join('\n'));
  const table = await runInProcess(
    ['--demo', 'list', 'firewall.ipmacbinding/table', '--vdom', 'root', '-o', 'table', '--all', '--no-headers'],
    { env },
  );
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout.split('\n')[0], /^1\s+printer-2f\s+\d+\.\d+\.\d+\.\d+/);
  const jsonRun = await runInProcess(
    ['--demo', 'list', 'firewall.ipmacbinding/table', '--vdom', 'root', '-o', 'json', '--no-headers'],
    { env },
  );
  assert.ok(Array.isArray(json(jsonRun)));
});

test('changes persist from one --demo run to the next until `cmdb demo reset`', async () => {
  const env = isolatedEnv();
  const ids = async (extra: NodeJS.ProcessEnv = {}) =>
    json<Obj[]>(await runInProcess(['list', 'dlp/filepattern'], { env: { ...env, ...extra } })).map((o) => o.id);
  const created = await runInProcess(['--demo', 'create', 'dlp/filepattern', '--set', 'id=77', '--set', 'name=pdfs'], {
    env,
  });
  assert.equal(created.code, 0, created.stderr);
  assert.ok((await ids({ CMDB_DEMO: '1' })).includes(77));
  assert.ok(existsSync(join(env.XDG_STATE_HOME!, 'cmdb', 'demo-state.json')));
  const reset = await runInProcess(['demo', 'reset'], { env });
  assert.equal(reset.code, 0, reset.stderr);
  assert.match(reset.stderr, /reset/);
  assert.ok(!(await ids({ CMDB_DEMO: '1' })).includes(77));
});

test('--demo needs no device, login or keychain, and ignores CMDB_HOST', async () => {
  const env = isolatedEnv({ CMDB_HOST: 'http://127.0.0.1:9', DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
  const r = await runInProcess(['--demo', 'get', 'log.disk/setting', '-o', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  assert.equal(typeof json<Obj>(r).status, 'string');
});

test('a --demo run that changes nothing leaves the state file as it was (and creates none)', async () => {
  const env = isolatedEnv();
  const file = join(env.XDG_STATE_HOME!, 'cmdb', 'demo-state.json');
  assert.equal((await runInProcess(['--demo', 'list', 'dlp/filepattern', '-o', 'json'], { env })).code, 0);
  assert.ok(!existsSync(file), 'a read-only first run writes no state');
  assert.equal(
    (await runInProcess(['--demo', 'create', 'dlp/filepattern', '--set', 'name=numbered', '-o', 'json'], { env })).code,
    0,
  );
  const written = readFileSync(file, 'utf8');
  const mtime = statSync(file).mtimeMs;
  for (const args of [
    ['list', 'dlp/filepattern'],
    ['get', 'log.disk/setting'],
    ['schema', 'log.disk/setting'],
  ]) {
    const r = await runInProcess(['--demo', ...args, '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
  }
  assert.equal(readFileSync(file, 'utf8'), written);
  assert.equal(statSync(file).mtimeMs, mtime);
});

test('a --demo create without the integer key gets the next free number, as a device gives it', async () => {
  const env = isolatedEnv();
  const r = await runInProcess(['--demo', 'create', 'dlp/filepattern', '--set', 'name=auto', '-o', 'json'], { env });
  assert.equal(r.code, 0, r.stderr);
  const mkey = json<Obj>(r).mkey;
  assert.equal(typeof mkey, 'number');
  const read = await runInProcess(['--demo', 'get', 'dlp/filepattern', String(mkey), '-o', 'json'], { env });
  assert.equal(json<Obj>(read).name, 'auto');
});

describe('--demo with the commands that manage devices: the demo device, never a saved profile', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let profiles: string;
  before(async () => {
    emu = await startEmulator({ port: 0 });
    env = isolatedEnv();
    const login = await runInProcess(
      ['login', '--host', emu.url, '--token-stdin', '--insecure-storage', '-d', 'saved'],
      {
        env,
        stdin: `${emu.token}\n`,
      },
    );
    assert.equal(login.code, 0, login.stderr);
    profiles = readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), 'utf8');
  });
  after(async () => {
    // Whatever ran with --demo, the saved profile is as login left it.
    assert.equal(readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), 'utf8'), profiles);
    await emu.close();
  });

  test('auth status --demo checks the demo device, not the saved default', async () => {
    const sent = emu.requests.length;
    const r = await runInProcess(['--demo', 'auth', 'status', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    const status = json<Obj>(r);
    assert.equal(status.device, 'demo');
    assert.equal(status.works, true);
    assert.equal(emu.requests.length, sent);
  });

  for (const [args, line] of [
    [
      ['login', '--token-stdin'],
      "cmdb: 'cmdb login' does not apply to the demo device (--demo or CMDB_DEMO): it needs no login, and nothing is saved",
    ],
    [
      ['logout'],
      "cmdb: 'cmdb logout' does not apply to the demo device (--demo or CMDB_DEMO): it has no session and no saved credential",
    ],
    [
      ['device', 'use', 'saved'],
      "cmdb: 'cmdb device use' does not apply to the demo device (--demo or CMDB_DEMO): it is built in, not a saved device",
    ],
    [
      ['device', 'remove', 'saved'],
      "cmdb: 'cmdb device remove' does not apply to the demo device (--demo or CMDB_DEMO): it is built in, not a saved device",
    ],
  ] as const) {
    test(`${args.join(' ')} with --demo says it does not apply (exit 2)`, async () => {
      const sent = emu.requests.length;
      const r = await runInProcess(['--demo', ...args], { env: { ...env }, stdin: `${emu.token}\n` });
      assert.equal(r.stderr.split('\n')[0], line);
      assert.equal(r.code, 2);
      assert.equal(emu.requests.length, sent);
    });
  }

  test('CMDB_DEMO=1 counts as --demo', async () => {
    const r = await runInProcess(['logout'], { env: { ...env, CMDB_DEMO: '1' } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /does not apply to the demo device/);
  });

  test('device list and device show --demo describe the demo device only', async () => {
    const list = await runInProcess(['--demo', 'device', 'list', '-o', 'json'], { env });
    assert.equal(list.code, 0, list.stderr);
    assert.deepEqual(
      json<Obj[]>(list).map((d) => d.name),
      ['demo'],
    );
    const show = await runInProcess(['--demo', 'device', 'show', '-o', 'json'], { env });
    assert.equal(show.code, 0, show.stderr);
    assert.equal(json<Obj>(show).name, 'demo');
    assert.equal(json<Obj>(show).state, join(env.XDG_STATE_HOME!, 'cmdb', 'demo-state.json'));
  });
});
