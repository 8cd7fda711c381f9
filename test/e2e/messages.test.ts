// The messages a new user meets, through the program (in-process) against the emulator: each names the right
// thing (the new key, the missing target, the VDOM, the file) and exits with the documented code.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { displayFingerprint } from '../../src/api/fingerprint.js';
import { keysHint } from '../../src/request/table.js';
import { spawn } from 'node:child_process';
import { BIN, isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
const ACL = 'router/access-list';
const MODEMS = 'system.3g-modem/custom';

const firstLine = (r: Run) => r.stderr.split('\n')[0];
const hint = (r: Run) => /^ {2}hint: (.*)$/m.exec(r.stderr)?.[1] ?? '';

function expectError(r: Run, exit: number, line: string): void {
  assert.equal(firstLine(r), line, r.stderr);
  assert.equal(r.code, exit, r.stderr);
  assert.equal(r.stdout, '');
}

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

describe('keys: the message names the key that is in the way', () => {
  test('clone onto an existing key names the new key, not the original', async () => {
    const r = await run('clone', ACL, 'mgmt nets', 'deny-all');
    expectError(r, 7, `cmdb: ${ACL} "deny-all" already exists`);
    assert.equal(hint(r), `choose another key, or change the existing object with 'cmdb update ${ACL} deny-all'`);
  });

  test('a duplicate on create names the key of the body', async () => {
    // Different content: the same content again would be `unchanged`, a success.
    const r = await run('create', ACL, '--set', 'name=deny-all', '--set', 'comments=another');
    expectError(r, 7, `cmdb: ${ACL} "deny-all" already exists`);
  });

  test("a duplicate in a bulk create names each item's key", async () => {
    const bulk = await runInProcess(['create', ACL, '-f', '-'], {
      env,
      stdin: '[{"name":"deny-all","comments":"x"},{"name":"10.0.0.0/8","comments":"y"}]',
    });
    assert.equal(bulk.code, 7, bulk.stderr);
    assert.match(bulk.stdout, /"message":"router\/access-list \\"deny-all\\" already exists"/);
    assert.match(bulk.stdout, /"message":"router\/access-list \\"10\.0\.0\.0\/8\\" already exists"/);
  });

  test('the duplicate hint never suggests an update the table does not support', async () => {
    // vpn.certificate/ca takes list, create and read only.
    assert.equal(
      (await run('create', 'vpn.certificate/ca', '--set', 'name=dup-ca', '--set', 'scep-url=http://a.example')).code,
      0,
    );
    const r = await run('create', 'vpn.certificate/ca', '--set', 'name=dup-ca', '--set', 'scep-url=http://b.example');
    expectError(r, 7, 'cmdb: vpn.certificate/ca "dup-ca" already exists');
    assert.equal(hint(r), 'choose another key');
  });

  test('update whose body renames the object into an existing key says so', async () => {
    const r = await run('update', ACL, 'deny-all', '--set', 'name=mgmt nets');
    expectError(r, 7, `cmdb: cannot rename ${ACL} "deny-all" to "mgmt nets": "mgmt nets" already exists`);
    assert.ok((emu.objects(ACL, 'root') as { name: string }[]).some((o) => o.name === 'deny-all'));
  });

  test('a hint quotes a key the shell would split', async () => {
    const r = await run('clone', ACL, 'deny-all', 'mgmt nets');
    expectError(r, 7, `cmdb: ${ACL} "mgmt nets" already exists`);
    assert.equal(hint(r), `choose another key, or change the existing object with 'cmdb update ${ACL} "mgmt nets"'`);
  });
});

describe('an integer key typed as a name', () => {
  const POLICY = 'firewall/policy';
  const LOOKUP = `find it by name: cmdb list ${POLICY} --filter name==lan-to-internet`;
  const NOT_AN_INTEGER = `cmdb: ${POLICY} has integer keys (policyid); 'lan-to-internet' is not an integer`;

  test('every command that takes a key keeps the message and adds how to find the object by name', async () => {
    for (const args of [
      ['get', POLICY, 'lan-to-internet'],
      ['update', POLICY, 'lan-to-internet', '--set', 'comments=x'],
      ['delete', POLICY, 'lan-to-internet', '--yes'],
      ['clone', POLICY, 'lan-to-internet', '9'],
      ['move', POLICY, 'lan-to-internet', '--top'],
      ['move', POLICY, '3', '--before', 'lan-to-internet'],
      ['edit', POLICY, 'lan-to-internet'],
      ['revision', POLICY, 'lan-to-internet'],
      ['transactions', POLICY, 'lan-to-internet'],
    ]) {
      const sent = emu.requests.length;
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(firstLine(r), /has integer keys \(policyid\); 'lan-to-internet' is not an integer$/, args.join(' '));
      assert.equal(hint(r), LOOKUP, args.join(' '));
      assert.equal(emu.requests.length, sent, `${args.join(' ')} sent nothing`);
    }
    expectError(await run('get', POLICY, 'lan-to-internet'), 2, NOT_AN_INTEGER);
  });

  test('the hint runs as pasted: the name quoted and escaped for the filter, the VDOM given', async () => {
    const name = 'pdf, "all" $files';
    const created = await run('create', 'dlp/filepattern', '--set', 'id=30', '--set', `name=${name}`, '--vdom', 'root');
    assert.equal(created.code, 0, created.stderr);
    const r = await run('get', 'dlp/filepattern', name, '--vdom', 'root');
    assert.equal(r.code, 2, r.stderr);
    const command = /^find it by name: (cmdb list .*)$/.exec(hint(r))?.[1];
    assert.ok(command?.endsWith(' --vdom root'), hint(r));
    const pasted = await new Promise<{ code: number | null; stdout: string }>((resolve, reject) => {
      const shell = spawn('bash', ['-c', `cmdb() { "${process.execPath}" "${BIN}" "$@"; }; ${command} -o json`], {
        env,
      });
      let stdout = '';
      shell.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      shell.on('error', reject);
      shell.on('close', (code) => resolve({ code, stdout }));
    });
    assert.equal(pasted.code, 0, command);
    assert.deepEqual(
      (JSON.parse(pasted.stdout) as { id: number; name: string }[]).map((o) => [o.id, o.name]),
      [[30, name]],
    );
  });

  test("no hint where the table has no name field, or the key is a new object's", async () => {
    const noName = await run('get', 'firewall/central-snat-map', 'lan');
    assert.equal(noName.code, 2, noName.stderr);
    assert.doesNotMatch(noName.stderr, /find it by name/);
    const newKey = await run('clone', POLICY, '1', 'copy-of-1');
    assert.equal(newKey.code, 2, newKey.stderr);
    assert.doesNotMatch(newKey.stderr, /find it by name/);
  });
});

describe('move: which object is missing', () => {
  test('a missing --before target is named as the target', async () => {
    const r = await run('move', MODEMS, '1', '--before', '99');
    expectError(r, 6, `cmdb: cannot move ${MODEMS} "1": the --before object "99" not found`);
  });

  test('a missing --after target too', async () => {
    const r = await run('move', MODEMS, '1', '--after', '98');
    expectError(r, 6, `cmdb: cannot move ${MODEMS} "1": the --after object "98" not found`);
  });

  test('a missing moved object is still the moved object', async () => {
    const r = await run('move', MODEMS, '7', '--before', '1');
    expectError(r, 6, `cmdb: ${MODEMS} "7" not found`);
  });
});

describe('VDOMs', () => {
  test('an unknown VDOM on get says the VDOM does not exist, not the object', async () => {
    const r = await run('get', ACL, 'deny-all', '--vdom', 'nope');
    expectError(
      r,
      5,
      `cmdb: permission denied: vdom nope does not exist or is not accessible to this administrator (read ${ACL} "deny-all")`,
    );
  });

  test('an unknown VDOM on list too', async () => {
    const r = await run('list', ACL, '--vdom', 'nope');
    expectError(
      r,
      5,
      `cmdb: permission denied: vdom nope does not exist or is not accessible to this administrator (read ${ACL})`,
    );
  });

  test("a hint with every VDOM quotes the '*'; several VDOMs answer one error each", async () => {
    assert.equal(keysHint(ACL, ['*']), `list the existing keys with 'cmdb list ${ACL} --vdom "*"'`);
    const r = await run('get', ACL, 'missing', '--vdom', '*');
    expectError(r, 6, `cmdb: ${ACL} "missing" not found in vdom root`);
    assert.equal(hint(r), `list the existing keys with 'cmdb list ${ACL} --vdom root'`);
  });
});

describe('tables: hints suggest only what the table supports', () => {
  // Every keyed table of the device can be listed (SPEC.md's report/theme, without L there, takes it on a
  // device), so the hints name `cmdb list`; tables are listed only where they can be.
  test('get without a key on a keyed table asks for the key and says where to see them', async () => {
    const r = await run('get', 'report/theme');
    expectError(r, 2, 'cmdb: report/theme is a keyed table: give the name of the object');
    assert.match(hint(r), /cmdb list report\/theme/);
  });

  test('a singleton given to delete says it is a singleton; nothing is sent', async () => {
    const sent = emu.requests.length;
    const r = await run('delete', 'log.disk/setting');
    expectError(r, 2, 'cmdb: log.disk/setting is a singleton table: it has no objects to delete');
    assert.equal(emu.requests.length, sent);
  });

  test('delete without a key on a keyed table asks for the key', async () => {
    const r = await run('delete', ACL);
    expectError(r, 2, 'cmdb: give the name of each object to delete');
  });
});

describe('files and empty results', () => {
  test('a missing -f file says "no such file", not ENOENT', async () => {
    const missing = join(tempDir('cmdb-msg-'), 'missing.yaml');
    const r = await run('create', ACL, '-f', missing);
    expectError(r, 2, `cmdb: cannot read '${missing}': no such file`);
  });

  test('a folder given to -f says so', async () => {
    const folder = tempDir('cmdb-msg-');
    const r = await run('create', ACL, '-f', folder);
    expectError(r, 2, `cmdb: cannot read '${folder}': is a folder, not a file`);
  });

  test('an empty filtered list says nothing matched the filter', async () => {
    const r = await run('list', ACL, '--filter', 'name==zzz', '-o', 'table');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(firstLine(r), `cmdb: nothing matched the filter in ${ACL}`);
    assert.equal(r.stdout, '');
  });

  test('an empty list without a filter says the table is empty', async () => {
    const plain = await startEmulator({ port: 0, seed: 'empty' });
    try {
      const r = await runInProcess(['list', ACL, '-o', 'table'], {
        env: isolatedEnv({ CMDB_HOST: plain.url, CMDB_TOKEN: plain.token }),
      });
      assert.equal(r.code, 0, r.stderr);
      assert.equal(firstLine(r), `cmdb: no objects in ${ACL}`);
    } finally {
      await plain.close();
    }
  });

  test('-o csv of an empty list still prints the header', async () => {
    const r = await run('list', ACL, '--filter', 'name==zzz', '-o', 'csv');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'name,comments,rule\n');
    const fields = await run('list', ACL, '--filter', 'name==zzz', '--fields', 'name,comments', '-o', 'csv');
    assert.equal(fields.stdout, 'name,comments\n');
    const all = await run('list', ACL, '--filter', 'name==zzz', '--all', '-o', 'csv');
    assert.equal(all.stdout, 'name,comments,rule\n');
    assert.equal((await run('list', ACL, '--filter', 'name==zzz', '--all', '-o', 'csv', '--no-headers')).stdout, '');
  });
});

describe('schema in table format', () => {
  test('one row per field, sub-table fields indented under their list', async () => {
    const r = await run('schema', ACL, '-o', 'table');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      [
        'field          type           size/range    default  values',
        'name           string (key)   max 35',
        'comments       string         max 127',
        'rule           list, key id',
        '  id           integer (key)  0-4294967295  0',
        '  action       option                       permit   permit deny',
        '  prefix       string',
        '  wildcard     string',
        '  exact-match  option                       disable  enable disable',
        '  flags        integer        0-4294967295  0',
        '',
      ].join('\n'),
    );
  });

  test("json keeps the device's schema as it came", async () => {
    const r = await run('schema', ACL, '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const schema = JSON.parse(r.stdout) as { children: { rule: { children: Record<string, unknown> } } };
    assert.ok(schema.children.rule.children.action);
  });
});

describe('bulk output in the machine formats', () => {
  for (const format of ['json', 'ndjson']) {
    test(`-o ${format}: item errors in the results on stdout, the summary one JSON error line on stderr`, async () => {
      assert.equal((await run('create', ACL, '--set', `name=bulk-${format}`)).code, 0);
      const r = await run('delete', ACL, 'gone-1', `bulk-${format}`, 'gone-2', '-o', format);
      assert.equal(r.code, 6, r.stderr);
      const rows =
        format === 'json'
          ? (JSON.parse(r.stdout) as Record<string, unknown>[])
          : r.stdout
              .trim()
              .split('\n')
              .map((l) => JSON.parse(l) as Record<string, unknown>);
      const byKey = new Map(rows.map((row) => [row.mkey, row]));
      assert.deepEqual([...byKey.keys()].sort(), ['bulk-' + format, 'gone-1', 'gone-2'].sort());
      assert.equal(byKey.get(`bulk-${format}`)!.status, 'success');
      assert.equal(byKey.get('gone-1')!.status, 'error');
      assert.equal((byKey.get('gone-2')!.error as { exit: number }).exit, 6);
      assert.equal(
        r.stderr,
        '{"error":{"exit":6,"status":null,"code":null,"message":"2 of 3 failed","hint":null,"failed":2,"total":3}}\n',
      );
    });
  }

  test('without -o (json because piped) the summary is a line for people', async () => {
    const r = await run('delete', ACL, 'gone-3', 'gone-4');
    assert.equal(r.code, 6, r.stderr);
    assert.equal(r.stderr, 'cmdb: 2 of 2 failed\n');
  });
});

describe('colour', () => {
  test('FORCE_COLOR colours the error prefix red and the hint dim; --no-color wins', async () => {
    const coloured = await runInProcess(['get', ACL, 'nothere'], { env: { ...env, FORCE_COLOR: '1' } });
    assert.ok(coloured.stderr.startsWith('\u001b[31mcmdb:\u001b[39m '), JSON.stringify(coloured.stderr));
    assert.match(coloured.stderr, /\u001b\[2m {2}hint: /);
    const plain = await runInProcess(['get', ACL, 'nothere', '--no-color'], { env: { ...env, FORCE_COLOR: '1' } });
    assert.equal(firstLine(plain), `cmdb: ${ACL} "nothere" not found`);
  });
});

describe('TLS', () => {
  let tls: RunningEmulator;
  before(async () => {
    tls = await startEmulator({ port: 0, tls: true });
  });
  after(() => tls.close());

  test('the hint shows the fingerprint as CLI.md writes it, in a login line that can be pasted', async () => {
    const r = await runInProcess(['list', ACL], { env: isolatedEnv({ CMDB_HOST: tls.url, CMDB_TOKEN: tls.token }) });
    assert.equal(r.code, 3, r.stderr);
    assert.match(firstLine(r), /^cmdb: TLS verification failed for https:\/\/127\.0\.0\.1:\d+: /);
    const fingerprint = displayFingerprint(tls.fingerprint!);
    assert.match(fingerprint, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    assert.equal(
      hint(r),
      `trust the device's CA with --ca-file <pem>, or pin this certificate: 'cmdb login --host ${tls.url} --token-stdin --fingerprint ${fingerprint}' (or --username <name> instead of --token-stdin)`,
    );
  });
});
