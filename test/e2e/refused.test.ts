// Input that cannot be right is refused before anything is sent: exit 2, one `cmdb:` line and its hint,
// and never a secret echoed back.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
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
  const r = await runInProcess(args, { env, stdin });
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
    await refused(
      ['list', TABLE, '--host', withUser],
      isolatedEnv({ CMDB_TOKEN: 'tok' }),
      /user name or password[\s\S]*CMDB_TOKEN/,
    );
    await refused(
      ['list', TABLE],
      isolatedEnv({ CMDB_TOKEN: 'tok', CMDB_HOST: withUser }),
      /CMDB_HOST 'http:\/\/\*\*\*@/,
    );
    await refused(
      ['login', '--host', withUser, '--token-stdin', '--insecure-storage'],
      isolatedEnv(),
      /user name or password/,
      'tok',
    );
  });

  test('the user information is shown as *** whole: a password written as the user name is not echoed either', async () => {
    const url = new URL(server.url);
    for (const address of [
      `http://${PASSWORD}@${url.host}`,
      `http://admin:${PASSWORD}@${url.host}`,
      `${PASSWORD}@${url.host}`,
    ]) {
      const flag = await refused(
        ['list', TABLE, '--host', address],
        isolatedEnv({ CMDB_TOKEN: 'tok' }),
        /--host '(http:\/\/)?\*\*\*@[^']*' holds a user name or password/,
      );
      assert.ok(!flag.stderr.includes('admin'), flag.stderr);
      await refused(
        ['list', TABLE],
        isolatedEnv({ CMDB_TOKEN: 'tok', CMDB_HOST: address }),
        /CMDB_HOST '(http:\/\/)?\*\*\*@/,
      );
      await refused(
        ['login', '--host', address, '--token-stdin', '--insecure-storage'],
        isolatedEnv(),
        /\*\*\*@/,
        'tok',
      );
      const env = isolatedEnv({ CMDB_TOKEN: 'tok' });
      mkdirSync(join(env.XDG_CONFIG_HOME!, 'cmdb'), { recursive: true });
      writeFileSync(
        join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml'),
        `default: fw\ndevices:\n  fw:\n    host: ${address}\n    auth: token\n    secrets: file\n`,
      );
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
    await refused(
      ['login', '--host', server.url, '--token-stdin', '--insecure-storage'],
      isolatedEnv(),
      /control or non-ASCII/,
      'tök\n',
    );
  });

  test('an API prefix with whitespace, control, non-ASCII characters, ? or #', async () => {
    for (const [prefix, message] of [
      ['/api/v2/cmdb?x=1', /'\?' or '#'/],
      ['/api#frag', /'\?' or '#'/],
      ['/api v2', /spaces, control/],
      ['/api/\u0001', /spaces, control/],
      ['/äpi', /non-ASCII/],
      ['api/v2', /invalid API prefix/],
    ] as const) {
      await refused(
        ['list', TABLE],
        isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok', CMDB_API_PREFIX: prefix }),
        message,
      );
    }
    await refused(
      ['login', '--host', server.url, '--prefix', '/api?x', '--token-stdin', '--insecure-storage'],
      isolatedEnv(),
      /'\?' or '#'/,
      'tok',
    );
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
    await refused(
      ['list', TABLE],
      isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok', CMDB_TIMEOUT: '1e12' }),
      /at most 2147483 seconds/,
    );
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
    writeFileSync(
      join(dir, 'config.yaml'),
      `default: fw\ndevices:\n  fw:\n    host: !!python/object:os.system ${server.url}\n    auth: token\n`,
    );
    const r = await refused(['list', TABLE], env, /config\.yaml:4: unknown YAML tag !!python\/object:os\.system/);
    assert.doesNotMatch(r.stderr, /YAMLWarning|TAG_RESOLVE_FAILED/);
  });
});

describe('hostile or broken documents: exit 2 naming the file, nothing sent, no hang (the runs are killed at 30 s)', () => {
  const env = () => isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok' });
  const deepJson = '['.repeat(100_000) + ']'.repeat(100_000);
  const bomb =
    'a: &a [x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n';
  const binding = (n: number) => `seq-num: ${n}\nip: 10.0.0.${n}\nmac: 00:09:0f:00:00:0${n}\n`;
  const documents = `---\n${binding(1)}---\n${binding(2)}`;

  function file(name: string, text: string): string {
    const env0 = env();
    const path = join(env0.HOME!, name);
    writeFileSync(path, text);
    return path;
  }

  test('create -f: deeply nested JSON (also inside a field, unclosed, or on an NDJSON line), an alias bomb, several YAML documents', async () => {
    const cases: [string, string, RegExp][] = [
      ['deep.json', deepJson, /deep\.json', line 1: .*nested more than 64 levels/],
      ['field.json', `{"seq-num": 5, "name": ${deepJson}}`, /field\.json', line 1: .*nested more than 64 levels/],
      ['unclosed.json', '['.repeat(100_000), /unclosed\.json', line 1: .*nested more than 64 levels/],
      [
        'lines.ndjson',
        `{"seq-num": 1}\n{"seq-num": 2, "name": ${deepJson}}\n`,
        /lines\.ndjson'.*nested more than 64 levels/,
      ],
      ['bomb.yaml', bomb, /bomb\.yaml'.*aliases/],
      ['documents.yaml', documents, /documents\.yaml', line 5: holds 2 YAML documents/],
      ['ended.yaml', `${binding(1)}...\n---\n${binding(2)}`, /ended\.yaml', line \d+: holds 2 YAML documents/],
      ['second.yaml', `${binding(1)}---\n${binding(2)}`, /second\.yaml', line 4: holds 2 YAML documents/],
    ];
    for (const [name, text, message] of cases) await refused(['create', TABLE, '-f', file(name, text)], env(), message);
    await refused(['create', TABLE, '-f', '-'], env(), /standard input, line 5: holds 2 YAML documents/, documents);
    // 20,000 levels: an argument is at most 128 KiB.
    await refused(
      ['create', TABLE, '--data', `{"seq-num": 5, "name": ${'['.repeat(20_000)}${']'.repeat(20_000)}}`],
      env(),
      /--data, line 1: .*nested more than 64 levels/,
    );
  });

  test('diff -f and apply -f: the same bounds', async () => {
    const doc = (objects: string) => `{"vdoms": {"root": {"${TABLE}": ${objects}}}}`;
    for (const command of ['diff', 'apply']) {
      await refused(
        [command, '-f', file('deep.json', doc(`[{"seq-num": 5, "name": ${deepJson}}]`))],
        env(),
        /deep\.json', line 1: .*nested more than 64 levels/,
      );
      await refused(
        [command, '-f', file('bomb.yaml', `vdoms:\n  root:\n    x: &x [1]\n${bomb.replace(/^/gm, '    ')}`)],
        env(),
        /bomb\.yaml'.*aliases/,
      );
      await refused(
        [command, '-f', file('two.yaml', `vdoms:\n  root: {}\n---\nvdoms:\n  root: {}\n`)],
        env(),
        /two\.yaml', line 3: holds 2 YAML documents/,
      );
    }
  });
});

describe('a broken or hostile profile or credentials file: exit 2 naming the file and line, no hang (killed at 30 s)', () => {
  function withConfig(text: string, credentials?: string): NodeJS.ProcessEnv {
    const env = isolatedEnv({ CMDB_HOST: server.url });
    const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'config.yaml'), text);
    if (credentials !== undefined) writeFileSync(join(dir, 'credentials.yaml'), credentials, { mode: 0o600 });
    return env;
  }
  const device = `default: fw\ndevices:\n  fw:\n    host: ${'HOST'}\n    auth: token\n    secrets: file\n`;
  const profile = () => device.replace('HOST', server.url);

  test('config.yaml: over 1 MB, deeply nested flow collections or indentation, many keys beside a flow value, a file full of errors', async () => {
    const many = (n: number, line: (i: number) => string) => Array.from({ length: n }, (_, i) => line(i)).join('');
    const cases: [string, RegExp][] = [
      [`devices:\n${many(60_000, (i) => `  d${i}: [x, {y: \n`)}`, /config\.yaml: is \d+ bytes, more than the 1048576/],
      [
        `devices: ${'['.repeat(100_000)}${']'.repeat(100_000)}\n`,
        /config\.yaml:1: not valid YAML: collections nested more than 64 levels/,
      ],
      [
        `devices: ${'{a: '.repeat(50_000)}1${'}'.repeat(50_000)}\n`,
        /config\.yaml:1: not valid YAML: collections nested more than 64 levels/,
      ],
      [
        `devices:\n${many(100, (i) => `${' '.repeat(i + 1)}k${i}:\n`)}${' '.repeat(101)}k: v\n`,
        /config\.yaml:\d+: not valid YAML: collections nested more than 64 levels/,
      ],
      [
        `devices:\n  ${'- '.repeat(100_000)}x\n`,
        /config\.yaml:2: not valid YAML: collections nested more than 64 levels/,
      ],
      [`devices:\n  fw:\n${many(40_000, (i) => `    k${i}: v\n`)}    z: [1]\n`, /config\.yaml:3: unknown setting 'k0'/],
      [`devices:\n${many(40_000, (i) => `  d${i}: "x\n`)}`, /config\.yaml:\d+: not valid YAML/],
    ];
    for (const [text, message] of cases) await refused(['list', TABLE], withConfig(text), message);
  });

  test('credentials.yaml: over 1 MB, or deeply nested', async () => {
    for (const [text, message] of [
      [`fw: ${'x'.repeat(1_100_000)}\n`, /cmdb: .*credentials\.yaml: is \d+ bytes, more than the 1048576/],
      [
        `fw: ${'['.repeat(100_000)}\n`,
        /cmdb: .*credentials\.yaml:1: not valid YAML: collections nested more than 64 levels/,
      ],
    ] as const) {
      const sent = server.received.length;
      // Besides the warning that secrets are kept in a file.
      expectCode(await runInProcess(['list', TABLE], { env: withConfig(profile(), text) }), 2, message);
      assert.equal(server.received.length, sent, 'nothing was sent');
    }
  });
});

describe('plain HTTP', () => {
  const WARNING = /warning: http:\/\/192\.0\.2\.1 is plain HTTP: the credential .* unencrypted/;

  test('to another machine with a credential: a warning on every run', async () => {
    // 192.0.2.1 is TEST-NET-1: never answers, so the run ends at the timeout, after the warning.
    const env = isolatedEnv({ CMDB_HOST: 'http://192.0.2.1', CMDB_TOKEN: 'tok' });
    for (let i = 0; i < 2; i++) {
      const r = await runInProcess(['list', TABLE, '--timeout', '1'], { env });
      expectCode(r, 3, WARNING);
    }
  });

  test('to this machine, or over HTTPS: no warning', async () => {
    const r = await runInProcess(['list', TABLE, '-o', 'json'], {
      env: isolatedEnv({ CMDB_HOST: server.url, CMDB_TOKEN: 'tok' }),
    });
    expectCode(r, 0);
    assert.doesNotMatch(r.stderr, /plain HTTP/);
    const tls = await runInProcess(['list', TABLE, '--timeout', '1'], {
      env: isolatedEnv({ CMDB_HOST: 'https://192.0.2.1', CMDB_TOKEN: 'tok' }),
    });
    expectCode(tls, 3);
    assert.doesNotMatch(tls.stderr, /plain HTTP/);
  });
});
