// Device answers the emulator does not give on its own (500s, HTML bodies, empty bodies), from a canned
// HTTP server, through the program (in-process): each maps to its exit code and never crashes the tool.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isolatedEnv } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

interface Canned {
  status: number;
  type: string;
  body: string;
}

const answers = new Map<string, Canned>();
let server: Server;
let env: NodeJS.ProcessEnv;

function can(name: string, status: number, body: unknown, type = 'application/json') {
  answers.set(`/api/v2/cmdb/router/access-list/${name}`, {
    status,
    type,
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

before(async () => {
  can('bad', 400, { status: 'error', http_status: 400, error: -1 });
  can('html401', 401, '<html><body>Unauthorized</body></html>', 'text/html');
  can('html403', 403, '<!DOCTYPE html><html>Forbidden</html>', 'text/html');
  can('perm', 200, { status: 'error', http_status: 403, error: -37, vdom: 'root' });
  can('dup500', 500, { status: 'error', http_status: 500, error: -5, cli_error: 'entry already exists' });
  can('err500', 500, { status: 'error', http_status: 500, error: -1, cli_error: 'node_check_object fail! for name x' });
  can('html429', 429, '<html>Too many login attempts</html>', 'text/html');
  can('empty502', 502, '', 'text/plain');
  can('inuse', 424, { status: 'error', http_status: 424, error: -23, cli_error: 'entry is used' });
  const refusal =
    "node_check_object fail! for status maybe\n\nvalue parse error before 'maybe'\nCommand fail. Return code -651\n";
  can('val500', 500, { status: 'error', http_status: 500, error: -651, cli_error: refusal });
  can('val424', 424, { status: 'error', http_status: 424, error: -651, cli_error: 'invalid value' });
  can('dup424', 424, { status: 'error', http_status: 424, error: -5 });
  can('novdom', 403, { status: 'error', http_status: 403, error: -37 });
  server = createServer((req, res) => {
    const a = answers.get((req.url ?? '').split('?')[0]);
    if (!a) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"status":"error","http_status":404,"error":-3}');
      return;
    }
    res
      .writeHead(a.status, { 'content-type': a.type, ...(a.status === 429 ? { 'retry-after': '120' } : {}) })
      .end(a.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  env = isolatedEnv({ CMDB_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CMDB_TOKEN: 't' });
});
after(() => new Promise<void>((resolve) => server.close(() => resolve())));

const cases: [string, number, RegExp][] = [
  ['bad', 7, /refused the request .* as invalid/],
  ['html401', 4, /not authenticated/],
  ['html403', 5, /permission denied/],
  ['perm', 5, /permission denied/],
  ['dup500', 7, /already exists/],
  ['err500', 9, /device said: node_check_object fail/],
  ['html429', 8, /blocked this address .*; try again in 120 seconds/],
  ['empty502', 9, /HTTP 502/],
  ['nothere', 6, /not found/],
  // 6.4 refuses a value with HTTP 500 and a multi-line cli_error; later firmware with 424: the same explanation.
  [
    'val500',
    7,
    /rejected the request to read router\/access-list "val500": invalid value \(HTTP 500\)\n {2}device said: node_check_object fail! for status maybe\n {4}\n {4}value parse error before 'maybe'\n {4}Command fail\. Return code -651\n/,
  ],
  ['val424', 7, /rejected the request to read router\/access-list "val424": invalid value \(HTTP 424\)/],
  ['dup424', 7, /already exists/],
];

for (const [name, exit, message] of cases) {
  test(`${name} → exit ${exit}`, async () => {
    const r = await runInProcess(['get', 'router/access-list', name], { env });
    assert.equal(r.code, exit, r.stderr);
    assert.match(r.stderr, message);
    assert.match(r.stderr, /hint: /);
    assert.ok(!/\n\s+at /.test(r.stderr), 'stack trace printed');
    assert.equal(r.stdout, '');
  });
}

test('a VDOM the device answers 403 for: it does not exist or is not accessible, exit 5', async () => {
  const r = await runInProcess(['get', 'router/access-list', 'novdom', '--vdom', 'nosuch'], { env });
  assert.equal(r.code, 5, r.stderr);
  assert.match(
    r.stderr,
    /^cmdb: permission denied: vdom nosuch does not exist or is not accessible to this administrator/,
  );
  assert.doesNotMatch(r.stderr, /not found/);
});

test('in machine-readable mode the error is one JSON line with status and code', async () => {
  const r = await runInProcess(['delete', 'router/access-list', 'inuse', '-o', 'json'], { env });
  assert.equal(r.code, 7);
  const lines = r.stderr.trim().split('\n');
  assert.equal(lines.length, 1);
  const { error } = JSON.parse(lines[0]) as { error: Record<string, unknown> };
  assert.deepEqual([error.exit, error.status, error.code], [7, 424, -23]);
  assert.match(String(error.message), /in use/);
  assert.equal(error.cli_error, 'entry is used');
});
