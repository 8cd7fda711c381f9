// CmdbClient.call(): one request on any path under the API root (cmdb api, backups), with the same
// credentials, prefix and error handling as request(); answers that are not JSON kept byte for byte.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MockAgent } from 'undici';
import { CmdbClient } from '../../src/api/client.js';
import { TokenAuth } from '../../src/api/auth.js';
import { ApiError, MalformedAnswerError, RequestError } from '../../src/api/errors.js';

const BASE = 'https://fw.example';

function setup(prefix?: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const client = new CmdbClient({
    baseUrl: 'fw.example',
    prefix,
    auth: new TokenAuth('s3cr3t-token'),
    dispatcher: agent,
  });
  return { pool: agent.get(BASE), client };
}

test('the path under the API root (the prefix without /cmdb), its own query, then the pairs, encoded', async () => {
  const { pool, client } = setup('/proxy/api/v2/cmdb');
  let auth = '';
  pool
    .intercept({
      path: '/proxy/api/v2/monitor/system/status?scope=global&vdom=a%20b',
      method: 'GET',
      headers: (h) => ((auth = (h as Record<string, string>).authorization), true),
    })
    .reply(
      200,
      { results: { hostname: 'fw' }, status: 'success' },
      { headers: { 'content-type': 'application/json' } },
    );
  const res = await client.call({
    method: 'GET',
    path: '/api/v2/monitor/system/status?scope=global',
    query: [['vdom', 'a b']],
  });
  assert.equal(auth, 'Bearer s3cr3t-token');
  assert.deepEqual(res.json?.envelopes[0].results, { hostname: 'fw' });
});

test('an answer that is not JSON comes back byte for byte, invalid UTF-8 included', async () => {
  const { pool, client } = setup();
  const bytes = Buffer.from([0x23, 0x63, 0xff, 0xfe, 0x0a, 0xc3, 0xa9, 0x0a]);
  pool
    .intercept({ path: '/api/v2/monitor/system/config/backup?scope=global', method: 'GET' })
    .reply(200, bytes, { headers: { 'content-type': 'text/plain' } });
  const res = await client.call({ method: 'GET', path: 'monitor/system/config/backup', query: [['scope', 'global']] });
  assert.equal(res.json, null);
  assert.ok(res.bytes.equals(bytes));
});

test('error answers throw as for request(); paths outside the API root are refused before sending', async () => {
  const { pool, client } = setup();
  pool
    .intercept({ path: '/api/v2/monitor/x', method: 'GET' })
    .reply(404, { status: 'error', http_status: 404, error: -3 }, { headers: { 'content-type': 'application/json' } });
  await assert.rejects(
    client.call({ method: 'GET', path: 'monitor/x' }),
    (e: unknown) => e instanceof ApiError && e.status === 404 && e.subject.tablePath === 'monitor/x',
  );
  pool.intercept({ path: '/api/v2/monitor/y', method: 'GET' }).reply(302, '', { headers: { location: '/login' } });
  await assert.rejects(
    client.call({ method: 'GET', path: 'monitor/y' }),
    (e: unknown) => e instanceof MalformedAnswerError && e.malformation === 'redirect',
  );
  for (const path of ['https://evil.example/api/v2/x', '/logincheck', 'monitor/../../logincheck']) {
    await assert.rejects(
      client.call({ method: 'GET', path }),
      (e: unknown) => e instanceof RequestError && e.reason === 'invalid-path',
      path,
    );
  }
});
