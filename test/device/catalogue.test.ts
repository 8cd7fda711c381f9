// The catalogue of a run's device (src/device/catalogue.ts), in-process on a MockAgent device: which
// catalogue a release gets, the tree refused (a table at a time, cached as it goes), the release the
// answers carry remembered at the end of a run.
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { readHostRelease, readSchemaCache, writeHostRelease } from '../../src/config/schema-cache.js';
import { catalogueFor } from '../../src/device/catalogue.js';
import { resolveTable } from '../../src/request/table.js';
import { DEVICE, mockDevice, type Sent } from '../helpers/device.js';

const R72 = { version: 'v7.2.5', build: 1517, serial: 'FGVM72TEST000001' };
const POLICY = {
  name: 'policy-x',
  path: 'router',
  category: 'table',
  mkey: 'seq-num',
  mkey_type: 'integer',
  access_group: 'netgrp',
  children: { 'seq-num': { type: 'integer' } },
};
const envelope = (results: unknown, release: object = R72) => ({
  http_method: 'GET',
  results,
  status: 'success',
  http_status: 200,
  ...release,
});

const made: string[] = [];
after(() => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

/** A cache folder of its own, removed after the suite. */
function withCache(run: (env: NodeJS.ProcessEnv) => Promise<void>): Promise<void> {
  const cache = mkdtempSync(join(tmpdir(), 'cmdb-schema-cache-'));
  made.push(cache);
  return run({ XDG_CACHE_HOME: cache });
}

/** mockDevice, its profile folder removed after the suite. */
function device(handler: Parameters<typeof mockDevice>[0], env: NodeJS.ProcessEnv) {
  const mocked = mockDevice(handler, { env });
  made.push(mocked.env.CMDB_CONFIG_DIR!);
  return mocked;
}

/** A device of release 7.2.5 that refuses the whole tree and answers one table's schema. */
function refusingTree(req: Sent) {
  if (req.path === '/api/v2/cmdb?action=schema')
    return { status: 403, body: { status: 'error', http_status: 403, error: -14, ...R72 } };
  if (req.path === '/api/v2/cmdb/router/policy-x?action=schema') return { status: 200, body: envelope(POLICY) };
  if (req.path.includes('action=schema'))
    return { status: 404, body: { status: 'error', http_status: 404, error: -3, ...R72 } };
  return { status: 200, body: envelope([]) };
}

test('a device of release 6.4.14 gets the shipped catalogue, with no request and nothing written', () =>
  withCache(async (cache) => {
    writeHostRelease(cache, DEVICE, { version: 'v6.4.14', build: 2093 });
    const { ctx, sent } = device(() => ({ status: 200, body: envelope([]) }), cache);
    assert.equal(await ctx.device().catalogue(), SHIPPED_CATALOGUE);
    await assert.rejects(
      resolveTable(await ctx.device().catalogue(), 'router/policy-x', { force: false, say: ctx.out }),
      /router\/policy-x is not a table of the 6\.4\.14 catalogue$/,
    );
    await ctx.close();
    assert.deepEqual(sent, []);
  }));

test('a tree refused (403): each table is read on first use and added to the cache, which later runs use', () =>
  withCache(async (cache) => {
    writeHostRelease(cache, DEVICE, R72);
    const first = device(refusingTree, cache);
    const table = await resolveTable(await first.ctx.device().catalogue(), 'router/policy-x', {
      force: false,
      say: first.ctx.out,
    });
    assert.deepEqual([table.known, table.key, table.keyType, table.group], [true, 'seq-num', 'integer', 'netgrp']);
    assert.deepEqual(
      first.sent.map((r) => r.path),
      ['/api/v2/cmdb?action=schema', '/api/v2/cmdb/router/policy-x?action=schema'],
    );
    await first.ctx.close();
    const cached = readSchemaCache(cache, R72)!;
    assert.deepEqual([cached.complete, cached.tables.map((t) => `${t.path}/${t.name}`)], [false, ['router/policy-x']]);

    const second = device(refusingTree, cache);
    const catalogue = await second.ctx.device().catalogue();
    assert.equal(catalogue.release, '7.2.5');
    const line = { force: false, say: second.ctx.out };
    assert.equal((await resolveTable(catalogue, 'router/policy-x', line)).keyType, 'integer');
    assert.equal(second.sent.length, 0);
    await assert.rejects(
      resolveTable(catalogue, 'router/none', line),
      /router\/none is not a table of the device's schema \(release 7\.2\.5\)/,
    );
    assert.deepEqual(
      second.sent.map((r) => r.path),
      ['/api/v2/cmdb/router/none?action=schema'],
    );
    await second.ctx.close();
  }));

test('the release the answers carry is remembered when it calls for another catalogue (an upgrade)', () =>
  withCache(async (cache) => {
    writeHostRelease(cache, DEVICE, R72);
    const R74 = { version: 'v7.4.1', build: 2463, serial: 'FGVM72TEST000001' };
    const tree = envelope([{ path: 'router', name: 'policy-x', schema: POLICY }], R74);
    const { ctx } = device(
      (req) => ({ status: 200, body: req.path.includes('action=schema') ? tree : envelope([], R74) }),
      cache,
    );
    await (await ctx.device().client()).request({ method: 'GET', tablePath: 'router/policy-x' });
    await ctx.close();
    assert.deepEqual(readHostRelease(cache, DEVICE), R74);
  }));

test('a device of unknown release that refuses the tree keeps the shipped catalogue and writes no cache', () =>
  withCache(async (cache) => {
    const { ctx, sent } = device(
      () => ({ status: 400, body: { status: 'error', http_status: 400, error: -50 } }),
      cache,
    );
    const catalogue = await catalogueFor(ctx.device(), { refresh: true });
    assert.equal(catalogue.shipped, true);
    assert.deepEqual(
      sent.map((r) => r.path),
      ['/api/v2/cmdb?action=schema'],
    );
    await ctx.close();
    assert.ok(!existsSync(join(cache.XDG_CACHE_HOME!, 'cmdb', 'schema')));
  }));
