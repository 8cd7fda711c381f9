// Saved devices as a new user meets them: the default marked, the host whole, the settings that apply,
// logout and auth status that say what is there, and a login that would replace another kind of login.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { main } from '../../src/cli/main.js';
import { terminalIO } from '../helpers/tty.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const firstLine = (text: string) => text.split('\n')[0];

const loginToken = (name: string, extra: string[] = []) =>
  runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage', '-d', name, ...extra], {
    env,
    stdin: `${emu.token}\n`,
  });

before(async () => {
  emu = await startEmulator({ port: 0 });
  env = isolatedEnv();
  assert.equal((await loginToken('first')).code, 0);
});
after(() => emu.close());

test('device list marks the default with * and never cuts the host, however narrow the terminal', async () => {
  const run = async (columns: number) => {
    const io = terminalIO();
    (io.stdout as { columns: number }).columns = columns;
    assert.equal(await main(['device', 'list', '--no-color'], io, env), 0, io.err());
    return io
      .out()
      .split('\n')
      .filter((l) => l.trim());
  };
  const wide = await run(80);
  assert.match(wide[0]!, /^name\s+host\s+auth\s+default/);
  assert.match(wide[1]!, new RegExp(`^first\\s+${emu.url.replace(/[.:/]/g, '\\$&')}\\s+token\\s+\\*`));
  const narrow = await run(20);
  assert.ok(narrow[1]!.includes(emu.url), narrow.join('\n'));
});

test('device show prints the settings that apply where the profile sets none', async () => {
  const table = await runInProcess(['device', 'show', '-d', 'first', '-o', 'table'], { env });
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^prefix\s+\/api\/v2\/cmdb \(default\)$/m);
  assert.match(table.stdout, /^timeout\s+30 \(default\)$/m);
  assert.match(table.stdout, /^vdom\s+\(the device's management VDOM\)$/m);
  const object = json<Obj>(await runInProcess(['device', 'show', '-d', 'first', '-o', 'json'], { env }));
  assert.equal(object.prefix, '/api/v2/cmdb');
  assert.equal(object.timeout, 30);
});

test('logout on a token profile says there was nothing to end; auth status after --forget says no secret is saved', async () => {
  assert.equal((await loginToken('tok')).code, 0);
  const logout = await runInProcess(['logout', '-d', 'tok', '-o', 'table'], { env });
  assert.equal(logout.code, 0, logout.stderr);
  assert.equal(
    firstLine(logout.stdout),
    `Nothing to end for device 'tok' (${emu.url}): an API token has no session; the token stays saved ('cmdb logout --forget' deletes it)`,
  );
  const forget = await runInProcess(['logout', '-d', 'tok', '--forget', '-o', 'table'], { env });
  assert.equal(forget.code, 0, forget.stderr);
  assert.equal(
    firstLine(forget.stdout),
    `Device 'tok' (${emu.url}) uses an API token, which has no session to end; deleted the saved API token`,
  );
  const sent = emu.requests.length;
  const status = await runInProcess(['auth', 'status', '-d', 'tok', '-o', 'json'], { env });
  assert.equal(status.code, 4, status.stderr);
  const shown = json<Obj>(status);
  assert.equal(shown.works, false);
  assert.match(String(shown.secret), /^none saved/);
  assert.equal(shown.problem, "no API token is saved for device 'tok'");
  assert.equal(emu.requests.length, sent, 'nothing sent without a secret');
});

test('a login of another kind to a saved device is refused without a terminal, and the profile is kept', async () => {
  const config = join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml');
  const before = readFileSync(config, 'utf8');
  const sent = emu.requests.length;
  const r = await runInProcess(
    ['login', '-d', 'first', '--host', emu.url, '--username', emu.username, '--password-stdin', '--insecure-storage'],
    { env, stdin: `${emu.password}\n` },
  );
  assert.equal(r.code, 2, r.stderr);
  assert.equal(
    firstLine(r.stderr),
    `cmdb: device 'first' (${emu.url}) is saved with an API token; this login with a password (as ${emu.username}) would replace it`,
  );
  assert.equal(readFileSync(config, 'utf8'), before);
  assert.equal(emu.requests.length, sent);
});

test('on a terminal the login asks, and replaces the profile only on yes', async () => {
  assert.equal((await loginToken('asked')).code, 0);
  const args = [
    'login',
    '-d',
    'asked',
    '--host',
    emu.url,
    '--username',
    emu.username,
    '--insecure-storage',
    '--no-color',
  ];
  const no = terminalIO([
    [/Password/, `${emu.password}\r`],
    [/Replace it\?/, 'n\r'],
  ]);
  assert.equal(await main(args, no, env), 2, no.err());
  assert.match(no.err(), /cmdb: not replaced: device 'asked'/);
  const yes = terminalIO([
    [/Password/, `${emu.password}\r`],
    [/Replace it\?/, 'y\r'],
  ]);
  assert.equal(await main(args, yes, env), 0, yes.err());
  const shown = json<Obj>(await runInProcess(['device', 'show', '-d', 'asked', '-o', 'json'], { env }));
  assert.equal(shown.auth, 'session');
});
