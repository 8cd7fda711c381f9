// TLS trust at login: a self-signed certificate is refused with its fingerprint and subject, pinned
// with --fingerprint, accepted exactly from then on, and refused once it changes.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { displayFingerprint } from '../../src/api/fingerprint.js';
import { cmdb } from '../helpers/cli.js';
import { expectCode, keychainlessUser } from '../helpers/expect.js';

const LIST = ['list', 'firewall.ipmacbinding/table', '-o', 'json'];

describe('TLS trust of a self-signed device', () => {
  let emu: RunningEmulator;
  let port: number;
  const env = keychainlessUser();
  const config = join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml');
  const login = (args: string[]) =>
    cmdb(['login', '--host', emu.url, '-d', 'tls', '--token-stdin', '--insecure-storage', ...args], {
      env,
      stdin: emu.token,
    });

  before(async () => {
    emu = await startEmulator({ port: 0, tls: true });
    port = Number(new URL(emu.url).port);
  });
  after(() => emu.close());

  test('refused: exit 3 with the SHA-256 fingerprint and subject; nothing reaches the device or the disk', async () => {
    const r = await login([]);
    expectCode(r, 3, /TLS verification failed/);
    assert.ok(r.stderr.includes(displayFingerprint(emu.fingerprint!)), r.stderr);
    assert.match(r.stderr, /subject [^\n]*CN=/);
    assert.match(r.stderr, /--fingerprint/);
    assert.equal(emu.requests.length, 0);
    assert.ok(!existsSync(config));
  });

  test('a --fingerprint that is not the certificate: exit 3, nothing saved', async () => {
    expectCode(await login(['--fingerprint', 'ab'.repeat(32)]), 3, /does not match the pinned fingerprint/);
    assert.equal(emu.requests.length, 0);
    assert.ok(!existsSync(config));
  });

  test('pinned with --fingerprint (any case, colons or not): saved in the profile, accepted from then on', async () => {
    const pin = displayFingerprint(emu.fingerprint!).toLowerCase();
    expectCode(await login(['--fingerprint', pin]), 0);
    assert.match(readFileSync(config, 'utf8'), new RegExp(`fingerprint: "?${displayFingerprint(emu.fingerprint!)}"?`));
    const list = await cmdb(LIST, { env });
    expectCode(list, 0);
    assert.ok(!/TLS verification is off/.test(list.stderr));
    expectCode(await login(['--fingerprint', emu.fingerprint!.toUpperCase()]), 0);
  });

  test('a session login over a pinned certificate: every connection is checked against the pin', async () => {
    const other = keychainlessUser();
    const r = await cmdb(
      [
        'login',
        '--host',
        emu.url,
        '--username',
        emu.username,
        '--password-stdin',
        '--insecure-storage',
        '--fingerprint',
        emu.fingerprint!,
      ],
      { env: other, stdin: emu.password },
    );
    expectCode(r, 0);
    expectCode(
      await cmdb(
        ['create', 'firewall.ipmacbinding/table', '--set', 'seq-num=77', '--set', 'ip=10.7.7.7', '--concurrency', '4'],
        { env: other },
      ),
      0,
    );
    expectCode(await cmdb(['delete', 'firewall.ipmacbinding/table', '77'], { env: other }), 0);
  });

  test('--insecure works, and warns on stderr every time', async () => {
    const other = keychainlessUser();
    const r = await cmdb(['login', '--host', emu.url, '--token-stdin', '--insecure-storage', '--insecure'], {
      env: other,
      stdin: emu.token,
    });
    expectCode(r, 0, /warning: TLS verification is off/);
    expectCode(await cmdb([...LIST, '--insecure'], { env: other }), 0, /warning: TLS verification is off/);
  });

  test('a changed certificate is refused for the pinned device: exit 3 with a clear warning', async () => {
    const old = emu.fingerprint!;
    await emu.close();
    emu = await startEmulator({ port, tls: true });
    assert.notEqual(emu.fingerprint, old);
    const r = await cmdb(LIST, { env });
    expectCode(r, 3, /does not match the pinned fingerprint: it changed, or something is intercepting the connection/);
    assert.ok(r.stderr.includes(displayFingerprint(old)));
    assert.ok(r.stderr.includes(displayFingerprint(emu.fingerprint!)));
    assert.equal(emu.requests.length, 0);
    expectCode(await login([]), 3, /does not match the pinned fingerprint/);
    expectCode(await login(['--fingerprint', emu.fingerprint!]), 0);
    expectCode(await cmdb(LIST, { env }), 0);
  });
});
