// Many cmdb processes at once (xargs -P, cron, CI) share config.yaml and credentials.yaml: every change
// that reports success is kept, and every file cmdb creates is private to its user.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parse as parseYaml } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, json } from '../helpers/cli.js';
import { expectCode, keychainlessUser } from '../helpers/expect.js';

const TABLE = 'firewall.ipmacbinding/table';
const N = 20;
const names = Array.from({ length: N }, (_, i) => `fw${String(i).padStart(2, '0')}`);

function tokenLogin(emu: RunningEmulator, env: NodeJS.ProcessEnv, name: string, nodeArgs: string[] = []) {
  return cmdb(['login', '--host', emu.url, '-d', name, '--token-stdin', '--insecure-storage', '-o', 'json'], {
    env,
    stdin: emu.token,
    timeoutMs: 90_000,
    nodeArgs,
  });
}

/** Preloaded into the CLI: pauses around every look at a lock, and logs writes made without holding it. */
const RACE = ['--import', pathToFileURL(fileURLToPath(new URL('../helpers/lock-race.js', import.meta.url))).href];

// pid 2^22 + 1 is above Linux's pid_max: no such process.
const DEAD_PID = 4194305;

async function deviceNames(env: NodeJS.ProcessEnv): Promise<{ names: string[]; defaultName: string | null }> {
  const r = await cmdb(['device', 'list', '-o', 'json'], { env });
  expectCode(r, 0);
  const rows = json<{ name: string; default: boolean }[]>(r);
  return { names: rows.map((d) => d.name).sort(), defaultName: rows.find((d) => d.default)?.name ?? null };
}

/** Every file and folder below `dir`, with its permission bits. */
function modes(dir: string): [string, number][] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).map(
    (p) => [p, statSync(join(dir, p)).mode & 0o777] as [string, number],
  );
}

describe('parallel runs sharing one configuration', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0 })));
  after(() => emu.close());

  test(`${N} logins at once keep ${N} profiles and ${N} credentials`, async () => {
    const env = keychainlessUser();
    const runs = await Promise.all(names.map((name) => tokenLogin(emu, env, name)));
    for (const r of runs) expectCode(r, 0);
    const listed = await deviceNames(env);
    assert.deepEqual(listed.names, names);
    assert.ok(listed.defaultName !== null && names.includes(listed.defaultName));
    // Each profile works with the credential its login saved.
    const credentials = readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml'), 'utf8');
    for (const name of names) assert.match(credentials, new RegExp(`^${name}: `, 'm'));
    expectCode(await cmdb(['list', TABLE, '-d', names[7], '-o', 'json'], { env }), 0);
    assert.deepEqual(
      readdirSync(join(env.XDG_CONFIG_HOME!, 'cmdb')).sort(),
      ['config.yaml', 'credentials.yaml'],
      'no lock or temp file is left behind',
    );
  });

  test('device use and device remove at once: every removal is kept, the default is one of them', async () => {
    const env = keychainlessUser();
    for (const name of names) expectCode(await tokenLogin(emu, env, name), 0);
    const removed = names.filter((_, i) => i % 2 === 1);
    const kept = names.filter((_, i) => i % 2 === 0);
    const runs = await Promise.all([
      ...removed.map((name) => cmdb(['device', 'remove', name], { env })),
      ...kept.map((name) => cmdb(['device', 'use', name], { env })),
    ]);
    for (const r of runs) expectCode(r, 0);
    const listed = await deviceNames(env);
    assert.deepEqual(listed.names, kept);
    assert.ok(listed.defaultName !== null && kept.includes(listed.defaultName));
    const credentials = readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml'), 'utf8');
    for (const name of removed) assert.doesNotMatch(credentials, new RegExp(`^${name}: `, 'm'));
  });

  test('a lock left by a process that died is broken; a live one is waited for', async () => {
    const env = keychainlessUser();
    expectCode(await tokenLogin(emu, env, 'first'), 0);
    const lock = join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml.lock');
    writeFileSync(lock, `${DEAD_PID}\n${hostname()}\n`);
    expectCode(await tokenLogin(emu, env, 'second'), 0);
    assert.deepEqual((await deviceNames(env)).names, ['first', 'second']);
  });

  test(`${N} logins racing to break the same stale locks: one holder at a time, every write kept`, async () => {
    const env = keychainlessUser();
    const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    // Left by a process that died: every run judges them stale at about the same moment.
    for (const file of ['config.yaml.lock', 'credentials.yaml.lock'])
      writeFileSync(join(dir, file), `${DEAD_PID}\n${hostname()}\n`, { mode: 0o600 });
    const raceLog = join(env.HOME!, 'race.log');
    const raceEnv = { ...env, CMDB_RACE_LOG: raceLog, CMDB_RACE_BARRIER: `${join(env.HOME!, 'barrier')}:${N}` };
    const runs = await Promise.all(names.map((name) => tokenLogin(emu, raceEnv, name, RACE)));
    for (const r of runs) expectCode(r, 0);
    assert.equal(
      existsSync(raceLog) ? readFileSync(raceLog, 'utf8') : '',
      '',
      'no shared file was written by a process whose lock had been taken over',
    );
    assert.deepEqual((await deviceNames(env)).names, names);
    const credentials = readFileSync(join(dir, 'credentials.yaml'), 'utf8');
    for (const name of names) assert.match(credentials, new RegExp(`^${name}: `, 'm'));
    assert.deepEqual(
      readdirSync(dir).sort(),
      ['config.yaml', 'credentials.yaml'],
      'no lock, claim or temp file is left behind',
    );
  });

  test('a lock held longer than CMDB_LOCK_TIMEOUT: exit 8 naming the file and its holder, nothing changed', async () => {
    const env = keychainlessUser();
    expectCode(await tokenLogin(emu, env, 'a'), 0);
    expectCode(await tokenLogin(emu, env, 'b'), 0);
    const lock = join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml.lock');
    // Held by a live process (this test), taken just now: neither dead nor old, so it is waited for.
    writeFileSync(lock, `${process.pid}\n${hostname()}\n`);
    const r = await cmdb(['device', 'use', 'b'], { env: { ...env, CMDB_LOCK_TIMEOUT: '1' } });
    expectCode(r, 8);
    assert.equal(r.stdout, '');
    assert.equal(
      r.stderr,
      `cmdb: another cmdb process (pid ${process.pid}) holds ${lock} and did not release it within 1 s\n  hint: try again when it has finished (CMDB_LOCK_TIMEOUT sets how many seconds to wait); if no cmdb runs any more, delete ${lock}\n`,
    );
    const asJson = await cmdb(['device', 'remove', 'a', '-o', 'json'], { env: { ...env, CMDB_LOCK_TIMEOUT: '1' } });
    expectCode(asJson, 8);
    const error = (JSON.parse(asJson.stderr.trim().split('\n').pop()!) as { error: { exit: number; message: string } })
      .error;
    assert.equal(error.exit, 8);
    assert.match(error.message, new RegExp(`process \\(pid ${process.pid}\\) holds .*config\\.yaml\\.lock`));
    assert.equal(readFileSync(lock, 'utf8'), `${process.pid}\n${hostname()}\n`, 'the holder keeps its lock');
    const listed = await deviceNames(env);
    assert.deepEqual(listed, { names: ['a', 'b'], defaultName: 'a' });
  });
});

describe('parallel runs sharing one device session', () => {
  let emu: RunningEmulator;
  before(async () => (emu = await startEmulator({ port: 0 })));
  after(() => emu.close());
  const logins = () => emu.requests.filter((r) => r.path === '/logincheck').length;
  const logouts = () => emu.requests.filter((r) => r.path === '/logout');

  async function sessionProfile(): Promise<NodeJS.ProcessEnv> {
    const env = keychainlessUser();
    const r = await cmdb(
      ['login', '--host', emu.url, '-d', 'fw', '--username', emu.username, '--password-stdin', '--insecure-storage'],
      { env, stdin: emu.password },
    );
    expectCode(r, 0);
    return env;
  }

  const everyone = (env: NodeJS.ProcessEnv) =>
    Promise.all(names.map(() => cmdb(['list', TABLE, '-o', 'json'], { env, timeoutMs: 90_000 })));

  test(`${N} runs with no saved session open one session: the first logs in, the others wait and use it`, async () => {
    const env = await sessionProfile();
    const credentials = join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml');
    writeFileSync(credentials, readFileSync(credentials, 'utf8').replace(/^fw\/session: .*\n/m, ''));
    const before = logins();
    for (const r of await everyone(env)) expectCode(r, 0);
    assert.equal(logins() - before, 1);
  });

  test(`after the session expired, ${N} runs log in again once`, async () => {
    const env = await sessionProfile();
    emu.expireSessions();
    const before = logins();
    for (const r of await everyone(env)) expectCode(r, 0);
    assert.equal(logins() - before, 1);
  });

  test("waiting longer than CMDB_LOCK_TIMEOUT for another run's login: exit 8 naming the lock, no login sent", async () => {
    const env = await sessionProfile();
    const credentials = join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml');
    writeFileSync(credentials, readFileSync(credentials, 'utf8').replace(/^fw\/session: .*\n/m, ''));
    const lock = join(env.XDG_CONFIG_HOME!, 'cmdb', 'fw.session.lock');
    writeFileSync(lock, `${process.pid}\n${hostname()}\n`);
    const before = logins();
    const r = await cmdb(['list', TABLE], { env: { ...env, CMDB_LOCK_TIMEOUT: '1' } });
    expectCode(
      r,
      8,
      new RegExp(
        `^cmdb: another cmdb process \\(pid ${process.pid}\\) holds ${lock.replace(/[.]/g, '\\.')} and did not release it within 1 s\n  hint: `,
        'm',
      ),
    );
    assert.equal(logins() - before, 0);
  });

  test('a session replaced by a new login is logged out on the device', async () => {
    const env = await sessionProfile();
    const secrets = parseYaml(readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml'), 'utf8')) as Record<
      string,
      string
    >;
    const first = JSON.parse(secrets['fw/session']) as { cookies: Record<string, string> };
    const before = logouts().length;
    expectCode(
      await cmdb(['login', '-d', 'fw', '--password-stdin', '--insecure-storage'], { env, stdin: emu.password }),
      0,
    );
    const ended = logouts().slice(before);
    assert.equal(ended.length, 1);
    const apscookie = Object.entries(first.cookies).find(([name]) => name.startsWith('APSCOOKIE'))!;
    assert.ok(ended[0].headers.cookie?.includes(`${apscookie[0]}=${apscookie[1]}`), 'the old session is the one ended');
  });
});

describe('private files', () => {
  test('every folder cmdb creates is 0700 and every file 0600: config, credentials, --demo state, cache', async () => {
    const emu = await startEmulator({ port: 0 });
    try {
      const env = keychainlessUser();
      expectCode(await tokenLogin(emu, env, 'fw'), 0);
      expectCode(
        await cmdb(
          ['--demo', 'create', TABLE, '--set', 'seq-num=900', '--set', 'ip=10.9.9.9', '--set', 'mac=00:09:0f:00:00:99'],
          { env },
        ),
        0,
      );
      expectCode(await cmdb(['__complete', 'fish', '--', 'get', TABLE, ''], { env }), 0);
      for (const root of [env.XDG_CONFIG_HOME!, env.XDG_STATE_HOME!, env.XDG_CACHE_HOME!]) {
        const entries = modes(root);
        assert.ok(entries.length >= 2, `${root} holds cmdb's files`);
        for (const [path, mode] of entries) {
          const isDir = statSync(join(root, path)).isDirectory();
          assert.equal(mode, isDir ? 0o700 : 0o600, `${join(root, path)} is ${mode.toString(8)}`);
        }
      }
    } finally {
      await emu.close();
    }
  });
});
