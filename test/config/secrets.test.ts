import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  credentialAccount,
  credentialsPath,
  FileSecretStore,
  KeychainError,
  KeychainStore,
  sessionAccount,
} from '../../src/config/secrets.js';
import { EXIT, type UsageError } from '../../src/errors.js';
import { resolveSettings } from '../../src/settings.js';
import { tempDir } from '../helpers/temp.js';

/** HOME of the keychain runs: what they write there (a cache) goes with it. */
const home = tempDir('cmdb-keychain-home-');

function fileStore() {
  const env = { CMDB_CONFIG_DIR: join(tempDir('cmdb-secrets-'), 'cmdb') };
  const warnings: string[] = [];
  const store = new FileSecretStore(credentialsPath(env), (m) => warnings.push(m));
  return { env, store, warnings, path: credentialsPath(env) };
}

test('a device has two accounts: its credential and its session', () => {
  assert.equal(credentialAccount('fw.example:8443'), 'fw.example:8443');
  assert.equal(sessionAccount('fw.example:8443'), 'fw.example:8443/session');
});

test('the file store keeps, replaces and deletes secrets in credentials.yaml, mode 0600', async () => {
  const { store, path } = fileStore();
  assert.equal(await store.get('fw'), null);
  await store.set('fw', 'token-1');
  await store.set(sessionAccount('fw'), '{"v":1}');
  await store.set('fw', 'token-2');
  assert.equal(await store.get('fw'), 'token-2');
  assert.equal(await store.get(sessionAccount('fw')), '{"v":1}');
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.deepEqual(readdirSync(join(path, '..')), ['credentials.yaml']);
  assert.equal(await store.delete('fw'), true);
  assert.equal(await store.delete('fw'), false);
  assert.equal(await store.get('fw'), null);
  assert.ok(!readFileSync(path, 'utf8').includes('token-'));
});

test('the file store warns once per run that the secrets are in plain text', async () => {
  const { store, warnings, path } = fileStore();
  await store.set('fw', 'x');
  await store.get('fw');
  assert.equal(warnings.length, 1);
  assert.match(warnings[0], /plain text/);
  assert.ok(warnings[0].includes(path));
});

test('a broken credentials.yaml names the line, never the secret', async () => {
  const { store, path } = fileStore();
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, 'fw: ok\nfw2:\n  - hunter2-secret\n');
  await assert.rejects(store.get('fw'), (e: UsageError) => {
    assert.equal(e.exitCode, EXIT.USAGE);
    assert.ok(e.message.startsWith(`${path}:3: `), e.message);
    assert.ok(!`${e.message} ${e.hint}`.includes('hunter2'));
    return true;
  });
});

test('keychain timeout: CMDB_KEYCHAIN_TIMEOUT seconds, default 3', () => {
  const keychainTimeoutMs = (env: NodeJS.ProcessEnv) => resolveSettings({}, env).keychainTimeoutMs;
  assert.equal(keychainTimeoutMs({}), 3000);
  assert.equal(keychainTimeoutMs({ CMDB_KEYCHAIN_TIMEOUT: '0.5' }), 500);
  assert.equal(keychainTimeoutMs({ CMDB_KEYCHAIN_TIMEOUT: 'never' }), 3000);
});

const linux = process.platform === 'linux' ? false : 'the Secret Service is Linux only';

test('no D-Bus: exit 4, naming CMDB_TOKEN and --insecure-storage', { skip: linux }, async () => {
  const store = new KeychainStore({
    PATH: process.env.PATH,
    HOME: home,
    DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'cmdb-no-such-bus')}`,
  });
  await assert.rejects(store.set('fw', 'secret'), (e: KeychainError) => {
    assert.ok(e instanceof KeychainError);
    assert.equal(e.exitCode, EXIT.AUTH);
    assert.match(e.message, /cannot use the Secret Service keychain/);
    assert.match(e.hint ?? '', /CMDB_TOKEN/);
    assert.match(e.hint ?? '', /--insecure-storage/);
    return true;
  });
});

test('no session bus at all: said in those words', { skip: linux }, async () => {
  const store = new KeychainStore({ PATH: process.env.PATH, HOME: home });
  await assert.rejects(store.get('fw'), /no D-Bus session bus \(DBUS_SESSION_BUS_ADDRESS is not set\)/);
});

test('a D-Bus that never answers does not hang the tool: the call fails after the timeout', {
  skip: linux,
}, async () => {
  const socket = join(tempDir('cmdb-hung-bus-'), 'bus');
  const held: import('node:net').Socket[] = [];
  const server = createServer((s) => void held.push(s)).listen(socket);
  try {
    const store = new KeychainStore(
      { PATH: process.env.PATH, HOME: home, DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}` },
      500,
    );
    await assert.rejects(
      store.get('fw'),
      (e: KeychainError) =>
        e instanceof KeychainError &&
        /did not answer within 0.5 s/.test(e.message) &&
        /CMDB_KEYCHAIN_TIMEOUT/.test(e.message),
    );
  } finally {
    held.forEach((s) => {
      s.destroy();
    });
    server.close();
  }
});

/** A PATH whose first folder holds a `secret-tool` that runs `script` (sh). */
function fakeLookupTool(script: string): string {
  const dir = tempDir('cmdb-fake-tool-');
  writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return `${dir}:${process.env.PATH}`;
}

const noBus = (PATH: string) => ({
  PATH,
  HOME: home,
  DBUS_SESSION_BUS_ADDRESS: `unix:path=${join(home, 'cmdb-no-such-bus')}`,
});

test('a read asks secret-tool first: its secret is the answer, byte for byte', { skip: linux }, async () => {
  const store = new KeychainStore(
    noBus(fakeLookupTool(`[ "$*" = "lookup service cmdb username fw" ] && printf 'tök\\nen ' && exit 0; exit 3`)),
  );
  assert.equal(await store.get('fw'), 'tök\nen ');
});

test('secret-tool exiting 1 without a word means no saved secret', { skip: linux }, async () => {
  const store = new KeychainStore(noBus(fakeLookupTool('exit 1')));
  assert.equal(await store.get('fw'), null);
});

test('secret-tool failing otherwise leaves the read to the helper, whose error is the one shown', {
  skip: linux,
}, async () => {
  const store = new KeychainStore(noBus(fakeLookupTool('echo "secret-tool: Could not connect" >&2; exit 1')));
  await assert.rejects(
    store.get('fw'),
    (e: KeychainError) => e instanceof KeychainError && /cannot use the Secret Service keychain/.test(e.message),
  );
});

test('a secret-tool that never answers is killed at the timeout', { skip: linux }, async () => {
  // The error names the timeout: only the timer gives it (the hung tool would end after 60 s, then the helper).
  const store = new KeychainStore(noBus(fakeLookupTool('exec sleep 60')), 500);
  await assert.rejects(
    store.get('fw'),
    (e: KeychainError) => e instanceof KeychainError && /did not answer within 0.5 s/.test(e.message),
  );
});
