// `cmdb export` in-process against a mock device: a full export asks for every table that can be read
// as a whole, no more than --concurrency at once, with a progress line on a terminal's stderr only.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { allTables } from '../../src/catalogue/index.js';
import { mockDevice, runCommand, type Sent } from '../helpers/device.js';

const readable = allTables().filter((t) => t.operations.includes('L') || t.operations.includes('G'));

function answer(req: Sent) {
  const singleton = readable.find((t) => req.path.startsWith(`/api/v2/cmdb/${t.path}?`))?.singleton;
  return {
    status: 200,
    body: { http_method: 'GET', results: singleton ? {} : [], vdom: 'root', status: 'success', http_status: 200 },
  };
}

async function exportAll(tty: boolean, concurrency?: string) {
  const cache = mkdtempSync(join(tmpdir(), 'cmdb-export-'));
  try {
    const device = mockDevice(answer, {
      globals: { output: 'json' },
      tty,
      env: { XDG_CACHE_HOME: cache, HOME: cache },
    });
    try {
      const code = await runCommand(device.ctx, 'export', { tables: [] }, concurrency ? { concurrency } : {});
      return { ...device, code };
    } finally {
      rmSync(device.env.CMDB_CONFIG_DIR, { recursive: true, force: true });
    }
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

test('a full export asks for every readable table once and writes each, empty keyed tables as empty lists', async () => {
  const { code, sent, io } = await exportAll(false);
  assert.equal(code, 0, io.err());
  assert.equal(sent.length, readable.length);
  assert.equal(new Set(sent.map((r) => r.path)).size, readable.length);
  const doc = JSON.parse(io.out()) as { global: Record<string, unknown>; vdoms: { root: Record<string, unknown> } };
  // The global tables once, under `global:`; every other table under its VDOM.
  assert.deepEqual(
    Object.keys(doc.global),
    readable.filter((t) => t.scope === 'global').map((t) => t.path),
  );
  assert.equal(Object.keys(doc.vdoms.root).length + Object.keys(doc.global).length, readable.length);
  assert.deepEqual(doc.vdoms.root['firewall/policy'], []);
  assert.equal(io.err(), '', 'no progress line when stderr is not a terminal');
});

test('on a terminal a progress line counts the tables, and is taken away at the end', async () => {
  const { code, io } = await exportAll(true, '16');
  assert.equal(code, 0, io.err());
  assert.match(io.err(), new RegExp(`fetched 1/${readable.length} tables…`));
  assert.match(io.err(), new RegExp(`fetched ${readable.length}/${readable.length} tables…\\r\\x1b\\[K$`));
});

test('--concurrency is checked before anything is sent', async () => {
  const { code, sent, io } = await exportAll(false, '0');
  assert.equal(code, 2);
  assert.match(io.err(), /invalid --concurrency '0'/);
  assert.equal(sent.length, 0);
});
