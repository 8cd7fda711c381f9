// The keychain against a real Secret Service (a private D-Bus session with gnome-keyring), directly
// and through the built CLI: tokens, passwords and sessions stored, read, replaced and deleted.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { KeychainError, KeychainStore, sessionAccount } from '../../src/config/secrets.js';
import { parseSession } from '../../src/api/session.js';
import { cmdb, isolatedEnv, json } from '../helpers/cli.js';
import { keychainlessUser } from '../helpers/expect.js';
import { keyringSkip, startKeyring, type PrivateKeyring } from '../helpers/keyring.js';
import { tempDir } from '../helpers/temp.js';

const LIST = ['list', 'firewall.ipmacbinding/table', '-o', 'json'];

describe('the keychain: a real Secret Service', { skip: keyringSkip() }, () => {
  let keyring: PrivateKeyring;
  let emu: RunningEmulator;
  let store: KeychainStore;
  /** The environment of one user of the CLI: the private bus, a config folder of its own. */
  const user = () => ({ ...keyring.env, CMDB_CONFIG_DIR: tempDir('cmdb-kc-config-') });
  const loginchecks = () => emu.requests.filter((r) => r.path === '/logincheck').length;
  /** A `secret-tool` first on PATH running this shell script (each call's arguments logged); its log file. */
  const fakeTool = (script: string, env: NodeJS.ProcessEnv = keyring.env) => {
    const dir = tempDir('cmdb-tool-');
    const log = join(dir, 'calls');
    writeFileSync(join(dir, 'secret-tool'), `#!/bin/sh\necho "$*" >> '${log}'\n${script}\n`, { mode: 0o755 });
    return {
      env: { ...env, PATH: `${dir}:${env.PATH}` },
      calls: () => (existsSync(log) ? readFileSync(log, 'utf8') : ''),
    };
  };
  /** The real secret-tool's path, or '' where it is not installed (CI installs it: .ci/run). */
  const realTool = () => {
    const tool = spawnSync('sh', ['-c', 'command -v secret-tool'], { encoding: 'utf8' }).stdout.trim();
    assert.ok(tool || !process.env.CI, 'secret-tool is installed');
    return tool;
  };

  before(async () => {
    keyring = await startKeyring();
    emu = await startEmulator({
      port: 0,
      tokens: [{ token: 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa' }, { token: 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb' }],
    });
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
    const tool = realTool();
    if (!tool) return;
    const { env, calls } = fakeTool(`exec '${tool}' "$@"`);
    const traced = new KeychainStore(env);
    await store.set('kc-native', 'nätive token\n');
    assert.equal(await traced.get('kc-native'), 'nätive token\n');
    assert.equal(await traced.get('kc-native-none'), null);
    assert.equal(calls(), 'lookup service cmdb username kc-native\nlookup service cmdb username kc-native-none\n');
    const helperOnly = new KeychainStore({ ...keyring.env, PATH: '/nonexistent' });
    assert.equal(await helperOnly.get('kc-native'), 'nätive token\n', 'the helper reads the same');
    await store.delete('kc-native');
  });

  test('getMany: one secret-tool search reads every account; an account it does not list has no secret', async () => {
    const tool = realTool();
    if (!tool) return;
    const accounts = Array.from({ length: 12 }, (_, i) => `kc-batch-${i}`);
    for (const [i, account] of accounts.entries())
      await store.set(account, i % 3 ? `token ${i} ✓` : `{"v":1,"cookies":{"APSCOOKIE_1":"${i}"}}`);
    await store.set(sessionAccount('kc-batch-0'), 'session = 0');
    // The search reaches the keyring; the helper, on a bus that does not exist, could not.
    const { env, calls } = fakeTool(
      `DBUS_SESSION_BUS_ADDRESS='${keyring.env.DBUS_SESSION_BUS_ADDRESS}' exec '${tool}' "$@"`,
      { ...keyring.env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
    );
    const wanted = [...accounts, sessionAccount('kc-batch-0'), 'kc-batch-none', sessionAccount('kc-batch-1')];
    const found = await new KeychainStore(env).getMany(wanted);
    assert.deepEqual(
      [...found],
      wanted.map((a, i) => [
        a,
        i < 12
          ? i % 3
            ? `token ${i} ✓`
            : `{"v":1,"cookies":{"APSCOOKIE_1":"${i}"}}`
          : i === 12
            ? 'session = 0'
            : null,
      ]),
    );
    assert.equal(calls(), 'search --all service cmdb\n');
    assert.deepEqual(
      [...(await new KeychainStore({ ...keyring.env, PATH: '/nonexistent' }).getMany(wanted))],
      [...found],
      'the helper reads the same',
    );
    for (const account of [...accounts, sessionAccount('kc-batch-0')]) await store.delete(account);
  });

  test('getMany: what a search cannot tell for sure is read by the helper (a secret with line breaks, other items under the service)', async () => {
    const tool = realTool();
    if (!tool) return;
    const { env, calls } = fakeTool(`exec '${tool}' "$@"`);
    const traced = new KeychainStore(env);
    const wanted = ['kc-odd-1', 'kc-odd-lines', 'kc-odd-foreign', 'kc-odd-none'];
    const expect = async (values: (string | null)[]) =>
      assert.deepEqual(
        [...(await traced.getMany(wanted))],
        wanted.map((a, i) => [a, values[i]]),
      );
    await store.set('kc-odd-1', 'one');
    await store.set('kc-odd-lines', 'first\nsecond\n');
    await expect(['one', 'first\nsecond\n', null, null]);
    await store.delete('kc-odd-lines');
    const stored = (args: string[], secret: string) =>
      assert.equal(spawnSync(tool, ['store', ...args], { env: keyring.env, input: secret }).status, 0);
    stored(['--label=Stored by hand', 'service', 'cmdb', 'username', 'kc-odd-foreign', 'note', 'by hand'], 'foreign');
    await expect(['one', null, 'foreign', null]);
    stored(['--label=No account', 'service', 'cmdb', 'note', 'no account'], 'none');
    await expect(['one', null, 'foreign', null]);
    assert.equal(calls(), 'search --all service cmdb\n'.repeat(3));
    for (const attributes of [
      ['username', 'kc-odd-foreign'],
      ['note', 'no account'],
    ])
      spawnSync(tool, ['clear', 'service', 'cmdb', ...attributes], { env: keyring.env });
    await store.delete('kc-odd-1');
  });

  test('getMany: a secret-tool that fails, prints what cannot be trusted or hangs: the helper reads, or the timeout', async () => {
    await store.set('kc-fake-1', 'right one');
    await store.set('kc-fake-2', 'right two');
    const wanted = ['kc-fake-1', 'kc-fake-2', 'kc-fake-none'];
    const item = (id: number, label: string, secret: string) =>
      `[/${id}]\nlabel = ${label}\nsecret = ${secret}\ncreated = 2026-01-01 00:00:00\nmodified = 2026-01-01 00:00:00\n`;
    const attrs = (account: string) => `attribute.username = ${account}\nattribute.service = cmdb\n`;
    const prints = (out: string, err: string, code = 0) => {
      const dir = tempDir('cmdb-tool-out-');
      writeFileSync(join(dir, 'out'), out);
      writeFileSync(join(dir, 'err'), err);
      return `cat '${join(dir, 'out')}'; cat '${join(dir, 'err')}' >&2; exit ${code}`;
    };
    const read = (script: string) => new KeychainStore(fakeTool(script).env).getMany(wanted);
    const truth = [
      ['kc-fake-1', 'right one'],
      ['kc-fake-2', 'right two'],
      ['kc-fake-none', null],
    ];

    // The shape trusted: an item of another account, with a schema line; every account it lacks has no secret.
    const trusted = item(1, 'keyring:kc-fake-1@cmdb', 'fake one') + 'schema = org.freedesktop.Secret.Generic\n';
    assert.deepEqual(
      [...(await read(prints(trusted, attrs('kc-fake-1'))))],
      [
        ['kc-fake-1', 'fake one'],
        ['kc-fake-2', null],
        ['kc-fake-none', null],
      ],
    );

    const doubtful: [string, string][] = [
      ['garbage', prints('garbage\n', '')],
      ['a non-zero exit', prints(trusted, attrs('kc-fake-1'), 1)],
      ['no such command', 'exit 127'],
      ["a label that is not the account's", prints(item(1, 'keyring:kc-fake-2@cmdb', 'fake'), attrs('kc-fake-1'))],
      ['another label', prints(item(1, 'by hand', 'fake'), attrs('kc-fake-1'))],
      [
        'an account twice',
        prints(
          item(1, 'keyring:kc-fake-1@cmdb', 'fake') + item(2, 'keyring:kc-fake-1@cmdb', 'fake'),
          attrs('kc-fake-1').repeat(2),
        ),
      ],
      [
        'an item without a username',
        prints(
          item(1, 'keyring:kc-fake-1@cmdb', 'fake') + item(2, 'No account', 'x'),
          attrs('kc-fake-1') + 'attribute.service = cmdb\n',
        ),
      ],
      ['more usernames than items', prints(trusted, `${attrs('kc-fake-1')}attribute.username = kc-fake-2\n`)],
      [
        'an item without a service',
        prints(item(1, 'keyring:kc-fake-1@cmdb', 'fake'), 'attribute.username = kc-fake-1\n'),
      ],
      ['a secret with a line break', prints(item(1, 'keyring:kc-fake-1@cmdb', 'fake\nmore'), attrs('kc-fake-1'))],
      [
        'a locked item (no secret), with its error',
        prints(
          item(1, 'keyring:kc-fake-1@cmdb', 'fake').replace(/secret = .*\n/, ''),
          `secret-tool: Cannot get secret of a locked object\n${attrs('kc-fake-1')}`,
        ),
      ],
      ['a warning on stderr', prints(trusted, `${attrs('kc-fake-1')}(secret-tool:1): GLib-WARNING **: something\n`)],
      [
        'a secret that is not UTF-8',
        `printf '${item(1, 'keyring:kc-fake-1@cmdb', '\\377').replace(/\n/g, '\\n')}'; printf '${attrs('kc-fake-1').replace(/\n/g, '\\n')}' >&2`,
      ],
      ['output cut short', prints(trusted.slice(0, -1), attrs('kc-fake-1'))],
      ['stderr cut short', prints(trusted, `${attrs('kc-fake-1')}(secret-tool:1): GLib`)],
    ];
    const trustedWrongly: string[] = [];
    for (const [what, script] of doubtful)
      if (JSON.stringify([...(await read(script))]) !== JSON.stringify(truth)) trustedWrongly.push(what);
    assert.deepEqual(trustedWrongly, []);

    const hung = new KeychainStore(fakeTool('exec sleep 30').env, 1000);
    await assert.rejects(
      hung.getMany(wanted),
      (err: Error) => err instanceof KeychainError && /did not answer within 1 s/.test(err.message),
    );
    await store.delete('kc-fake-1');
    await store.delete('kc-fake-2');
  });

  test('login --token-stdin keeps the token in the keychain only; a new login replaces it; logout --forget deletes it', async () => {
    const env = user();
    const login = await cmdb(['login', '--host', emu.url, '-d', 'kc-tok', '--token-stdin', '-o', 'table'], {
      env,
      stdin: 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa\n',
    });
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

    const again = await cmdb(['login', '-d', 'kc-tok', '--token-stdin'], {
      env,
      stdin: 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb',
    });
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
    for (const [name, token] of [
      ['kc-many-1', 'tokenaaaaaaaaaaaaaaaaaaaaaaaaa'],
      ['kc-many-2', 'tokenbbbbbbbbbbbbbbbbbbbbbbbbb'],
    ]) {
      const login = await cmdb(['login', '--host', emu.url, '-d', name, '--token-stdin'], { env, stdin: token });
      assert.equal(login.code, 0, login.stderr);
    }
    const session = await cmdb(
      ['login', '--host', emu.url, '-d', 'kc-many-3', '--username', emu.username, '--password-stdin'],
      { env, stdin: emu.password },
    );
    assert.equal(session.code, 0, session.stderr);
    const tool = realTool();
    const tools: [string, string, NodeJS.ProcessEnv][] = [
      ['a secret-tool that fails: the helper reads them', 'exit 2', env],
    ];
    // Only the search reaches the keyring: the helper, on a bus that does not exist, could not.
    if (tool)
      tools.push([
        'secret-tool reads them',
        `DBUS_SESSION_BUS_ADDRESS='${keyring.env.DBUS_SESSION_BUS_ADDRESS}' exec '${tool}' "$@"`,
        { ...env, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus' },
      ]);
    for (const [what, script, base] of tools) {
      const traced = fakeTool(script, base);
      const checks = loginchecks();
      const first = emu.requests.length;
      const r = await cmdb([...LIST, '-d', 'kc-many-*'], { env: traced.env });
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(Object.keys(json<Record<string, unknown>>(r)), ['kc-many-1', 'kc-many-2', 'kc-many-3']);
      assert.equal(traced.calls(), 'search --all service cmdb\n', `${what}: one search, no per-device lookup`);
      const auth = emu.requests
        .slice(first)
        .map((q) => q.headers.authorization ?? 'cookie')
        .sort();
      assert.deepEqual(auth, [
        'Bearer tokenaaaaaaaaaaaaaaaaaaaaaaaaa',
        'Bearer tokenbbbbbbbbbbbbbbbbbbbbbbbbb',
        'cookie',
      ]);
      assert.equal(loginchecks(), checks, `${what}: the saved session was used`);
    }
    const sent = emu.requests.length;
    const hung = await cmdb([...LIST, '-d', 'kc-many-*'], {
      env: { ...fakeTool('exec sleep 30', env).env, CMDB_KEYCHAIN_TIMEOUT: '1' },
    });
    assert.equal(hung.code, 4, hung.stderr);
    assert.match(hung.stderr, /did not answer within 1 s/);
    assert.equal(emu.requests.length, sent);
  });

  test('session login keeps the password and the session in the keychain, reused across runs: one /logincheck', async () => {
    const env = user();
    const before = loginchecks();
    const login = await cmdb(
      ['login', '--host', emu.url, '-d', 'kc-sess', '--username', emu.username, '--password-stdin'],
      { env, stdin: `${emu.password}\n` },
    );
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
    const login = await cmdb(
      ['login', '--host', emu.url, '-d', 'kc-rm', '--username', emu.username, '--password-stdin'],
      { env, stdin: emu.password },
    );
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
    const socket = join(tempDir('cmdb-hung-'), 'bus');
    const held: import('node:net').Socket[] = [];
    const server = createServer((s) => void held.push(s)).listen(socket);
    try {
      const env = isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`, CMDB_KEYCHAIN_TIMEOUT: '1' });
      const r = await cmdb(['login', '--host', emu.url, '--token-stdin'], { env, stdin: emu.token });
      assert.equal(r.code, 4, r.stderr);
      assert.match(r.stderr, /did not answer within 1 s/);
    } finally {
      held.forEach((s) => {
        s.destroy();
      });
      server.close();
    }
  });

  test('--insecure-storage keeps the secret in credentials.yaml (0600) and warns each time it is used', async () => {
    const env = keychainlessUser();
    const login = await cmdb(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
      env,
      stdin: emu.token,
    });
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
