// Messages name what the user typed (issue #22, item 4): the file's own format and line, the variable
// that set the format, an option the command has, the certificate's problem in words, quoted keys,
// "no transactions", no bookkeeping fields, multi-value fields marked, a warning that can be silenced.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { TlsVerificationError, type TlsProblem } from '../../src/api/errors.js';
import { describeError } from '../../src/run/hints.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { cmdbOnTerminal } from '../helpers/pty.js';

const BINDINGS = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';
let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
let dir: string;
const run = (...args: string[]) => runInProcess(args, { env });
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
const firstLine = (r: Run) => r.stderr.split('\n')[0];

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  dir = mkdtempSync(join(tmpdir(), 'cmdb-words-'));
});
after(async () => {
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('a file is reported in its own format, with its line', () => {
  test('a JSON file with a syntax error is a JSON error at its line, not a YAML one', async () => {
    const r = await run('create', BINDINGS, '-f', file('one.json', '{\n  "seq-num": 70,\n  "ip": "10.0.0.70",\n}\n'));
    assert.equal(r.code, 2, r.stderr);
    assert.match(firstLine(r), /^cmdb: '.*one\.json' is not valid JSON: .* at line 4, column 1$/);
    assert.doesNotMatch(r.stderr, /YAML/);
  });

  test('a JSON document that is not YAML either, whatever its name, is reported as JSON', async () => {
    const r = await run('create', BINDINGS, '-f', file('body.txt', '{"seq-num": 70, "ip": "10.0.0.70"]'));
    assert.equal(r.code, 2, r.stderr);
    assert.match(firstLine(r), /is not valid JSON: .* at line 1, column \d+$/);
  });

  test('an NDJSON file names the line that does not parse', async () => {
    const r = await run(
      'create',
      BINDINGS,
      '-f',
      file('many.ndjson', '{"seq-num": 71, "ip": "10.0.0.71"}\n{"seq-num": 72, "ip": "10.0.0.72",}\n'),
    );
    assert.equal(r.code, 2, r.stderr);
    assert.match(firstLine(r), /^cmdb: '.*many\.ndjson' is not valid NDJSON: line 2: /);
    assert.doesNotMatch(r.stderr, /YAML/);
  });

  test('a YAML error ends in words, not a dangling colon', async () => {
    const r = await run('create', BINDINGS, '-f', file('bad.yaml', 'seq-num: 73\nip: a: b\n'));
    assert.equal(r.code, 2, r.stderr);
    assert.match(firstLine(r), /^cmdb: '.*bad\.yaml', line 2: not valid YAML: \w.*[^:]$/);
  });

  test('an unknown field in a bulk file names the element and its line (YAML list, NDJSON)', async () => {
    const yaml = await run(
      'create',
      BINDINGS,
      '-f',
      file('list.yaml', '- seq-num: 74\n  ip: 10.0.0.74\n- seq-num: 75\n  ipp: 10.0.0.75\n'),
    );
    assert.equal(yaml.code, 2, yaml.stderr);
    assert.match(
      firstLine(yaml),
      /^cmdb: element 2 of '.*list\.yaml' \(line 3\): 'ipp' is not a field of firewall\.ipmacbinding\/table \(did you mean 'ip'\?\)$/,
    );
    const ndjson = await run(
      'create',
      BINDINGS,
      '-f',
      file('list.ndjson', '{"seq-num": 76}\n\n{"seq-num": 77, "nmae": "x"}\n'),
    );
    assert.equal(ndjson.code, 2, ndjson.stderr);
    assert.match(
      firstLine(ndjson),
      /^cmdb: element 2 of '.*list\.ndjson' \(line 3\): 'nmae' is not a field of firewall\.ipmacbinding\/table \(did you mean '\w+'\?\)$/,
    );
  });
});

test('CMDB_OUTPUT=csv with export names the variable, not -o csv', async () => {
  const r = await runInProcess(['export', ACL], { env: { ...env, CMDB_OUTPUT: 'csv' } });
  assert.equal(r.code, 2, r.stderr);
  assert.match(firstLine(r), /^cmdb: CMDB_OUTPUT=csv does not fit a config document$/);
  assert.doesNotMatch(firstLine(r), /-o csv/);
});

test('cmdb tables on a narrow terminal suggests --fields, which it has', async () => {
  const narrow = await cmdbOnTerminal(['tables'], '', env, { columns: 50 });
  assert.match(narrow.stdout, /more columns? \(use --fields or -o yaml\)/);
  const r = await run('tables', '--fields', 'path,group', '-o', 'json');
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(Object.keys(json<Record<string, unknown>[]>(r)[0]), ['path', 'group']);
  const wrong = await run('tables', '--fields', 'paht');
  assert.equal(wrong.code, 2);
  assert.match(wrong.stderr, /'paht' is not a column of cmdb tables/);
});

describe('TLS failures in words, and a pin hint with the flags typed', () => {
  const certificate = {
    fingerprint: 'ab'.repeat(32),
    subject: 'CN=fw.example',
    issuer: 'CN=fw.example',
    validTo: 'Jan  1 00:00:00 2024 GMT',
  };
  const failure = (problem: TlsProblem, detail: string) =>
    new TlsVerificationError('tls-verify', 'https://fw.example', detail, 30_000, certificate, false, null, { problem });
  const cases: [TlsProblem, string, RegExp][] = [
    ['expired', 'certificate has expired', /the certificate expired \(valid until Jan {2}1 00:00:00 2024 GMT\)/],
    ['self-signed', 'self-signed certificate', /the certificate is self-signed/],
    [
      'wrong-name',
      "Hostname/IP does not match certificate's altnames: Host: fw.example. is not in the cert's altnames: DNS:other",
      /the certificate is for another name/,
    ],
    [
      'untrusted-issuer',
      'unable to verify the first certificate',
      /signed by an authority this computer does not trust/,
    ],
  ];
  for (const [problem, openssl, words] of cases) {
    test(`${problem}: said in words, never OpenSSL's string`, () => {
      const shown = describeError(failure(problem, openssl));
      assert.equal(shown.exit, 3);
      assert.match(shown.message, words);
      assert.ok(!shown.message.includes(openssl), shown.message);
    });
  }

  test('a changed pinned certificate is said so; the hint repeats the login line typed, with the new pin', () => {
    const changed = new TlsVerificationError(
      'pin-mismatch',
      'https://fw.example',
      'pin mismatch',
      30_000,
      certificate,
      false,
      { expected: 'cd'.repeat(32), actual: 'ab'.repeat(32) },
    );
    const typed = [
      'login',
      '--host',
      'https://fw.example',
      '-d',
      'lab',
      '--username',
      'ops',
      '--fingerprint',
      'cd'.repeat(32),
    ];
    const shown = describeError(changed, { words: typed, device: 'lab', host: 'https://fw.example' });
    assert.match(shown.message, /does not match the pinned fingerprint: it changed/);
    assert.match(
      shown.hint ?? '',
      /'cmdb login --host https:\/\/fw\.example -d lab --username ops --fingerprint (AB:){31}AB'$/,
    );
    const fromList = describeError(changed, { words: ['list', ACL, '-d', 'lab'], device: 'lab' });
    assert.match(fromList.hint ?? '', /'cmdb login -d lab --token-stdin --fingerprint (AB:){31}AB'/);
  });

  test('a real self-signed certificate: in words, with the login line to pin it', async () => {
    const tls = await startEmulator({ port: 0, tls: true });
    try {
      const r = await runInProcess(['list', ACL], { env: { ...env, CMDB_HOST: tls.url } });
      assert.equal(r.code, 3, r.stderr);
      assert.match(
        firstLine(r),
        /TLS verification failed for https:\/\/127\.0\.0\.1:\d+: the certificate is self-signed/,
      );
      assert.doesNotMatch(r.stderr, /DEPTH_ZERO|self-signed certificate$/m);
    } finally {
      await tls.close();
    }
  });
});

test('keys with spaces are quoted in result lines', async () => {
  const r = await run('update', ACL, 'mgmt nets', '--set', 'comments=quoted', '-o', 'table');
  assert.equal(r.code, 0, r.stderr);
  assert.match(r.stdout, /^updated router\/access-list "mgmt nets"( in vdom root)?\n$/);
});

test('an empty transaction list says "no transactions"', async () => {
  const r = await run('transactions', ACL, '-o', 'table');
  assert.equal(r.code, 0, r.stderr);
  assert.equal(r.stdout, '');
  assert.match(r.stderr, /no transactions on router\/access-list/);
});

test("the device's bookkeeping fields (q_*) are left out of list and get in every format, unless --with-meta or --raw", async () => {
  const hasMeta = (value: unknown): boolean => JSON.stringify(value).includes('"q_');
  const list = await run('list', ACL, '-o', 'json');
  assert.equal(list.code, 0, list.stderr);
  assert.ok(!hasMeta(json(list)), list.stdout);
  for (const format of ['yaml', 'ndjson', 'csv']) {
    const r = await run('list', ACL, '-o', format);
    assert.equal(r.code, 0, r.stderr);
    assert.ok(!r.stdout.includes('q_origin_key'), `${format}: ${r.stdout}`);
  }
  const all = await run('list', ACL, '--all', '-o', 'ndjson');
  assert.ok(!all.stdout.includes('q_origin_key'), all.stdout);
  const get = await run('get', ACL, 'deny-all', '-o', 'json');
  assert.ok(!hasMeta(json(get)), get.stdout);
  assert.ok(hasMeta(json(await run('list', ACL, '-o', 'json', '--with-meta'))));
  assert.ok(hasMeta(json(await run('list', ACL, '--raw'))));
});

test('cmdb schema marks multi-value fields', async () => {
  const table = await run('schema', 'log.disk/setting', '-o', 'table');
  assert.equal(table.code, 0, table.stderr);
  assert.match(table.stdout, /^roll-day +option \(several\)/m);
  const doc = json<{ results: { children: Record<string, { multiple_values?: boolean }> } }>(
    await run('schema', 'log.disk/setting', '--raw'),
  );
  assert.equal(doc.results.children['roll-day'].multiple_values, true);
});

test('the plain-text-credential warning is given when a secret is stored, not for a login that fails', async () => {
  const home = isolatedEnv();
  try {
    const refused = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
      env: home,
      stdin: 'not-the-token-0123456789abcdef',
    });
    assert.equal(refused.code, 4, refused.stderr);
    assert.doesNotMatch(refused.stderr, /plain text/);
    assert.ok(!existsSync(join(home.XDG_CONFIG_HOME!, 'cmdb', 'credentials.yaml')), 'nothing was stored');
    const stored = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
      env: home,
      stdin: emu.token,
    });
    assert.equal(stored.code, 0, stored.stderr);
    assert.match(stored.stderr, /warning: secrets are kept in plain text/);
  } finally {
    rmSync(home.HOME!, { recursive: true, force: true });
  }
});

test('the plain-text-credential warning can be silenced per device once acknowledged', async () => {
  const home = isolatedEnv();
  try {
    const config = join(home.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(config, { recursive: true, mode: 0o700 });
    writeFileSync(
      join(config, 'config.yaml'),
      `default: lab\ndevices:\n  lab:\n    host: ${emu.url}\n    auth: token\n    secrets: file\n  other:\n    host: ${emu.url}\n    auth: token\n    secrets: file\n`,
      { mode: 0o600 },
    );
    writeFileSync(join(config, 'credentials.yaml'), `lab: ${emu.token}\nother: ${emu.token}\n`, { mode: 0o600 });
    const warned = await runInProcess(['get', 'log.disk/setting', '-o', 'json'], { env: home });
    assert.equal(warned.code, 0, warned.stderr);
    assert.match(warned.stderr, /warning: secrets are kept in plain text .*plain-text-ok=true/);
    const set = await runInProcess(['device', 'set', 'lab', 'plain-text-ok=true'], { env: home });
    assert.equal(set.code, 0, set.stderr);
    const quiet = await runInProcess(['get', 'log.disk/setting', '-o', 'json'], { env: home });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.equal(quiet.stderr, '');
    const other = await runInProcess(['get', 'log.disk/setting', '-o', 'json', '-d', 'other'], { env: home });
    assert.match(other.stderr, /warning: secrets are kept in plain text/);
  } finally {
    rmSync(home.HOME!, { recursive: true, force: true });
  }
});
