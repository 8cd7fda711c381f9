// Defects reported by trying the tool as a new user and an administrator would (issue #24, items 8-15):
// each run in-process (main() with captured streams) against the emulator or a canned server.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { main } from '../../src/cli/main.js';
import { EXIT_CODES } from '../../src/errors.js';
import { captureIO } from '../helpers/io.js';
import { terminalIO } from '../helpers/tty.js';

type Obj = Record<string, unknown>;
const ACL = 'router/access-list';
const FILEPATTERN = 'dlp/filepattern';

let emu: RunningEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;
const homes: string[] = [];

function isolated(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const home = mkdtempSync(join(tmpdir(), 'cmdb-reported-home-'));
  homes.push(home);
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_STATE_HOME: join(home, '.local/state'),
    XDG_CACHE_HOME: join(home, '.cache'),
    LANG: 'C.UTF-8',
    ...extra,
  };
}

async function run(args: string[], runEnv = env, io = captureIO()) {
  const code = await main(args, io, runEnv);
  return { code, out: io.out(), err: io.err() };
}

function doc(name: string, content: unknown): string {
  const path = join(dir, name);
  writeFileSync(path, typeof content === 'string' ? content : JSON.stringify(content));
  return path;
}

const writesSince = (mark: number) => emu.requests.slice(mark).filter((r) => r.method !== 'GET');

before(async () => {
  emu = await startEmulator({ port: 0 });
  dir = mkdtempSync(join(tmpdir(), 'cmdb-reported-'));
  env = isolated({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(async () => {
  await emu.close();
  for (const d of [dir, ...homes]) rmSync(d, { recursive: true, force: true });
});

describe('#24.9 a table named on the command line that the document does not hold', () => {
  test('apply and diff: exit 2, naming it, with "did you mean"; nothing sent', async () => {
    const file = doc('acl.json', { vdoms: { root: { [ACL]: [{ name: 'typo-test', comments: 'x' }] } } });
    const mark = emu.requests.length;
    for (const command of ['apply', 'diff']) {
      const r = await run([command, '-f', file, 'router/access-lst']);
      assert.equal(r.code, 2, `${command}: ${r.err}`);
      assert.match(r.err, /router\/access-lst is not in .*acl\.json/);
      assert.match(r.err, /did you mean router\/access-list/);
    }
    assert.deepEqual(writesSince(mark), []);
  });
});

describe('#24.10 export with no table', () => {
  test('holds the singletons whose only operation is the collection GET (L)', async () => {
    const r = await run(['export', '-o', 'json']);
    assert.equal(r.code, 0, r.err);
    const root = (JSON.parse(r.out) as { vdoms: Record<string, Obj> }).vdoms.root;
    assert.ok('wanopt/cache-service' in root, 'wanopt/cache-service exported');
    assert.ok('web-proxy/explicit' in root, 'web-proxy/explicit exported');
  });
});

describe('#24.11 a number YAML reads on a string field', () => {
  test('diff and apply take it, compare by value and send the field type', async () => {
    const file = doc('numbers.yaml', `vdoms:\n  root:\n    ${ACL}:\n      - name: numbers\n        comments: 12345\n`);
    const diff = await run(['diff', '-f', file, '-o', 'json']);
    assert.equal(diff.code, 10, diff.err);
    const mark = emu.requests.length;
    const applied = await run(['apply', '-f', file, '-o', 'json']);
    assert.equal(applied.code, 0, applied.err);
    const [post] = writesSince(mark);
    assert.equal((JSON.parse(post.body) as Obj).comments, '12345', 'sent as the string the field is');
    const again = await run(['diff', '-f', file, '-o', 'json']);
    assert.equal(again.code, 0, `in sync by value: ${again.out}`);
  });
});

describe('#24.14 move relative to itself', () => {
  test('exit 2, nothing sent', async () => {
    const mark = emu.requests.length;
    const r = await run(['move', FILEPATTERN, '7', '--after', '7']);
    assert.equal(r.code, 2, r.err);
    assert.match(r.err, /itself/);
    assert.deepEqual(emu.requests.slice(mark), []);
  });
});

describe('#24.15 a declined confirmation', () => {
  test('apply on one device: exit 2, nothing sent', async () => {
    const file = doc('declined.json', { vdoms: { root: { [ACL]: [{ name: 'declined' }] } } });
    const mark = emu.requests.length;
    const io = terminalIO([[/\[y\/N\] $/, 'n\r']]);
    const code = await main(['apply', '-f', file, '--no-color'], io, env);
    assert.equal(code, 2, io.err());
    assert.match(io.err(), /nothing was changed/);
    assert.deepEqual(writesSince(mark), []);
  });

  test('the exit-code table says so', () => {
    assert.match(EXIT_CODES.find(([code]) => code === 2)![1], /answered no \(apply included\)/);
  });
});

describe('answers from a server that is not the device, or an error inside a 200', () => {
  let server: Server;
  let url: string;
  let serverEnv: NodeJS.ProcessEnv;
  const answers = new Map<string, { status: number; type: string; body: string }>();
  before(async () => {
    const can = (path: string, status: number, body: unknown, type = 'application/json') =>
      answers.set(path, { status, type, body: typeof body === 'string' ? body : JSON.stringify(body) });
    can('/api/v2/cmdb/router/access-list/dup200', 200, {
      status: 'error',
      error: -5,
      cli_error: 'entry already exists',
    });
    can('/api/v2/cmdb/router/access-list/gone200', 200, { status: 'error', error: -3 });
    can('/api/v2/cmdb/router/access-list/perm200', 200, { status: 'error', error: -14 });
    can('/api/v2/cmdb/router/access-list/other200', 200, {
      status: 'error',
      error: -1,
      cli_error: 'node_check_object fail',
    });
    can('/api/v2/cmdb/router/access-list/bare200', 200, { status: 'error' });
    can('/api/v2/cmdb/router/access-list/empty404', 404, '', 'text/plain');
    server = createServer((req, res) => {
      const a = answers.get((req.url ?? '').split('?')[0]);
      if (!a)
        return void res
          .writeHead(404, { 'content-type': 'text/html' })
          .end('<html><body><h1>404 Not Found</h1></body></html>');
      res.writeHead(a.status, { 'content-type': a.type }).end(a.body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    serverEnv = isolated({ CMDB_HOST: url, CMDB_TOKEN: 't' });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('#24.12 an HTML 404 or an empty one: exit 9, "does not look like the device\'s API", with the URL', async () => {
    for (const args of [
      ['list', FILEPATTERN],
      ['get', ACL, 'empty404'],
    ]) {
      const r = await run(args, serverEnv);
      assert.equal(r.code, 9, r.err);
      assert.match(r.err, /does not look like the device's API/);
      assert.ok(r.err.includes(url), r.err);
      assert.doesNotMatch(r.err, /not found/);
    }
  });

  test('#24.12 login against it: exit 9, not "monitor/system/status not found"', async () => {
    const r = await run(
      ['login', '--host', url, '--token-stdin', '--insecure-storage'],
      isolated({}),
      captureIO({ stdin: 'token\n' }),
    );
    assert.equal(r.code, 9, r.err);
    assert.match(r.err, /does not look like the device's API/);
  });

  test('#24.12 a session login against it (/logincheck answers an HTML 404): exit 9 too', async () => {
    const r = await run(
      ['login', '--host', url, '--username', 'admin', '--password-stdin', '--insecure-storage'],
      isolated({}),
      captureIO({ stdin: 'secret\n' }),
    );
    assert.equal(r.code, 9, r.err);
    assert.match(r.err, /does not look like the device's API/);
    assert.ok(r.err.includes(`${url}/logincheck`), r.err);
  });

  test('#24.13 HTTP 200 with "status":"error": the error code decides, another code 7, no code 9', async () => {
    const cases: [string, number, RegExp][] = [
      ['dup200', 7, /already exists/],
      ['gone200', 6, /not found/],
      ['perm200', 5, /permission denied/],
      ['other200', 7, /device said: node_check_object fail/],
      ['bare200', 9, /error/],
    ];
    for (const [key, exit, message] of cases) {
      const r = await run(['get', ACL, key], serverEnv);
      assert.equal(r.code, exit, `${key}: ${r.err}`);
      assert.match(r.err, message);
      assert.doesNotMatch(r.err, /internal error/);
    }
  });
});

describe('#24.8 create -f into a table whose order matters', () => {
  let server: Server;
  let serverEnv: NodeJS.ProcessEnv;
  /** The device's order of dlp/filepattern: objects land when their POST is answered. */
  const stored: number[] = [];
  let moves = 0;
  let inFlight = 0;
  let most = 0;
  before(async () => {
    // A device that works on requests in parallel: POSTs that arrive together are answered (and land)
    // in the reverse of their arrival order, once no other arrives for a moment.
    let held: { id: number; answer: () => void }[] = [];
    let timer: NodeJS.Timeout | undefined;
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const url = new URL(req.url!, 'http://device');
        const answer = (results: unknown) =>
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ status: 'success', http_status: 200, results }));
        // The table's order, and a move within it, as a device answers them.
        if (req.method === 'GET') return void answer(stored.map((id) => ({ id })));
        if (req.method === 'PUT' && url.searchParams.get('action') === 'move') {
          const id = Number(url.pathname.split('/').pop());
          const after = Number(url.searchParams.get('after') ?? Number.NaN);
          const before = Number(url.searchParams.get('before') ?? Number.NaN);
          stored.splice(stored.indexOf(id), 1);
          stored.splice(Number.isNaN(after) ? stored.indexOf(before) : stored.indexOf(after) + 1, 0, id);
          moves++;
          return void answer([]);
        }
        if (req.method !== 'POST')
          return void res
            .writeHead(404, { 'content-type': 'application/json' })
            .end('{"status":"error","http_status":404,"error":-3}');
        const id = (JSON.parse(body) as { id: number }).id;
        most = Math.max(most, ++inFlight);
        held.push({
          id,
          answer: () =>
            res
              .writeHead(200, { 'content-type': 'application/json' })
              .end(JSON.stringify({ status: 'success', http_status: 200, mkey: id })),
        });
        clearTimeout(timer);
        timer = setTimeout(() => {
          for (const h of held.reverse()) {
            stored.push(h.id);
            inFlight--;
            h.answer();
          }
          held = [];
        }, 20);
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    serverEnv = isolated({ CMDB_HOST: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, CMDB_TOKEN: 't' });
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  test('40 objects with the default concurrency are created at once, then moved into file order', async () => {
    const ids = Array.from({ length: 40 }, (_, i) => 100 + i);
    const file = doc(
      'patterns.json',
      ids.map((id) => ({ id, name: `p${id}` })),
    );
    const r = await run(['create', FILEPATTERN, '-f', file, '-o', 'json'], serverEnv);
    assert.equal(r.code, 0, r.err);
    assert.deepEqual(stored, ids);
    assert.ok(most > 1, 'several creates at once (not a table the device evaluates top-down)');
    assert.ok(moves > 0, 'they landed in another order and were moved');
    assert.match(r.err, /moved \d+ objects of dlp\/filepattern into the file's order/);
    assert.doesNotMatch(r.err, /one at a time/);
  });
});
