// A table path is one the device has (CLI.md "Shape"): a path in neither the shipped catalogue nor the
// device's own schema is a typo, refused before anything is sent to it (exit 2, "did you mean"), on
// the line, in a document and in an export of named tables; --force sends it, and `cmdb api` sends
// anything. Case matters: devices spell some tables with capitals (firewall/DoS-policy).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

let emu: RunningEmulator;
before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
});
after(() => emu.close());

/** What the emulator received since `since`, as `GET /api/v2/cmdb/firewall/address?action=schema`. */
const received = (since: number) =>
  emu.requests.slice(since).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);

describe('a saved device of release 6.4.14', () => {
  let env: NodeJS.ProcessEnv;
  before(async () => {
    env = isolatedEnv({ CMDB_DEVICE: 'fw' });
    // Login keeps the device's release in its profile.
    const login = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage'], {
      env,
      stdin: emu.token,
    });
    assert.equal(login.code, 0, login.stderr);
    assert.equal((await runInProcess(['device', 'set', 'fw', 'plain-text-ok=true'], { env })).code, 0);
  });

  /** Exit 2 with a "did you mean", and nothing sent to the device. */
  async function typo(args: string[], near: RegExp, stdin = ''): Promise<Run> {
    const since = emu.requests.length;
    const r = await runInProcess(args, { env, stdin });
    assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
    assert.match(r.stderr, /did you mean/, args.join(' '));
    assert.match(r.stderr, near, args.join(' '));
    assert.deepEqual(received(since), [], `${args.join(' ')} sent nothing`);
    return r;
  }

  test('a typo on the line is exit 2 with the nearest tables, nothing sent, whatever the command', async () => {
    await typo(['list', 'FIREWALL/table'], /firewall\.ipmacbinding\/table/);
    await typo(['get', 'Firewall.ipmacbinding/table', '1'], /did you mean firewall\.ipmacbinding\/table/);
    await typo(['create', 'firewall/adress', '--set', 'name=a', '--set', 'subnet=10.0.0.0/24'], /firewall\/address/);
    await typo(['create', 'firewall/x_y', '--set', 'name=a'], /--force/);
    await typo(['update', 'firewall/adress', 'web', '--set', 'comment=x'], /firewall\/address/);
    await typo(['delete', 'firewall/adress', 'web', '--yes'], /firewall\/address/);
    await typo(['clone', 'firewall/adress', 'web', 'web2'], /firewall\/address/);
    await typo(['move', 'firewall/polcy', '1', '--top'], /firewall\/policy/);
    await typo(['schema', 'firewall/adress'], /firewall\/address/);
    await typo(['export', 'firewall/adress', 'router/static'], /firewall\/address/);
  });

  test('a typo in a document is exit 2 with the nearest tables, nothing sent', async () => {
    const doc = 'vdoms:\n  root:\n    firewall/adress:\n      - name: lan\n        subnet: 10.0.0.0/24\n';
    await typo(['diff', '-f', '-'], /firewall\/adress.*\n.*did you mean firewall\/address/, doc);
    await typo(['apply', '-f', '-', '--yes'], /did you mean firewall\/address/, doc);
    const file = join(env.HOME!, 'site.yaml');
    writeFileSync(file, doc.replace('firewall/adress', 'FIREWALL/address'));
    await typo(['diff', '-f', file], /did you mean firewall\/address/);
  });

  test('--force sends it as a keyed table with a string key; cmdb api sends anything', async () => {
    let since = emu.requests.length;
    const forced = await runInProcess(['get', 'firewall/x_y', 'a b', '--force'], { env });
    assert.equal(forced.code, 6, forced.stderr);
    assert.match(forced.stderr, /firewall\/x_y .*--force/);
    assert.deepEqual(received(since), ['GET /api/v2/cmdb/firewall/x_y/a%20b']);
    since = emu.requests.length;
    const api = await runInProcess(['api', 'cmdb/firewall/adress'], { env });
    assert.equal(api.code, 6, api.stderr);
    assert.deepEqual(received(since), ['GET /api/v2/cmdb/firewall/adress']);
  });

  test('a table the device spells with capitals is not a typo', async () => {
    const r = await runInProcess(['list', 'firewall/DoS-policy', '-o', 'json'], { env });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stderr, '');
  });
});

describe('a device whose release is not known yet', () => {
  test("a table the shipped catalogue lacks is asked of the device's schema; one it lacks too is a typo", async () => {
    const env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    const since = emu.requests.length;
    const r = await runInProcess(['list', 'firewall/adress'], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /did you mean firewall\/address/);
    assert.deepEqual(received(since), ['GET /api/v2/cmdb/firewall/adress?action=schema']);
  });
});
