// The keychain against a real Secret Service (a private D-Bus session with gnome-keyring), directly
// and through the built CLI: tokens, passwords and sessions stored, read, replaced and deleted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { KeychainStore, sessionAccount } from '../../src/config/secrets.js';
import { parseSession } from '../../src/api/session.js';
import { cmdb, isolatedEnv, json } from '../helpers/cli.js';
import { keychainlessUser } from '../helpers/expect.js';
import { keyringSkip, startKeyring, type PrivateKeyring } from '../helpers/keyring.js';

const LIST = ['list', 'firewall.ipmacbinding/table', '-o', 'json'];

describe('the keychain: a real Secret Service', { skip: keyringSkip() }, () => {
  let keyring: PrivateKeyring;
  let emu: RunningEmulator;
  let store: KeychainStore;
  /** The environment of one user of the CLI: the private bus, a config folder of its own. */
  const user = () => ({ ...keyring.env, CMDB_CONFIG_DIR: mkdtempSync(join(tmpdir(), 'cmdb-kc-config-')) });
  const loginchecks = () => emu.requests.filter((r) => r.path === '/logincheck').length;

  before(async () => {
    keyring = await startKeyring();
    emu = await startEmulator({ port: 0, tokens: [{ token: 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa' }, { token: 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb' }] });
    store = new KeychainStore(keyring.env);
  });
  after(async () => {
    await emu?.close();
    await keyring?.stop();
  });

  test('stores, reads, replaces and deletes a token, a password and a session', async () => {
    const entries: [string, string, string][] = [
      ['kc-token', 'token-one', 'token-two'],
      ['kc-password', 'pässwörd one', 'password two'],
      [sessionAccount('kc-password'), '{"v":1,"cookies":{"APSCOOKIE_1":"a"}}', '{"v":1,"cookies":{"APSCOOKIE_1":"b"}}'],
    ];
    for (const [account, first, second] of entries) {
      assert.equal(await store.get(account), null);
      await store.set(account, first);
      assert.equal(await store.get(account), first);
      await store.set(account, second);
      assert.equal(await store.get(account), second);
    }
    assert.equal(await store.get('kc-password'), 'password two', 'the session account is apart from the credential');
    for (const [account] of entries) {
      assert.equal(await store.delete(account), true);
      assert.equal(await store.get(account), null);
      assert.equal(await store.delete(account), false);
    }
  });

  test('reads go through secret-tool when it is installed, and find what the helper stored', async () => {
    const tool = spawnSync('sh', ['-c', 'command -v secret-tool'], { encoding: 'utf8' }).stdout.trim();
    if (!tool && !process.env.CI) return; // CI installs libsecret-tools (.ci/run)
    assert.ok(tool, 'secret-tool is installed');
    const dir = mkdtempSync(join(tmpdir(), 'cmdb-tool-log-'));
    const log = join(dir, 'calls');
    writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\necho "$*" >> '${log}'\nexec '${tool}' "$@"\n`, { mode: 0o755 });
    const traced = new KeychainStore({ ...keyring.env, PATH: `${dir}:${keyring.env.PATH}` });
    await store.set('kc-native', 'nätive token\n');
    assert.equal(await traced.get('kc-native'), 'nätive token\n');
    assert.equal(await traced.get('kc-native-none'), null);
    assert.equal(readFileSync(log, 'utf8'), 'lookup service cmdb username kc-native\nlookup service cmdb username kc-native-none\n');
    const helperOnly = new KeychainStore({ ...keyring.env, PATH: '/nonexistent' });
    assert.equal(await helperOnly.get('kc-native'), 'nätive token\n', 'the helper reads the same');
    await store.delete('kc-native');
  });

  test('login --token-stdin keeps the token in the keychain only; a new login replaces it; logout --forget deletes it', async () => {
    const env = user();
    const login = await cmdb(['login', '--host', emu.url, '-d', 'kc-tok', '--token-stdin', '-o', 'table'], { env, stdin: 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa\n' });
    assert.equal(login.code, 0, login.stderr);
    assert.match(login.stdout, /Logged in to cmdb-emulator \(serial FGVM\w+, v6\.4\.14\)/);
    assert.match(login.stdout, /Secret Service keychain/);
    assert.equal(login.stderr, '');
    assert.equal(await store.get('kc-tok'), 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa');
    assert.ok(!readFileSync(join(env.CMDB_CONFIG_DIR, 'config.yaml'), 'utf8').includes('tokenaaaa'));
    assert.ok(!existsSync(join(env.CMDB_CONFIG_DIR, 'credentials.yaml')));

    const list = await cmdb(LIST, { env });
    assert.equal(list.code, 0, list.stderr);
    assert.equal(emu.requests.at(-1)?.headers.authorization, 'Bearer tokenaaaaaaaaaaaaaaaaaaaaaaaaa');

    const again = await cmdb(['login', '-d', 'kc-tok', '--token-stdin'], { env, stdin: 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb' });
    assert.equal(again.code, 0, again.stderr);
    assert.equal(await store.get('kc-tok'), 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb');

    const logout = await cmdb(['logout', '--forget', '-o', 'json'], { env });
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(json<{ credentialDeleted: boolean }>(logout).credentialDeleted, true);
    assert.equal(await store.get('kc-tok'), null);
    const after = await cmdb(LIST, { env });
    assert.equal(after.code, 4);
    assert.match(after.stderr, /no saved API token for device 'kc-tok'/);
  });

  test('several devices in one run: their secrets read in one batch, not one lookup per device; sessions reused', async () => {
    const env = user();
    for (const [name, token] of [['kc-many-1', 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa'], ['kc-many-2', 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb']]) {
      const login = await cmdb(['login', '--host', emu.url, '-d', name, '--token-stdin'], { env, stdin: token });
      assert.equal(login.code, 0, login.stderr);
    }
    const session = await cmdb(['login', '--host', emu.url, '-d', 'kc-many-3', '--username', emu.username, '--password-stdin'], { env, stdin: emu.password });
    assert.equal(session.code, 0, session.stderr);
    const dir = mkdtempSync(join(tmpdir(), 'cmdb-tool-log-'));
    const log = join(dir, 'calls');
    writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\necho "$*" >> '${log}'\nexit 2\n`, { mode: 0o755 });
    const checks = loginchecks();
    const first = emu.requests.length;
    const r = await cmdb([...LIST, '-d', 'kc-many-*'], { env: { ...env, PATH: `${dir}:${keyring.env.PATH}` } });
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(Object.keys(json<Record<string, unknown>>(r)), ['kc-many-1', 'kc-many-2', 'kc-many-3']);
    assert.equal(existsSync(log), false, 'no per-device lookup');
    const auth = emu.requests.slice(first).map((q) => q.headers.authorization ?? 'cookie').sort();
    assert.deepEqual(auth, ['Bearer tokenaaaaaaaaaaaaaaaaaaaaaaaaa', 'Bearer tokenbbbbbbbbbbbbbbbbbbbbbbbbb', 'cookie']);
    assert.equal(loginchecks(), checks, 'the saved session was used');
  });

  test('session login keeps the password and the session in the keychain, reused across runs: one /logincheck', async () => {
    const env = user();
    const before = loginchecks();
    const login = await cmdb(['login', '--host', emu.url, '-d', 'kc-sess', '--username', emu.username, '--password-stdin'], { env, stdin: `${emu.password}\n` });
    assert.equal(login.code, 0, login.stderr);
    assert.equal(await store.get('kc-sess'), emu.password);
    const saved = parseSession(await store.get(sessionAccount('kc-sess')));
    assert.ok(saved && Object.keys(saved.cookies).some((c) => c.startsWith('APSCOOKIE_')));
    for (let i = 0; i < 2; i++) {
      const list = await cmdb(LIST, { env });
      assert.equal(list.code, 0, list.stderr);
    }
    assert.equal(loginchecks() - before, 1);

    const logout = await cmdb(['logout'], { env });
    assert.equal(logout.code, 0, logout.stderr);
    assert.equal(await store.get(sessionAccount('kc-sess')), null);
    assert.equal(await store.get('kc-sess'), emu.password, 'logout without --forget keeps the password');

    const remove = await cmdb(['device', 'remove', 'kc-sess'], { env });
    assert.equal(remove.code, 0, remove.stderr);
    assert.equal(await store.get('kc-sess'), null);
  });

  test('device remove ends the saved session and deletes it with the credential', async () => {
    const env = user();
    const login = await cmdb(['login', '--host', emu.url, '-d', 'kc-rm', '--username', emu.username, '--password-stdin'], { env, stdin: emu.password });
    assert.equal(login.code, 0, login.stderr);
    assert.notEqual(await store.get(sessionAccount('kc-rm')), null);
    const remove = await cmdb(['device', 'remove', 'kc-rm'], { env });
    assert.equal(remove.code, 0, remove.stderr);
    assert.equal(emu.requests.at(-1)?.path, '/logout');
    assert.equal(await store.get(sessionAccount('kc-rm')), null);
    assert.equal(await store.get('kc-rm'), null);
    const list = await cmdb(['device', 'list', '-o', 'json'], { env });
    assert.deepEqual(json(list), []);
  });
});

describe('without a reachable keychain', () => {
  let emu: RunningEmulator;
  before(async () => {
    emu = await startEmulator({ port: 0 });
  });
  after(() => emu.close());

  test('login fails with exit 4 naming CMDB_TOKEN and --insecure-storage; nothing is sent or saved', async () => {
    const env = keychainlessUser();
    const sent = emu.requests.length;
    const r = await cmdb(['login', '--host', emu.url, '--token-stdin'], { env, stdin: emu.token });
    assert.equal(r.code, 4, r.stderr);
    assert.match(r.stderr, /cannot use the Secret Service keychain/);
    assert.match(r.stderr, /CMDB_TOKEN/);
    assert.match(r.stderr, /--insecure-storage/);
    assert.equal(emu.requests.length, sent);
    assert.ok(!existsSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml')));
    assert.ok(!r.stderr.includes(emu.token));
  });

  test('a hung D-Bus fails the login after CMDB_KEYCHAIN_TIMEOUT instead of hanging', async () => {
    const { createServer } = await import('node:net');
    const socket = join(mkdtempSync(join(tmpdir(), 'cmdb-hung-')), 'bus');
    const held: import('node:net').Socket[] = [];
    const server = createServer((s) => void held.push(s)).listen(socket);
    try {
      const env = isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`, CMDB_KEYCHAIN_TIMEOUT: '1' });
      const r = await cmdb(['login', '--host', emu.url, '--token-stdin'], { env, stdin: emu.token });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /did not answer within 1 s/);
    } finally {
      held.forEach((s) => s.destroy());
      server.close();
    }
  });

  test('--insecure-storage keeps the secret in credentials.yaml (0600) and warns each time it is used', async () => {
    const env = keychainlessUser();
    const login = await cmdb(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], { env, stdin: emu.token });
    assert.equal(login.code, 0, login.stderr);
    const file = join(env.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml');
    assert.ok(readFileSync(file, 'utf8').includes(emu.token));
    for (const r of [login, await cmdb(LIST, { env }), await cmdb(LIST, { env })]) {
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stderr, /warning: secrets are kept in plain text in .*credentials\.yaml/);
    }
    assert.ok(!readFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), 'utf8').includes(emu.token));
  });
});
