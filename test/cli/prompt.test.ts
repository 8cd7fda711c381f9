// Prompts on a terminal (password without echo, yes/no, the second factor, the banner, pinning a
// certificate), and their refusal without one: through main() with a stand-in terminal.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { ask, askOrFail, confirm } from '../../src/output/prompt.js';
import { readStdin } from '../../src/request/input.js';
import type { IO } from '../../src/run/context.js';
import { main } from '../../src/cli/main.js';
import { displayFingerprint } from '../../src/api/fingerprint.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { type CmdbError, EXIT, type UsageError } from '../../src/errors.js';
import { captureIO } from '../helpers/io.js';
import { isolatedEnv } from '../helpers/cli.js';
import { terminalIO } from '../helpers/tty.js';

test('a hidden answer is not echoed; backspace edits it', async () => {
  const io = terminalIO([[/Password: $/, 'hunx\u007fter2\r']]);
  assert.equal(await ask(io, 'Password: ', { hidden: true }), 'hunter2');
  assert.equal(io.err(), 'Password: \n');
});

test('a visible answer is echoed as typed', async () => {
  const io = terminalIO([[/Code: $/, '12\r']]);
  assert.equal(await ask(io, 'Code: '), '12');
  assert.equal(io.err(), 'Code: 12\n');
});

test('Ctrl-C cancels a prompt', async () => {
  const io = terminalIO([[/Password: $/, 'ab\u0003']]);
  await assert.rejects(ask(io, 'Password: ', { hidden: true }), (e: CmdbError) => e.exitCode === 130);
});

test('yes/no: only y or yes is yes', async () => {
  for (const [typed, expected] of [
    ['y\r', true],
    ['YES\r', true],
    ['\r', false],
    ['no\r', false],
    ['sure\r', false],
  ] as const) {
    assert.equal(await confirm(terminalIO([[/\[y\/N\] $/, typed]]), 'Pin it?'), expected, typed);
  }
});

test('without a terminal cmdb never asks: a usage error naming the flag', async () => {
  await assert.rejects(
    askOrFail(captureIO(), 'Password for admin: ', '--password-stdin'),
    (e: UsageError) => e.exitCode === EXIT.USAGE && /--password-stdin/.test(e.hint ?? ''),
  );
});

test('stdin: one trailing newline is dropped, no more', async () => {
  const io = (text: string) => ({ ...captureIO(), stdin: Readable.from([text]) as IO['stdin'] });
  assert.equal(await readStdin(io('tok\n'), 'token', '--token-stdin'), 'tok');
  assert.equal(await readStdin(io('tok\r\n'), 'token', '--token-stdin'), 'tok');
  assert.equal(await readStdin(io('tok\n\n'), 'token', '--token-stdin'), 'tok\n');
  await assert.rejects(readStdin(io('\n'), 'token', '--token-stdin'), /read no token/);
});

describe('login on a terminal', () => {
  let emu: RunningEmulator;
  let tls: RunningEmulator;
  before(async () => {
    emu = await startEmulator({
      port: 0,
      disclaimer: true,
      admins: [{ username: 'ops', password: 'op-secret', twoFactorCode: '271828' }],
    });
    tls = await startEmulator({ port: 0, tls: true });
  });
  after(async () => {
    await emu.close();
    await tls.close();
  });
  const env = () => isolatedEnv({ DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/cmdb-test-bus' });

  test('asks the password without echo, the second factor and the banner', async () => {
    const io = terminalIO([
      [/Password for ops at .*: $/, 'op-secret\r'],
      [/Second-factor code: $/, '271828\r'],
      [/login banner.*\[y\/N\] $/, 'y\r'],
    ]);
    const code = await main(['login', '--host', emu.url, '--username', 'ops', '--insecure-storage'], io, env());
    assert.equal(code, 0, io.err());
    assert.deepEqual(io.unanswered(), []);
    assert.ok(!io.err().includes('op-secret'));
    assert.match(io.out(), /Logged in to cmdb-emulator .* as ops/);
  });

  test('refusing the banner: exit 4', async () => {
    const io = terminalIO([
      [/Password for ops/, 'op-secret\r'],
      [/Second-factor code: $/, '271828\r'],
      [/login banner.*\[y\/N\] $/, 'n\r'],
    ]);
    assert.equal(
      await main(['login', '--host', emu.url, '--username', 'ops', '--insecure-storage'], io, env()),
      EXIT.AUTH,
    );
    assert.match(io.err(), /login banner/);
  });

  test('a certificate pinned by answering yes is saved and used', async () => {
    const e = env();
    const io = terminalIO([
      [/Password for admin/, `${tls.password}\r`],
      [/Pin this certificate for device 'lab'\? \[y\/N\] $/, 'y\r'],
    ]);
    const code = await main(
      ['login', '--host', tls.url, '-d', 'lab', '--username', tls.username, '--insecure-storage'],
      io,
      e,
    );
    assert.equal(code, 0, io.err());
    assert.ok(io.err().includes(displayFingerprint(tls.fingerprint!)), io.err());
    assert.match(io.err(), /subject +CN=/);
    assert.ok(
      readFileSync(join(e.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), 'utf8').includes(
        displayFingerprint(tls.fingerprint!),
      ),
    );
    const list = terminalIO();
    assert.equal(await main(['list', 'firewall.ipmacbinding/table', '-o', 'json'], list, e), 0, list.err());
  });

  test('answering no to the pin: exit 3, nothing saved', async () => {
    const e = env();
    const io = terminalIO([
      [/Password for admin/, `${tls.password}\r`],
      [/Pin this certificate/, 'n\r'],
    ]);
    assert.equal(
      await main(['login', '--host', tls.url, '--username', tls.username, '--insecure-storage'], io, e),
      EXIT.UNREACHABLE,
    );
    assert.throws(() => readFileSync(join(e.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml')));
  });
});
