// Logging in through the program (in-process) against the emulator: token and session login, session reuse
// and re-login, CSRF on writes, every login answer, the banner, the lockout, logout, auth status, devices.
// Secrets go to credentials.yaml (--insecure-storage) here, so this suite needs no D-Bus; the keychain has
// its own suite (test/keychain).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';
import { json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { expectCode, keychainlessUser } from '../helpers/expect.js';

const TABLE = 'firewall.ipmacbinding/table';
const LIST = ['list', TABLE, '-o', 'json'];

const configFile = (env: NodeJS.ProcessEnv) => join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml');
const count = (emu: RunningEmulator, path: string) => emu.requests.filter((r) => r.path === path).length;

function sessionLogin(
  emu: RunningEmulator,
  env: NodeJS.ProcessEnv,
  args: string[] = [],
  password = emu.password,
): Promise<Run> {
  return runInProcess(
    ['login', '--host', emu.url, '--username', emu.username, '--password-stdin', '--insecure-storage', ...args],
    { env, stdin: `${password}\n` },
  );
}

describe('token login', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0 })));
  after(() => emu.close());

  test('checks the token against the device, says which device it reached, saves the profile', async () => {
    const env = keychainlessUser();
    const r = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage', '-o', 'table'], {
      env,
      stdin: `${emu.token}\n`,
    });
    expectCode(r, 0);
    const name = new URL(emu.url).host;
    assert.match(
      r.stdout,
      new RegExp(
        `Logged in to cmdb-emulator \\(serial FGVM\\w+, v6\\.4\\.14\\) at ${emu.url} with an API token; saved as device '${name}' \\(the default\\)`,
      ),
    );
    const check = emu.requests.at(-1)!;
    assert.deepEqual(
      [check.method, check.path, check.headers.authorization],
      ['GET', '/api/v2/monitor/system/status', `Bearer ${emu.token}`],
    );
    assert.match(readFileSync(configFile(env), 'utf8'), new RegExp(`default: "?${name.replace('.', '\\.')}"?\\n`));

    const list = await runInProcess(LIST, { env });
    expectCode(list, 0);
    assert.ok(Array.isArray(json(list)));
  });

  test('a refused token saves nothing: exit 4', async () => {
    const env = keychainlessUser();
    const r = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
      env,
      stdin: 'not-the-token',
    });
    expectCode(r, 4, /not authenticated/);
    assert.ok(!existsSync(configFile(env)));
    assert.ok(!existsSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml')));
  });

  test('one trailing newline of stdin is dropped, not two', async () => {
    expectCode(
      await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
        env: keychainlessUser(),
        stdin: `${emu.token}\r\n`,
      }),
      0,
    );
    expectCode(
      await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
        env: keychainlessUser(),
        stdin: `${emu.token}\n\n`,
      }),
      2,
      /line breaks/,
    );
  });

  test('usage errors send nothing: exit 2', async () => {
    const sent = emu.requests.length;
    const cases: [string[], string, RegExp][] = [
      [['login', '--host', emu.url, '--token-stdin', '--username', 'admin'], emu.token, /give one of them/],
      [['login', '--token-stdin'], emu.token, /--host/],
      [['login', '--host', emu.url, '--username', 'admin'], '', /--password-stdin/],
      [['login', '--host', emu.url], '', /--token-stdin/],
      [['login', '--host', emu.url, '--token-stdin'], '', /read no API token/],
      [['login', '--host', emu.url, '--token-stdin', '--fingerprint', 'abc'], emu.token, /invalid fingerprint/],
      [['login', '--host', emu.url, '--token', emu.token], '', /unknown option '--token'/],
    ];
    for (const [args, stdin, message] of cases)
      expectCode(await runInProcess([...args, '--insecure-storage'], { env: keychainlessUser(), stdin }), 2, message);
    assert.equal(emu.requests.length, sent);
  });

  test('auth status: device, host, kind, where the secret is; exit 4 when the credential does not work', async () => {
    const env = keychainlessUser();
    expectCode(
      await runInProcess(['login', '--host', emu.url, '-d', 'tok', '--token-stdin', '--insecure-storage'], {
        env,
        stdin: emu.token,
      }),
      0,
    );
    const ok = await runInProcess(['auth', 'status', '-o', 'json'], { env });
    expectCode(ok, 0);
    assert.deepEqual(
      { ...json<Record<string, unknown>>(ok), secret: undefined },
      {
        device: 'tok',
        host: emu.url,
        auth: 'token',
        username: null,
        secret: undefined,
        works: true,
        hostname: 'cmdb-emulator',
        serial: 'FGVMEMU000000001',
        version: 'v6.4.14',
      },
    );
    assert.match(json<{ secret: string }>(ok).secret, /credentials\.yaml .*account 'tok'/);

    const bad = await runInProcess(['auth', 'status', '-o', 'json'], {
      env: keychainlessUser({ CMDB_HOST: emu.url, CMDB_TOKEN: 'wrong' }),
    });
    expectCode(bad, 4, /the credential does not work/);
    assert.deepEqual(
      [json<{ works: boolean }>(bad).works, json<{ secret: string }>(bad).secret],
      [false, 'environment (CMDB_TOKEN)'],
    );
  });

  test('device list, show, use and remove', async () => {
    const env = keychainlessUser();
    for (const name of ['one', 'two'])
      expectCode(
        await runInProcess(
          ['login', '--host', emu.url, '-d', name, '--token-stdin', '--insecure-storage', '--vdom', 'dmz'],
          {
            env,
            stdin: emu.token,
          },
        ),
        0,
      );
    const list = await runInProcess(['device', 'list', '-o', 'json'], { env });
    expectCode(list, 0);
    assert.deepEqual(
      json<{ name: string; default: boolean; vdom: string }[]>(list).map((d) => [d.name, d.default, d.vdom]),
      [
        ['one', true, 'dmz'],
        ['two', false, 'dmz'],
      ],
    );
    expectCode(await runInProcess(['device', 'use', 'two'], { env }), 0);
    assert.equal(json<{ name: string }>(await runInProcess(['device', 'show', '-o', 'json'], { env })).name, 'two');
    expectCode(await runInProcess(['device', 'use', 'three'], { env }), 2, /no device named 'three'/);
    const table = await runInProcess(['device', 'list', '-o', 'table'], { env });
    assert.match(table.stdout, /^two +http\S+ +token +\*/m);
    expectCode(await runInProcess(['device', 'remove', 'two'], { env }), 0);
    assert.deepEqual(
      json<{ name: string }[]>(await runInProcess(['device', 'list', '-o', 'json'], { env })).map((d) => d.name),
      ['one'],
    );
    assert.ok(!readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml'), 'utf8').includes('two'));
    expectCode(await runInProcess(LIST, { env }), 4, /no device to talk to/);
    expectCode(await runInProcess([...LIST, '-d', 'one'], { env }), 0);
    assert.match(emu.requests.at(-1)!.query, /vdom=dmz/);
  });
});

describe('session login', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0 })));
  after(() => emu.close());

  test('one /logincheck for the login and two later runs; the session is reused', async () => {
    const env = keychainlessUser();
    const before = count(emu, '/logincheck');
    const login = await sessionLogin(emu, env, ['-o', 'table']);
    expectCode(login, 0);
    assert.match(login.stdout, /Logged in to cmdb-emulator .* as admin/);
    for (let i = 0; i < 2; i++) expectCode(await runInProcess(LIST, { env }), 0);
    assert.equal(count(emu, '/logincheck') - before, 1);
    assert.match(emu.requests.at(-1)!.headers.cookie ?? '', /APSCOOKIE_\d+=/);
  });

  test('an expired session: one new /logincheck with the stored password, kept for the next run', async () => {
    const env = keychainlessUser();
    expectCode(await sessionLogin(emu, env), 0);
    emu.expireSessions();
    const before = count(emu, '/logincheck');
    const list = await runInProcess(LIST, { env });
    expectCode(list, 0);
    assert.ok(Array.isArray(json(list)));
    expectCode(await runInProcess(LIST, { env }), 0);
    assert.equal(count(emu, '/logincheck') - before, 1);
  });

  test('writes carry the CSRF token (the cookie value without its quotes)', async () => {
    const env = keychainlessUser();
    expectCode(await sessionLogin(emu, env), 0);
    const r = await runInProcess(['create', TABLE, '--set', 'seq-num=901', '--set', 'ip=10.9.0.1', '-o', 'json'], {
      env,
    });
    expectCode(r, 0);
    const write = emu.requests.at(-1)!;
    assert.equal(write.method, 'POST');
    const csrf = /ccsrftoken="([^"]+)"/.exec(write.headers.cookie ?? '')?.[1];
    assert.ok(csrf, write.headers.cookie);
    assert.equal(write.headers['x-csrftoken'], csrf);
  });

  test('logout posts /logout and deletes the session; --forget deletes the password too', async () => {
    const env = keychainlessUser();
    expectCode(await sessionLogin(emu, env, ['-d', 'lab']), 0);
    const logout = await runInProcess(['logout', '-o', 'json'], { env });
    expectCode(logout, 0);
    assert.equal(json<{ sessionEnded: boolean }>(logout).sessionEnded, true);
    assert.equal(emu.requests.at(-1)!.path, '/logout');
    assert.match(emu.requests.at(-1)!.headers.cookie ?? '', /APSCOOKIE_/);
    const before = count(emu, '/logincheck');
    expectCode(await runInProcess(LIST, { env }), 0);
    assert.equal(count(emu, '/logincheck') - before, 1, 'without a session the next run logs in with the password');
    expectCode(await runInProcess(['logout', '--forget'], { env }), 0);
    expectCode(await runInProcess(LIST, { env }), 4, /no saved password for device 'lab'/);
  });

  test('CMDB_USERNAME/CMDB_PASSWORD without a profile: log in, work, log out; nothing saved', async () => {
    const env = keychainlessUser({ CMDB_HOST: emu.url, CMDB_USERNAME: emu.username, CMDB_PASSWORD: emu.password });
    const before = emu.requests.length;
    expectCode(await runInProcess(LIST, { env }), 0);
    assert.deepEqual(
      emu.requests.slice(before).map((r) => r.path),
      ['/logincheck', `/api/v2/cmdb/${TABLE}`, '/logout'],
    );
    assert.ok(!existsSync(join(env.XDG_CONFIG_HOME!, 'cmdb')));
  });

  test('auth status of a session profile', async () => {
    const env = keychainlessUser();
    expectCode(await sessionLogin(emu, env, ['-d', 'st']), 0);
    const r = await runInProcess(['auth', 'status', '-o', 'json'], { env });
    expectCode(r, 0);
    assert.deepEqual(
      [json<{ auth: string }>(r).auth, json<{ username: string }>(r).username, json<{ works: boolean }>(r).works],
      ['session', 'admin', true],
    );
  });
});

describe('login answers', () => {
  let emu: RunningEmulator;
  const admins: EmulatorOptions['admins'] = [
    { username: 'admin', password: 'right-password' },
    { username: 'locked', password: 'pw-locked', lockedOut: true },
    { username: 'twofa', password: 'pw-twofa', twoFactorCode: '314159' },
    { username: 'expired', password: 'pw-expired', mustChangePassword: true },
  ];
  before(async () => (emu = await startEmulator({ port: 0, admins, maxFailedLogins: 100 })));
  after(() => emu.close());

  const login = (username: string, password: string, args: string[] = [], env = keychainlessUser()) =>
    runInProcess(
      ['login', '--host', emu.url, '--username', username, '--password-stdin', '--insecure-storage', ...args],
      {
        env,
        stdin: password,
      },
    );

  test('0: wrong credentials, exit 4, nothing saved', async () => {
    const env = keychainlessUser();
    expectCode(await login('admin', 'wrong', [], env), 4, /refused the login of admin: wrong user name or password/);
    assert.ok(!existsSync(configFile(env)));
  });

  test('2: locked out, exit 4', async () => {
    expectCode(await login('locked', 'pw-locked'), 4, /locked out/);
  });

  test('3: a second factor; without a terminal or --token-code exit 4; a wrong code exit 4; the right one logs in', async () => {
    expectCode(await login('twofa', 'pw-twofa'), 4, /second factor[\s\S]*--token-code/);
    expectCode(await login('twofa', 'pw-twofa', ['--token-code', '000000']), 4, /refused the second-factor code/);
    const before = emu.requests.length;
    expectCode(await login('twofa', 'pw-twofa', ['--token-code', '314159']), 0);
    const second = emu.requests.slice(before).filter((r) => r.path === '/logincheck')[1];
    assert.equal(new URLSearchParams(second.body).get('token_code'), '314159');
  });

  test('4: password change required, exit 4', async () => {
    expectCode(await login('expired', 'pw-expired'), 4, /requires a new password for expired/);
  });
});

describe('login banner', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0, disclaimer: true })));
  after(() => emu.close());

  test('not accepted: exit 4 naming the banner and --accept-disclaimer', async () => {
    const env = keychainlessUser();
    expectCode(await sessionLogin(emu, env), 4, /login banner[\s\S]*--accept-disclaimer/);
    assert.ok(!existsSync(configFile(env)));
  });

  test('--accept-disclaimer accepts it, and the re-login after expiry accepts it again', async () => {
    const env = keychainlessUser();
    const before = count(emu, '/logindisclaimer');
    expectCode(await sessionLogin(emu, env, ['--accept-disclaimer']), 0);
    assert.equal(count(emu, '/logindisclaimer') - before, 1);
    assert.equal(
      new URLSearchParams(emu.requests.find((r) => r.path === '/logindisclaimer')!.body).get('confirm'),
      '1',
    );
    assert.match(readFileSync(configFile(env), 'utf8'), /accept-disclaimer: true/);
    emu.expireSessions();
    expectCode(await runInProcess(LIST, { env }), 0);
    assert.equal(count(emu, '/logindisclaimer') - before, 2);
  });

  test('from the environment: only with CMDB_ACCEPT_DISCLAIMER=1', async () => {
    const env = keychainlessUser({ CMDB_HOST: emu.url, CMDB_USERNAME: emu.username, CMDB_PASSWORD: emu.password });
    expectCode(await runInProcess(LIST, { env }), 4, /login banner/);
    expectCode(await runInProcess(LIST, { env: { ...env, CMDB_ACCEPT_DISCLAIMER: '1' } }), 0);
  });
});

describe('lockout', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0, maxFailedLogins: 2, blockSeconds: 120 })));
  after(() => emu.close());

  test('after too many failed logins: exit 8 with how long to wait, and no login is retried', async () => {
    for (let i = 0; i < 2; i++) expectCode(await sessionLogin(emu, keychainlessUser(), [], 'wrong'), 4);
    const before = count(emu, '/logincheck');
    const blocked = await sessionLogin(emu, keychainlessUser());
    expectCode(blocked, 8, /blocked logins from this address[\s\S]*try again in \d+ seconds/);
    assert.equal(count(emu, '/logincheck') - before, 1);
  });
});
