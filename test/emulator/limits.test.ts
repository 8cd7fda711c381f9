import assert from 'node:assert/strict';
import { request } from 'node:http';
import { after, before, describe, it } from 'node:test';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, start, TOKEN } from './helpers.js';

/** POSTs `size` bytes in chunks, without Content-Length, so only counting can catch the size. */
function postChunked(url: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}${CMDB}/ips/custom`,
      { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${TOKEN}` } },
      (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      },
    );
    req.on('error', reject);
    const chunk = 'x'.repeat(256);
    for (let sent = 0; sent < size; sent += chunk.length) req.write(chunk);
    req.end();
  });
}

let small: RunningEmulator;
let standard: RunningEmulator;
before(async () => {
  small = await start({ maxBodyBytes: 1024 });
  standard = await start();
});
after(() => Promise.all([small.close(), standard.close()]));

describe('entity size', () => {
  it('answers 413 to a body over maxBodyBytes and creates nothing', async () => {
    const reply = await call(small, 'POST', `${CMDB}/ips/custom`, {
      body: { tag: 'big', signature: 'x'.repeat(2000) },
    });
    assert.equal(reply.status, 413);
    assert.equal(reply.json.http_status, 413);
    assert.equal((await get(small, `${CMDB}/ips/custom/big`)).status, 404);
  });

  it('counts a chunked body without Content-Length', async () => {
    assert.equal(await postChunked(small.url, 4096), 413);
  });

  it('keeps at most maxBodyBytes of the body', () => {
    const recorded = small.requests.find((r) => r.method === 'POST');
    assert.ok(recorded);
    assert.ok(recorded.body.length <= 1024);
  });

  it('accepts a body just under the limit', async () => {
    const reply = await call(small, 'POST', `${CMDB}/ips/custom`, {
      body: { tag: 'fits', signature: 'x'.repeat(900) },
    });
    assert.equal(reply.status, 200);
  });

  it('answers 413 above 1 MiB by default', async () => {
    const reply = await call(standard, 'POST', `${CMDB}/ips/custom`, {
      body: { tag: 'huge', signature: 'x'.repeat(1024 * 1024 + 1) },
    });
    assert.equal(reply.status, 413);
  });
});

describe('robustness', () => {
  it('answers 404 outside the API and 400 for a broken percent-encoding', async () => {
    assert.equal((await get(standard, '/nothing/here')).status, 404);
    assert.equal((await get(standard, `${CMDB}/router/access-list/%E0%A4%A`)).status, 400);
  });

  it('records every request in order', async () => {
    const before = standard.requests.length;
    await get(standard, `${CMDB}/router/access-list?count=1`);
    await call(standard, 'DELETE', `${CMDB}/router/access-list/deny-all`);
    assert.deepEqual(
      standard.requests
        .slice(before)
        .map((r) => [r.method, r.path, r.query, r.headers.authorization?.startsWith('Bearer ')]),
      [
        ['GET', `${CMDB}/router/access-list`, 'count=1', true],
        ['DELETE', `${CMDB}/router/access-list/deny-all`, '', true],
      ],
    );
  });

  it('serves IPv6 hosts with the address in brackets', async () => {
    const v6 = await start({ host: '::1' });
    try {
      assert.match(v6.url, /^http:\/\/\[::1\]:\d+$/);
      assert.equal((await get(v6, `${CMDB}/router/access-list`)).status, 200);
    } finally {
      await v6.close();
    }
  });
});
