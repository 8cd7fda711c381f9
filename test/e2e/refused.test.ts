// Input that cannot be right is refused before anything is sent: exit 2, one `cmdb:` line and its hint,
// and never a secret echoed back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { cmdb, isolatedEnv, type Run } from '../helpers/cli.js';
import { expectCode } from '../helpers/expect.js';
import { startHostileServer, type HostileServer } from '../helpers/hostile-server.js';

const TABLE = 'firewall.ipmacbinding/table';
const PASSWORD = 'Sup3rSecretPw';
let server: HostileServer;

before(async () => (server = await startHostileServer()));
after(() => server.close());

/** Exit 2, a `cmdb:` line and at most a hint, the device untouched, the password nowhere. */
async function refused(args: string[], env: NodeJS.ProcessEnv, message: RegExp, stdin = ''): Promise<Run> {
  const sent = server.received.length;
  const r = await cmdb(args, { env, stdin });
  expectCode(r, 2, message);
  const lines = r.stderr.trimEnd().split('\n');
  assert.ok(lines.length <= 2 && lines[0].startsWith('cmdb: '), r.stderr);
  assert.ok(!r.stderr.includes(PASSWORD) && !r.stdout.includes(PASSWORD), 'the password is not echoed');
  assert.equal(server.received.length, sent, 'nothing was sent');
  return r;
}

describe('device addresses', () => {
  test('user information in --host or CMDB_HOST: credentials go through login or CMDB_TOKEN', async () => {
    const url = new URL(server.url);
    const withUser = `http://admin:${PASSWORD}@${url.host}`;
    await refused(['list', TABLE, '--host', withUser], isolatedEnv({ CMDB_TOKEN: 'tok' }), /user name or password[\s\S]*CMDB_TOKEN/);
    await refused(['list', TABLE], isolatedEnv({ CMDB_TOKEN: 'tok', CMDB_HOST: withUser }), /CMDB_HOST 'http:\/\/\*\*\*@/);
    await refused(['login', '--host', withUser, '--token-stdin', '--insecure-storage'], isolatedEnv(), /user name or password/, 'tok');
  });

  test('the user information is shown as *** whole: a password written as the user name is not echoed either', async () => {
    const url = new URL(server.url);
    for (const address of [`http://${PASSWORD}@${url.host}`, `http://admin:${PASSWORD}@${url.host}`, `${PASSWORD}@${url.host}`]) {
      const flag = await refused(['list', TABLE, '--host', address], isolatedEnv({ CMDB_TOKEN: 'tok' }), /--host '(http:\/\/)?\*\*\*@[^']*' holds a user name or password/);
      assert.ok(!flag.stderr.includes('admin'), flag.stderr);
      await refused(['list', TABLE], isolatedEnv({ CMDB_TOKEN: 'tok', CMDB_HOST: address }), /CMDB_HOST '(http:\/\/)?\*\*\*@/);
      await refused(['login', '--host', address, '--token-stdin', '--insecure-storage'], isolatedEnv(), /\*\*\*@/, 'tok');
      const env = isolatedEnv({ CMDB_TOKEN: 'tok' });
      mkdirSync(join(env.XDG_CONFIG_HOME!, 'cmdb'), { recursive: true });
      writeFileSync(join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'), `default: fw\ndevices:\n  fw:\n    host: ${address}\n    auth: token\n    secrets: file\n`);
      await refused(['list', TABLE], env, /\*\*\*@/);
    }
  });

  test('an empty host, or a scheme without a host', async () => {
    const env = isolatedEnv({ CMDB_TOKEN: 'tok' });
    await refused(['list', TABLE, '--host', ''], env, /--host is empty/);
    await refused(['list', TABLE, '--host', '  '], env, /--host is empty/);
    await refused(['list', TABLE, '--host', 'http://'], env, /names no host/);
    await refused(['list', TABLE, '--host', 'https://'], env, /names no host/);
    await refused(['list', TABLE, '--host', 'ftp://fw.example'], env, /not an https/);
  });
});

describe('credentials and prefixes', () => {
  test('a token with whitespace, control or non-ASCII characters', async () => {
    for (const token of ['ab cd', 'abc\tdef', 'abc\u0007', 'tökén']) {
      await refused(['list', TABLE], isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: token }), /CMDB_TOKEN holds/);
    }
    await refused(['login', '--host', server.url, '--token-stdin', '--insecure-storage'], isolatedEnv(), /control or non-ASCII/, 'tök\n');
  });

  test('an API prefix with whitespace, control, non-ASCII characters, ? or #', async () => {
    for (const [prefix, message] of [['/api/v2/cmdb?x=1', /'\?' or '#'/], ['/api#frag', /'\?' or '#'/], ['/api v2', /spaces, control/], ['/api/\u0001', /spaces, control/], ['/äpi', /non-ASCII/], ['api/v2', /invalid API prefix/]] as const) {
      await refused(['list', TABLE], isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok', CMDB_API_PREFIX: prefix }), message);
    }
    await refused(['login', '--host', server.url, '--prefix', '/api?x', '--token-stdin', '--insecure-storage'], isolatedEnv(), /'\?' or '#'/, 'tok');
  });
});

describe('numbers', () => {
  const env = () => isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok' });
  test('paging numbers beyond a safe integer', async () => {
    await refused(['list', TABLE, '--start', '9007199254740993'], env(), /--start.*too large/);
    await refused(['list', TABLE, '--count', '99999999999999999999'], env(), /--count.*too large/);
    await refused(['list', TABLE, '--all', '--page-size', '9007199254740993'], env(), /--page-size.*too large/);
  });

  test('a --timeout longer than a timer can hold', async () => {
    await refused(['list', TABLE, '--timeout', '99999999999'], env(), /at most 2147483 seconds/);
    await refused(['list', TABLE], isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok', CMDB_TIMEOUT: '1e12' }), /at most 2147483 seconds/);
  });
});

describe('YAML tags cmdb does not know', () => {
  const body = (tag: string) => `seq-num: 7\nip: ${tag} 10.0.0.7\nmac: 00:09:0f:00:00:07\n`;

  test('in a request body: refused, and the YAML library prints nothing of its own', async () => {
    const env = isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok' });
    for (const tag of ['!!python/object:os.system', '!!js/function', '!custom']) {
      const r = await refused(['create', TABLE, '-f', '-'], env, /YAML tag/, body(tag));
      assert.doesNotMatch(r.stderr, /YAMLWarning|TAG_RESOLVE_FAILED/);
    }
  });

  test('in config.yaml: refused with the file and line', async () => {
    const env = isolatedEnv({ CMDB_TOKEN: 'tok' });
    const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.yaml'), `default: fw\ndevices:\n  fw:\n    host: !!python/object:os.system ${server.url}\n    auth: token\n`);
    const r = await refused(['list', TABLE], env, /config\.yaml:4: unknown YAML tag !!python\/object:os\.system/);
    assert.doesNotMatch(r.stderr, /YAMLWarning|TAG_RESOLVE_FAILED/);
  });
});

describe('plain HTTP', () => {
  const WARNING = /warning: http:\/\/192\.0\.2\.1 is plain HTTP: the credential .* unencrypted/;

  test('to another machine with a credential: a warning on every run', async () => {
    // 192.0.2.1 is TEST-NET-1: never answers, so the run ends at the timeout, after the warning.
    const env = isolatedEnv({ CMDB_HOST: 'http://192.0.2.1', CMDB_TOKEN: 'tok' });
    for (let i = 0; i < 2; i++) {
      const r = await cmdb(['list', TABLE, '--timeout', '1'], { env });
      expectCode(r, 3, WARNING);
    }
  });

  test('to this machine, or over HTTPS: no warning', async () => {
    const r = await cmdb(['list', TABLE, '-o', 'json'], { env: isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok' }) });
    expectCode(r, 0);
    assert.doesNotMatch(r.stderr, /plain HTTP/);
    const tls = await cmdb(['list', TABLE, '--timeout', '1'], { env: isolatedEnv({ CMDB_HOST: 'https://192.0.2.1', CMDB_TOKEN: 'tok' }) });
    expectCode(tls, 3);
    assert.doesNotMatch(tls.stderr, /plain HTTP/);
  });
});
