// cmdb api, backup and status in-process, their device a CmdbClient on undici's MockAgent: what is
// sent (path, query, method, body), what is printed, and the exit codes.
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mockDevice, runCommand, type Sent } from '../helpers/device.js';
import { complete, type Sources } from '../../src/completion/engine.js';
import { PROGRAM } from '../../src/completion/program.js';
import { apiPath } from '../../src/api/url.js';

const envelope = (results: unknown, extra: object = {}) => ({
  http_method: 'GET',
  results,
  status: 'success',
  http_status: 200,
  serial: 'FGVM01',
  version: 'v6.4.14',
  build: 2093,
  ...extra,
});
const STATUS = envelope({ hostname: 'fw1', model_name: 'FortiGate', model_number: 'VM64', model: 'FGVM64' });
const CONFIG =
  '#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=1:user=admin\nconfig system global\n    set hostname "fw1"\nend\n';

function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'cmdb-backup-test-'));
}

test('api: the path relative to /api/v2/ or under it, --query and --vdom in the query, GET by default', async () => {
  const { ctx, io, sent, env } = mockDevice(() => ({ status: 200, body: envelope([{ name: 'a' }, { name: 'b' }]) }), {
    globals: { output: 'json', vdom: 'dmz' },
  });
  assert.equal(
    await runCommand(
      ctx,
      'api',
      { path: '/api/v2/monitor/firewall/policy' },
      { query: ['ip_version=ipv4', 'filter=name==x y'] },
    ),
    0,
    io.err(),
  );
  assert.deepEqual(
    sent.map((r) => `${r.method} ${r.path}`),
    ['GET /api/v2/monitor/firewall/policy?ip_version=ipv4&filter=name%3D%3Dx%20y&vdom=dmz'],
  );
  assert.equal(sent[0].headers.authorization, 'Bearer test-token');
  assert.deepEqual(JSON.parse(io.out()), [{ name: 'a' }, { name: 'b' }]);
  rmSync(env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('api: a body makes it a POST (JSON or YAML); --raw prints the whole answer', async () => {
  const { ctx, io, sent, env } = mockDevice(
    () => ({ status: 200, body: { http_method: 'POST', status: 'success', http_status: 200, mkey: 'x' } }),
    { globals: { output: 'json', raw: true } },
  );
  assert.equal(
    await runCommand(ctx, 'api', { path: 'cmdb/firewall/address' }, { data: 'name: x\nsubnet: 10.0.0.0 255.0.0.0' }),
    0,
    io.err(),
  );
  assert.equal(sent[0].method, 'POST');
  assert.equal(sent[0].headers['content-type'], 'application/json');
  assert.deepEqual(JSON.parse(sent[0].body!), { name: 'x', subnet: '10.0.0.0 255.0.0.0' });
  assert.equal(JSON.parse(io.out()).mkey, 'x');
  rmSync(env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('api: --all pages a list with start and count until a short page', async () => {
  const rows = Array.from({ length: 5 }, (_, i) => ({ id: i }));
  const page = (req: Sent) => {
    const url = new URL(req.path, 'https://x');
    const start = Number(url.searchParams.get('start'));
    return { status: 200, body: envelope(rows.slice(start, start + Number(url.searchParams.get('count')))) };
  };
  const { ctx, io, sent, env } = mockDevice(page, { globals: { output: 'ndjson' } });
  assert.equal(
    await runCommand(ctx, 'api', { path: 'monitor/user/device/query' }, { all: true, pageSize: '2' }),
    0,
    io.err(),
  );
  assert.deepEqual(
    sent.map((r) => r.path.replace(/^.*\?/, '')),
    ['start=0&count=2', 'start=2&count=2', 'start=4&count=2'],
  );
  assert.deepEqual(
    io
      .out()
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).id),
    [0, 1, 2, 3, 4],
  );
  // An answer that is not a list is printed as it is, after its one request.
  const single = mockDevice(() => ({ status: 200, body: STATUS }), { globals: { output: 'json' } });
  assert.equal(
    await runCommand(single.ctx, 'api', { path: 'monitor/system/status' }, { all: true }),
    0,
    single.io.err(),
  );
  assert.equal(single.sent.length, 1);
  assert.equal(JSON.parse(single.io.out()).hostname, 'fw1');
  for (const dir of [env.CMDB_CONFIG_DIR!, single.env.CMDB_CONFIG_DIR!]) rmSync(dir, { recursive: true, force: true });
});

test('api: paths outside /api/v2/, with a scheme and host, or with dot segments are usage errors; nothing is sent', async () => {
  for (const path of [
    'https://evil.example/api/v2/monitor/system/status',
    '//evil.example/x',
    '/etc/passwd',
    'monitor/../../logincheck',
    '/api/v2/%2e%2e/x',
    '/api/v1/monitor/x',
    '',
  ]) {
    const { ctx, io, sent, env } = mockDevice(() => ({ status: 200, body: STATUS }));
    assert.equal(await runCommand(ctx, 'api', { path }, {}), 2, `${path}: ${io.err()}`);
    assert.equal(sent.length, 0, path);
    assert.match(io.err(), /is not a path under \/api\/v2\//);
    rmSync(env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
  }
  assert.deepEqual(apiPath('/api/v2/cmdb/firewall/address/my host'), {
    path: 'cmdb/firewall/address/my%20host',
    query: '',
  });
  assert.deepEqual(apiPath('monitor/system/status?vdom=root'), { path: 'monitor/system/status', query: 'vdom=root' });
});

test('api: a DELETE of a whole CMDB table is refused without --force; -X GET with a body too', async () => {
  const { ctx, io, sent, env } = mockDevice(() => ({ status: 200, body: STATUS }));
  assert.equal(await runCommand(ctx, 'api', { path: 'cmdb/firewall/address' }, { method: 'delete' }), 2);
  assert.match(io.err(), /whole table/);
  const again = mockDevice(() => ({ status: 200, body: STATUS }));
  assert.equal(
    await runCommand(again.ctx, 'api', { path: 'monitor/system/status' }, { method: 'GET', data: '{"a":1}' }),
    2,
  );
  assert.equal(sent.length + again.sent.length, 0);
  rmSync(env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
  rmSync(again.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('api: the device errors keep their exit codes (404 → 6, 405 → 7)', async () => {
  const missing = mockDevice(() => ({
    status: 404,
    body: { http_method: 'GET', status: 'error', http_status: 404, error: -3 },
  }));
  assert.equal(await runCommand(missing.ctx, 'api', { path: 'monitor/no/such' }, {}), 6);
  assert.match(missing.io.err(), /monitor\/no\/such not found/);
  const wrong = mockDevice(() => ({
    status: 405,
    body: { http_method: 'PUT', status: 'error', http_status: 405, error: -50 },
  }));
  assert.equal(await runCommand(wrong.ctx, 'api', { path: 'monitor/system/status' }, { method: 'PUT', data: '{}' }), 7);
  for (const m of [missing, wrong]) rmSync(m.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('status: hostname, serial, version, build and model; one row in a table; --raw the device answer', async () => {
  const json = mockDevice(() => ({ status: 200, body: STATUS }), { globals: { output: 'json' } });
  assert.equal(await runCommand(json.ctx, 'status'), 0, json.io.err());
  assert.deepEqual(JSON.parse(json.io.out()), {
    hostname: 'fw1',
    serial: 'FGVM01',
    version: 'v6.4.14',
    build: 2093,
    model: 'FGVM64',
  });
  assert.deepEqual(
    json.sent.map((r) => r.path),
    ['/api/v2/monitor/system/status'],
  );
  const table = mockDevice(
    () => ({
      status: 200,
      body: envelope({ hostname: 'fw1', model_name: 'FortiGate', model_number: 'VM64', uptime: 3600 }),
    }),
    { globals: { output: 'table' } },
  );
  assert.equal(await runCommand(table.ctx, 'status'), 0, table.io.err());
  const lines = table.io.out().trimEnd().split('\n');
  assert.equal(lines.length, 2, table.io.out());
  assert.match(lines[0], /hostname\s+serial\s+version\s+build\s+model\s+uptime/);
  assert.match(lines[1], /fw1\s+FGVM01\s+v6\.4\.14\s+2093\s+FortiGate VM64\s+3600/);
  const raw = mockDevice(() => ({ status: 200, body: STATUS }), { globals: { output: 'table', raw: true } });
  assert.equal(await runCommand(raw.ctx, 'status'), 0, raw.io.err());
  assert.deepEqual(JSON.parse(raw.io.out()), STATUS);
  for (const m of [json, table, raw]) rmSync(m.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

/** A device of release `version` whose backup answers `backup(method)`. */
function backupDevice(version: string, backup: (req: Sent) => { status: number; body: unknown }) {
  return mockDevice((req) =>
    req.path.startsWith('/api/v2/monitor/system/status') ? { status: 200, body: { ...STATUS, version } } : backup(req),
  );
}

test('backup: GET on 6.4 to stdout, the text exactly as sent', async () => {
  const { ctx, io, sent, env } = backupDevice('v6.4.14', () => ({ status: 200, body: CONFIG }));
  assert.equal(await runCommand(ctx, 'backup', {}, {}), 0, io.err());
  assert.equal(io.out(), CONFIG);
  assert.deepEqual(
    sent.map((r) => `${r.method} ${r.path}`),
    ['GET /api/v2/monitor/system/status', 'GET /api/v2/monitor/system/config/backup?scope=global'],
  );
  rmSync(env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('backup: POST with its JSON body on 7.6; the other form after a 405 either way', async () => {
  const refused = { status: 405, body: { status: 'error', http_status: 405, error: -50 } };
  const newer = backupDevice('v7.6.0', (req) => (req.method === 'POST' ? { status: 200, body: CONFIG } : refused));
  assert.equal(await runCommand(newer.ctx, 'backup', {}, { scope: 'vdom' }), 0, newer.io.err());
  assert.deepEqual(
    newer.sent.slice(1).map((r) => `${r.method} ${r.path}`),
    ['POST /api/v2/monitor/system/config/backup'],
  );
  assert.deepEqual(JSON.parse(newer.sent[1].body!), { destination: 'file', scope: 'vdom' });
  // A release that says 6.4 but takes only the POST (some 7.4 builds), and the reverse.
  const fallback = backupDevice('v6.4.14', (req) => (req.method === 'POST' ? { status: 200, body: CONFIG } : refused));
  assert.equal(await runCommand(fallback.ctx, 'backup', {}, {}), 0, fallback.io.err());
  assert.deepEqual(
    fallback.sent.slice(1).map((r) => r.method),
    ['GET', 'POST'],
  );
  assert.equal(fallback.io.out(), CONFIG);
  const back = backupDevice('v7.6.0', (req) => (req.method === 'GET' ? { status: 200, body: CONFIG } : refused));
  assert.equal(await runCommand(back.ctx, 'backup', {}, {}), 0, back.io.err());
  assert.deepEqual(
    back.sent.slice(1).map((r) => r.method),
    ['POST', 'GET'],
  );
  for (const m of [newer, fallback, back]) rmSync(m.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('backup --file: written with mode 0600; an empty, JSON or binary answer is exit 9 and no file', async () => {
  const dir = tempDir();
  try {
    const file = join(dir, 'new', 'fw1.conf');
    const ok = backupDevice('v6.4.14', () => ({ status: 200, body: CONFIG }));
    assert.equal(await runCommand(ok.ctx, 'backup', {}, { file }), 0, ok.io.err());
    assert.equal(readFileSync(file, 'utf8'), CONFIG);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.equal(statSync(join(dir, 'new')).mode & 0o777, 0o700);
    assert.equal(ok.io.out(), '');
    for (const body of ['', STATUS, '\u0000\u0001binary']) {
      const target = join(dir, 'bad.conf');
      const bad = backupDevice('v6.4.14', () => ({ status: 200, body }));
      assert.equal(await runCommand(bad.ctx, 'backup', {}, { file: target }), 9, JSON.stringify(body));
      assert.equal(existsSync(target), false);
      rmSync(bad.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
    }
    assert.deepEqual(readdirSync(dir).sort(), ['new']);
    rmSync(ok.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('backup: --file and --dir together, or --scope vdom with several VDOMs, are usage errors', async () => {
  const both = backupDevice('v6.4.14', () => ({ status: 200, body: CONFIG }));
  assert.equal(await runCommand(both.ctx, 'backup', {}, { file: 'a', dir: 'b' }), 2);
  const vdoms = mockDevice(() => ({ status: 200, body: CONFIG }), { globals: { vdom: 'root,dmz' } });
  assert.equal(await runCommand(vdoms.ctx, 'backup', {}, { scope: 'vdom' }), 2);
  assert.equal(both.sent.length + vdoms.sent.length, 0);
  for (const m of [both, vdoms]) rmSync(m.env.CMDB_CONFIG_DIR!, { recursive: true, force: true });
});

test('completion of cmdb api: cmdb/ with the tables, and common monitor paths', async () => {
  const sources: Sources = {
    keys: async () => [],
    devices: async () => [],
    vdoms: async () => [],
    catalogue: async () => SHIPPED_CATALOGUE,
  };
  const values = async (cur: string) => (await complete(PROGRAM, ['api'], cur, sources)).candidates.map((c) => c.value);
  const top = await values('');
  assert.ok(top.includes('cmdb/') && top.includes('monitor/system/status'), top.join());
  assert.deepEqual(await values('cmdb/firewall.ipm'), [
    'cmdb/firewall.ipmacbinding/setting',
    'cmdb/firewall.ipmacbinding/table',
  ]);
  assert.deepEqual(await values('monitor/system/st'), ['monitor/system/status']);
  assert.ok((await values('/api/v2/monitor/system/f')).includes('/api/v2/monitor/system/firmware'));
});
