// The CLI against the emulator where 6.4.14 differs from SPEC.md: multi-value options, filter
// escapes, the vendor's table names, HTTP 500 refusals and 403 for an unknown VDOM.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
const last = () => emu.requests.at(-1)!;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

describe('multi-value options', () => {
  for (const value of ['monday,tuesday', 'tuesday monday']) {
    test(`--set roll-day=${value} is sent as one space-separated string`, async () => {
      const r = await run('update', 'log.disk/setting', '--set', `roll-day=${value}`);
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(JSON.parse(last().body), { 'roll-day': value.replace(',', ' ') });
      const read = await run('get', 'log.disk/setting', '-o', 'json');
      assert.deepEqual(
        new Set(String(json<Record<string, unknown>>(read)['roll-day']).split(' ')),
        new Set(['monday', 'tuesday']),
      );
    });
  }

  test('a value outside the options is refused before anything is sent (exit 2)', async () => {
    const before = emu.requests.length;
    const r = await run('update', 'log.disk/setting', '--set', 'roll-day=monday,funday');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^cmdb: --set roll-day=monday,funday: 'funday' is not one of sunday, monday/);
    assert.equal(emu.requests.length, before);
  });
});

describe('filter escapes', () => {
  test('\\, is a literal comma inside a value, a bare comma is OR', async () => {
    for (const [name, comments] of [
      ['esc-comma', 'x,y'],
      ['esc-x', 'x'],
    ]) {
      assert.equal(
        (await run('create', 'router/access-list', '--set', `name=${name}`, '--set', `comments=${comments}`)).code,
        0,
      );
    }
    const names = async (filter: string) =>
      json<{ name: string }[]>(await run('list', 'router/access-list', '--filter', filter, '-o', 'json')).map(
        (o) => o.name,
      );
    assert.deepEqual(await names('comments==x\\,y'), ['esc-comma']);
    assert.equal(new URLSearchParams(last().query).get('filter'), 'comments==x\\,y');
    assert.deepEqual(await names('comments==x,comments==y'), ['esc-x']);
  });

  test('a lone backslash in a value is sent escaped, so it matches literally', async () => {
    assert.equal(
      (await run('create', 'router/access-list', '--set', 'name=esc-slash', '--set', 'comments=C:\\temp')).code,
      0,
    );
    const r = await run('list', 'router/access-list', '--filter', 'comments==C:\\temp', '-o', 'json');
    assert.deepEqual(
      json<{ name: string }[]>(r).map((o) => o.name),
      ['esc-slash'],
    );
    assert.equal(new URLSearchParams(last().query).get('filter'), 'comments==C:\\\\temp');
  });
});

describe("the vendor's table names", () => {
  test('are catalogued tables: sent as typed, no notice, validated', async () => {
    const r = await run('update', 'log.fortianalyzer2/filter', '--set', 'severity=error');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
    assert.equal(last().path, '/api/v2/cmdb/log.fortianalyzer2/filter');
    const read = await run('get', 'log.vendoranalyzer2/filter', '-o', 'json');
    assert.equal(json<Record<string, unknown>>(read).severity, 'error');
    const bad = await run('update', 'log.fortianalyzer2/filter', '--set', 'severity=loud');
    assert.equal(bad.code, 2);
    const client = await run('create', 'vpn.ipsec/forticlient', '--set', 'realm=alias-realm');
    assert.equal(client.code, 0, client.stderr);
    assert.equal(last().path, '/api/v2/cmdb/vpn.ipsec/forticlient');
  });
});

describe('errors in the device dialect', () => {
  test('a value the device refuses (HTTP 500, -651): exit 7, the multi-line cli_error under "device said"', async () => {
    const r = await run(
      'create',
      'firewall.ipmacbinding/table',
      '--set',
      'seq-num=4321',
      '--set',
      'mac=zz:zz',
      '--vdom',
      'root',
    );
    assert.equal(r.code, 7, r.stderr);
    const lines = r.stderr.split('\n');
    assert.match(
      lines[0],
      /^cmdb: the device rejected the request to create firewall\.ipmacbinding\/table( "4321")? in vdom root: invalid value \(HTTP 500\)$/,
    );
    assert.equal(lines[1], '  device said: node_check_object fail! for mac zz:zz');
    assert.match(r.stderr, /\n {4}Command fail\. Return code -651\n/);
    assert.match(r.stderr, /hint: check the field values against 'cmdb schema firewall\.ipmacbinding\/table'/);
  });

  test('a VDOM that does not exist: 403, exit 5, said as such', async () => {
    const r = await run('list', 'router/access-list', '--vdom', 'no-such');
    assert.equal(r.code, 5, r.stderr);
    assert.match(
      r.stderr,
      /^cmdb: permission denied: vdom no-such does not exist or is not accessible to this administrator/,
    );
  });
});
