// No secret (token, password, session cookie, CSRF token) in stdout, stderr, --verbose output, the
// profile file, or any file the tool wrote: a whole working day with the keychain, then a search.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, type Run } from '../helpers/cli.js';
import { keyringSkip, startKeyring, type PrivateKeyring } from '../helpers/keyring.js';

const TABLE = 'firewall.ipmacbinding/table';

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return filesUnder(path);
    return e.isFile() ? [path] : [];
  });
}

/** The session cookies and CSRF tokens the device saw, with and without their quotes. */
function sessionSecrets(emu: RunningEmulator): string[] {
  const secrets = new Set<string>();
  for (const r of emu.requests) {
    for (const pair of (r.headers.cookie ?? '').split(';')) {
      const value = pair.split('=').slice(1).join('=').trim();
      if (value) for (const v of [value, value.replace(/^"|"$/g, '')]) secrets.add(v);
    }
    if (r.headers['x-csrftoken']) secrets.add(r.headers['x-csrftoken']);
  }
  return [...secrets];
}

describe('no secret anywhere the user or the disk can see', { skip: keyringSkip() }, () => {
  let keyring: PrivateKeyring;
  let emu: RunningEmulator;
  before(async () => {
    keyring = await startKeyring();
    emu = await startEmulator({ port: 0 });
  });
  after(async () => {
    await emu?.close();
    await keyring?.stop();
  });

  test('login, reads, writes, re-login, auth status and logout, all with --verbose', async () => {
    const env = keyring.env;
    const runs: Run[] = [];
    const run = async (args: string[], stdin?: string) => {
      const r = await cmdb([...args, '--verbose'], { env, stdin });
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      runs.push(r);
    };
    await run(['login', '--host', emu.url, '-d', 'tok', '--token-stdin'], emu.token);
    await run(['list', TABLE, '-d', 'tok']);
    await run(['auth', 'status', '-d', 'tok']);
    await run(
      ['login', '--host', emu.url, '-d', 'ses', '--username', emu.username, '--password-stdin'],
      `${emu.password}\n`,
    );
    await run(['create', TABLE, '-d', 'ses', '--set', 'seq-num=4242', '--set', 'ip=10.42.0.1']);
    emu.expireSessions();
    await run(['get', TABLE, '4242', '-d', 'ses', '-o', 'yaml']);
    await run(['auth', 'status', '-d', 'ses', '-o', 'table']);
    await run(['device', 'show', 'ses']);
    await run(['logout', '-d', 'ses']);

    const cookies = sessionSecrets(emu);
    assert.ok(
      emu.requests.some((r) => r.headers['x-csrftoken']),
      'the CSRF token was sent',
    );
    assert.ok(cookies.length >= 4, `session cookies seen: ${cookies.length}`);
    const secrets = [emu.token, emu.password, encodeURIComponent(emu.password), ...cookies];
    assert.ok(
      runs.some((r) => /> POST .*\/logincheck/.test(r.stderr)),
      'the verbose output shows the login exchange',
    );

    for (const r of runs) {
      for (const secret of secrets) {
        assert.ok(!r.stdout.includes(secret), `a secret in stdout:\n${r.stdout}`);
        assert.ok(!r.stderr.includes(secret), `a secret in stderr:\n${r.stderr}`);
      }
    }
    const written = filesUnder(env.HOME!).filter((f) => statSync(f).size > 0);
    assert.ok(
      written.some((f) => f.endsWith('config.yaml')),
      'the profile file was written',
    );
    for (const file of written) {
      const bytes = readFileSync(file).toString('latin1');
      for (const secret of secrets) assert.ok(!bytes.includes(secret), `a secret in ${file}`);
    }
  });
});
