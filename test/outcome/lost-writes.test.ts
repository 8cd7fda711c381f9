// A write whose answer is lost may still land (#24 item 7): a timed-out request can be held on the way
// and delivered after the read back that did not find it. Such a write is read once more after a short
// wait, then reported `applied` or `unknown`, never `not_applied`; `not_applied` is only for a request
// that provably never reached the device. The same rule for single writes, bulk items and apply steps,
// judged by one module (src/outcome). Commands run in-process on a MockAgent device; faults are injected
// before the device sees the request, and a "held" write lands when the device is read a second time.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { CmdbClient } from '../../src/api/client.js';
import { ConnectionError } from '../../src/api/errors.js';
import { findTable } from '../../src/catalogue/index.js';
import { WriteOutcomeError } from '../../src/errors.js';
import { settleWrite } from '../../src/outcome/index.js';
import { mockDevice, runCommand, type Fault, type Sent } from '../helpers/device.js';

type Obj = Record<string, unknown>;
const PATH = '/api/v2/cmdb/dlp/filepattern';
const TABLE = 'dlp/filepattern';

const timeout = () => Object.assign(new Error('Headers Timeout Error'), { code: 'UND_ERR_HEADERS_TIMEOUT' });
const refused = () => Object.assign(new Error('connect ECONNREFUSED 192.0.2.1:443'), { code: 'ECONNREFUSED' });

/**
 * A device holding dlp/filepattern objects. `held`: writes that timed out on the way and land when the
 * device is read for the `landsOnRead`-th time (so after the first read back, before the second).
 */
function device(initial: Obj[] = [], held: { object: Obj; landsOnRead: number }[] = []) {
  const store = new Map<string, Obj>(initial.map((o) => [String(o.id), o]));
  let reads = 0;
  // As a device does, each answer names its VDOM (a 404 does not).
  const ok = (body: Obj) => ({
    status: 200,
    body: { http_method: 'GET', status: 'success', http_status: 200, vdom: 'root', ...body },
  });
  const handler = (req: Sent) => {
    const url = new URL(req.path, 'https://x');
    const key = url.pathname.slice(PATH.length + 1);
    if (req.method === 'GET') {
      reads++;
      for (const h of held) if (reads === h.landsOnRead) store.set(String(h.object.id), h.object);
      if (!key) return ok({ results: [...store.values()] });
      const object = store.get(decodeURIComponent(key));
      return object
        ? ok({ results: [object] })
        : { status: 404, body: { status: 'error', http_status: 404, error: -3 } };
    }
    if (req.method === 'POST') {
      const object = JSON.parse(req.body!) as Obj;
      store.set(String(object.id), object);
      return ok({ http_method: 'POST', mkey: object.id as number });
    }
    if (req.method === 'DELETE') {
      store.delete(key);
      return ok({ http_method: 'DELETE', mkey: Number(key) });
    }
    return { status: 405, body: { status: 'error', http_status: 405 } };
  };
  return { store, handler };
}

const postOnce = (error: Error, times = 1): Fault => ({
  method: 'POST',
  path: (p) => p.startsWith(PATH),
  error,
  times,
});
const env = { CMDB_TIMEOUT: '1' };

function errorLine(err: string): Obj {
  return (JSON.parse(err.trim().split('\n').pop()!) as { error: Obj }).error;
}

test('create timed out, delivered after the first read back: read again after a wait, applied (exit 0); sent once', async () => {
  const { handler, store } = device([], [{ object: { id: 101, name: 'late' }, landsOnRead: 2 }]);
  const { ctx, io, sent } = mockDevice(handler, { globals: { output: 'json' }, env, faults: [postOnce(timeout())] });
  const code = await runCommand(ctx, 'create', { table: TABLE }, { data: '{"id":101,"name":"late"}' });
  assert.equal(code, 0, io.err());
  assert.equal((JSON.parse(io.out()) as Obj).outcome, 'applied');
  assert.deepEqual(
    sent.map((r) => r.method),
    ['GET', 'GET'],
    'read back twice, never sent again',
  );
  assert.ok(store.has('101'));
});

test('create timed out and not there when read back twice: unknown (exit 3), never "not applied"', async () => {
  const { handler } = device();
  const { ctx, io, sent } = mockDevice(handler, { globals: { output: 'json' }, env, faults: [postOnce(timeout())] });
  const code = await runCommand(ctx, 'create', { table: TABLE }, { data: '{"id":102,"name":"lost"}' });
  assert.equal(code, 3, io.err());
  const error = errorLine(io.err());
  assert.equal(error.outcome, 'unknown');
  assert.match(
    String(error.message),
    /^no answer came within 1s after the write of dlp\/filepattern "102" was sent: not there when read back; the device may still apply it$/,
  );
  assert.match(String(error.hint), /check with 'cmdb get dlp\/filepattern 102' before sending it again/);
  assert.deepEqual(
    sent.map((r) => r.method),
    ['GET', 'GET'],
  );
});

test('create refused before it reached the device: not_applied, nothing read back, the refusal in words', async () => {
  const { handler } = device();
  const { ctx, io, sent } = mockDevice(handler, { globals: { output: 'json' }, env, faults: [postOnce(refused())] });
  const code = await runCommand(ctx, 'create', { table: TABLE }, { data: '{"id":103,"name":"refused"}' });
  assert.equal(code, 3, io.err());
  const error = errorLine(io.err());
  assert.equal(error.outcome, 'not_applied');
  assert.match(String(error.message), /connection refused/);
  assert.deepEqual(sent, []);
});

test('bulk create: the item whose answer timed out is unknown, the others created; exit 3', async () => {
  const { handler } = device();
  // The first POST the device would see is the first item's: it times out on the way.
  const { ctx, io } = mockDevice(handler, {
    globals: { output: 'json' },
    env,
    stdin: JSON.stringify([
      { id: 1, name: 'a' },
      { id: 2, name: 'b' },
    ]),
    faults: [postOnce(timeout())],
  });
  const code = await runCommand(ctx, 'create', { table: TABLE }, { file: '-', concurrency: '1' });
  assert.equal(code, 3, io.err());
  const rows = JSON.parse(io.out()) as Obj[];
  assert.deepEqual(
    rows.map((r) => [r.mkey, r.status, r.outcome ?? null]),
    [
      [1, 'error', 'unknown'],
      [2, 'success', null],
    ],
  );
});

test('apply: a create timed out and not found is reported in "unknown" (and failed), the rest not applied; exit 3', async () => {
  const { handler } = device();
  const doc = {
    vdoms: {
      root: {
        [TABLE]: [
          { id: 7, name: 'seven' },
          { id: 8, name: 'eight' },
        ],
      },
    },
  };
  const { ctx, io } = mockDevice(handler, {
    globals: { output: 'json' },
    env,
    stdin: JSON.stringify(doc),
    faults: [postOnce(timeout())],
  });
  // One write at a time: the outcome of the first decides whether the second is sent.
  const code = await runCommand(ctx, 'apply', { tables: [] }, { file: '-', yes: true, concurrency: '1' });
  assert.equal(code, 3, io.err());
  const report = JSON.parse(io.out()) as {
    applied: Obj[];
    failed: Obj & { error: Obj };
    not_applied: Obj[];
    unknown: Obj[];
  };
  assert.deepEqual(
    report.unknown.map((s) => s.key),
    [7],
  );
  assert.equal(report.failed.outcome, 'unknown');
  assert.match(String(report.failed.error.message), /not there when read back; the device may still apply it/);
  assert.deepEqual(
    report.not_applied.map((s) => s.key),
    [8],
  );
  assert.deepEqual(report.applied, []);
});

test('apply: a create timed out and delivered late is applied, and the run goes on', async () => {
  const { handler, store } = device([], [{ object: { id: 7, name: 'seven' }, landsOnRead: 3 }]);
  const doc = {
    vdoms: {
      root: {
        [TABLE]: [
          { id: 7, name: 'seven' },
          { id: 8, name: 'eight' },
        ],
      },
    },
  };
  const { ctx, io } = mockDevice(handler, {
    globals: { output: 'json' },
    env,
    stdin: JSON.stringify(doc),
    faults: [postOnce(timeout())],
  });
  // One write at a time: the outcome of the first decides whether the second is sent.
  const code = await runCommand(ctx, 'apply', { tables: [] }, { file: '-', yes: true, concurrency: '1' });
  assert.equal(code, 0, io.err());
  const report = JSON.parse(io.out()) as { applied: Obj[]; unknown: Obj[] };
  assert.deepEqual(
    report.applied.map((s) => [s.key, s.outcome ?? null]),
    [
      [7, 'applied'],
      [8, null],
    ],
  );
  assert.deepEqual(report.unknown, []);
  assert.deepEqual([...store.keys()], ['7', '8']);
});

test('the module on plain values: a connect timeout never reached the device (not_applied); no read, no wait', async () => {
  const requests: string[] = [];
  const connectTimeout = new ConnectionError('timeout', 'https://fw', 'Connect Timeout Error', 1000, {
    cause: Object.assign(new Error('Connect Timeout Error'), { code: 'UND_ERR_CONNECT_TIMEOUT' }),
  });
  const client = {
    timeoutMs: 1000,
    request: async (req: { method: string }) => {
      requests.push(req.method);
      throw connectTimeout;
    },
  } as unknown as CmdbClient;
  let paused = 0;
  const err = await settleWrite(
    client,
    findTable(TABLE)!,
    { method: 'DELETE', mkey: 5 },
    { mkey: 5, gone: true },
    { pause: async () => void paused++ },
  ).then(
    () => null,
    (e: unknown) => e,
  );
  assert.ok(err instanceof WriteOutcomeError);
  assert.equal(err.outcome, 'not_applied');
  assert.deepEqual(requests, ['DELETE']);
  assert.equal(paused, 0);
});
