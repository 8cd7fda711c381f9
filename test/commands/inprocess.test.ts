// Commands in-process, their device a CmdbClient on undici's MockAgent: paging, bulk printing and a
// login, asserted on what the user sees (stdout, stderr, exit code) and what the device received.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { readProfiles } from '../../src/config/profiles.js';
import { mockDevice, runCommand, type Sent } from '../helpers/device.js';

const TABLE = '/api/v2/cmdb/firewall.ipmacbinding/table';
const rows = Array.from({ length: 5 }, (_, i) => ({
  'seq-num': i + 1,
  ip: `10.0.0.${i + 1}`,
  mac: '00:00:00:00:00:01',
  name: `h${i + 1}`,
  status: 'enable',
}));

function page(req: Sent) {
  const url = new URL(req.path, 'https://x');
  const start = Number(url.searchParams.get('start') ?? 0);
  const count = Number(url.searchParams.get('count') ?? 1000);
  return {
    status: 200,
    body: { http_method: 'GET', results: rows.slice(start, start + count), status: 'success', http_status: 200 },
  };
}

test('list --all asks page after page until a short one, and prints every object once', async () => {
  const { ctx, io, sent } = mockDevice(page, { globals: { output: 'json' } });
  const code = await runCommand(
    ctx,
    'list',
    { table: 'firewall.ipmacbinding/table' },
    { all: true, pageSize: '2', headers: true },
  );
  assert.equal(code, 0, io.err());
  assert.deepEqual(
    sent.map((r) => r.path),
    [`${TABLE}?start=0&count=2`, `${TABLE}?start=2&count=2`, `${TABLE}?start=4&count=2`],
  );
  assert.deepEqual(
    JSON.parse(io.out()).map((r: { 'seq-num': number }) => r['seq-num']),
    [1, 2, 3, 4, 5],
  );
  assert.equal(sent[0].headers.authorization, 'Bearer test-token');
});

test('list --all -o table --no-headers: rows only; --raw prints the device bodies', async () => {
  const table = mockDevice(page, { globals: { output: 'table' } });
  assert.equal(
    await runCommand(
      table.ctx,
      'list',
      { table: 'firewall.ipmacbinding/table' },
      { all: true, pageSize: '3', headers: false },
    ),
    0,
  );
  const lines = table.io.out().trimEnd().split('\n');
  assert.equal(lines.length, 5);
  assert.match(lines[0], /^1\s+h1\s+10\.0\.0\.1\s/);
  const raw = mockDevice(page, { globals: { output: 'table', raw: true } });
  assert.equal(
    await runCommand(
      raw.ctx,
      'list',
      { table: 'firewall.ipmacbinding/table' },
      { all: true, pageSize: '3', headers: true },
    ),
    0,
  );
  assert.equal(JSON.parse(raw.io.out()).length, 2);
});

test('a bulk delete prints each success, then each failure on stderr, and exits with the worst code', async () => {
  const { ctx, io, sent } = mockDevice(
    (req) =>
      // What the deletes' check reads: the table, and what uses each object (nothing).
      req.method === 'GET'
        ? page(req)
        : req.path.endsWith('/2')
          ? { status: 404, body: { status: 'error', http_status: 404, error: -3 } }
          : { status: 200, body: { status: 'success', http_status: 200, mkey: Number(req.path.split('/').pop()) } },
    { globals: { output: 'table' } },
  );
  const code = await runCommand(
    ctx,
    'delete',
    { table: 'firewall.ipmacbinding/table', keys: ['1', '2', '3'] },
    { concurrency: '1' },
  );
  assert.equal(code, 6);
  assert.deepEqual(
    sent.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.path}`),
    [`DELETE ${TABLE}/1`, `DELETE ${TABLE}/2`, `DELETE ${TABLE}/3`],
  );
  assert.equal(io.out(), 'deleted firewall.ipmacbinding/table 1\ndeleted firewall.ipmacbinding/table 3\n');
  assert.match(io.err(), /^cmdb: firewall\.ipmacbinding\/table "2" not found\n/);
  assert.match(io.err(), /1 of 3 failed/);
});

test('the same bulk delete in json: one list of result rows, the failure with its exit and hint', async () => {
  const { ctx, io } = mockDevice(
    (req) =>
      req.method === 'GET'
        ? page(req)
        : req.path.endsWith('/2')
          ? { status: 404, body: { status: 'error', http_status: 404, error: -3 } }
          : { status: 200, body: { status: 'success', http_status: 200 } },
    { globals: { output: 'json' } },
  );
  assert.equal(
    await runCommand(ctx, 'delete', { table: 'firewall.ipmacbinding/table', keys: ['1', '2'] }, { concurrency: '1' }),
    6,
  );
  const out = JSON.parse(io.out()) as { status: string; mkey: number; error?: { exit: number; hint: string } }[];
  assert.deepEqual(
    out.map((r) => [r.status, r.mkey]),
    [
      ['success', 1],
      ['error', 2],
    ],
  );
  assert.equal(out[1].error?.exit, 6);
  assert.match(out[1].error?.hint ?? '', /cmdb list firewall\.ipmacbinding\/table/);
});

test('login --token-stdin checks the token against the device, then saves the profile and the secret', async () => {
  const status = {
    status: 200,
    body: {
      http_method: 'GET',
      results: { hostname: 'FW-LAB' },
      serial: 'FGVM01',
      version: 'v6.4.14',
      status: 'success',
    },
  };
  const { ctx, io, env, sent } = mockDevice(
    (req) => (req.path === '/api/v2/monitor/system/status' ? status : { status: 404, body: {} }),
    {
      globals: { output: 'json' },
      env: { CMDB_TOKEN: '' },
      stdin: 'lab-token\n',
    },
  );
  const code = await runCommand(ctx, 'login', {}, { tokenStdin: true, insecureStorage: true });
  assert.equal(code, 0, io.err());
  assert.deepEqual(
    sent.map((r) => [r.method, r.path, r.headers.authorization]),
    [['GET', '/api/v2/monitor/system/status', 'Bearer lab-token']],
  );
  const saved = JSON.parse(io.out()) as Record<string, unknown>;
  assert.deepEqual(
    [saved.device, saved.hostname, saved.serial, saved.auth, saved.secrets],
    ['fw.example', 'FW-LAB', 'FGVM01', 'token', 'file'],
  );
  const profile = readProfiles(env).devices.find((d) => d.name === 'fw.example');
  assert.equal(profile?.host, 'https://fw.example');
  assert.match(io.err(), /plain text/);
  assert.doesNotMatch(io.out() + io.err(), /lab-token/);
});

test('list --all asks for the next page before it writes the current one, and waits for a full stdout', async () => {
  const { ctx, io, sent } = mockDevice(page, { globals: { output: 'ndjson' } });
  // A stdout that is full after every write: the run waits for 'drain', which comes on the next turn.
  const stdout = Object.assign(new EventEmitter(), { isTTY: false, columns: 80 });
  let text = '';
  const atDrain: number[] = [];
  let waiting = false;
  const write = (s: string) => {
    assert.ok(!waiting, 'written again before stdout drained');
    text += s;
    waiting = true;
    setImmediate(() => {
      atDrain.push(sent.length);
      waiting = false;
      stdout.emit('drain');
    });
    return false;
  };
  (io as { stdout: unknown }).stdout = Object.assign(stdout, { write });
  const code = await runCommand(
    ctx,
    'list',
    { table: 'firewall.ipmacbinding/table' },
    { all: true, pageSize: '2', headers: true },
  );
  assert.equal(code, 0, io.err());
  assert.deepEqual(
    text
      .trimEnd()
      .split('\n')
      .map((l) => (JSON.parse(l) as { 'seq-num': number })['seq-num']),
    [1, 2, 3, 4, 5],
  );
  // Pages 1 and 2 were still being written when the device had the request for the page after them.
  assert.deepEqual(atDrain, [2, 3, 3]);
});
