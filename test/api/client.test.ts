import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MockAgent } from 'undici';
import { CmdbClient, type Exchange } from '../../src/api/client.js';
import { TokenAuth } from '../../src/api/auth.js';
import { ApiError, ConnectionError, RequestError } from '../../src/api/errors.js';
import { describeError } from '../../src/run/hints.js';

const BASE = 'https://fw.example';
const json = { headers: { 'content-type': 'application/json' } };
const html = { headers: { 'content-type': 'text/html' } };

function setup(onExchange?: (e: Exchange) => void) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(BASE);
  const client = new CmdbClient({
    baseUrl: 'fw.example',
    auth: new TokenAuth('s3cr3t-token'),
    dispatcher: agent,
    onExchange,
  });
  return { agent, pool, client };
}

test('sends the token as a Bearer header and unwraps a list envelope', async () => {
  const { pool, client } = setup();
  let seen: Record<string, string> = {};
  pool
    .intercept({
      path: '/api/v2/cmdb/firewall.ipmacbinding/table?vdom=root',
      method: 'GET',
      headers: (h) => ((seen = h as Record<string, string>), true),
    })
    .reply(
      200,
      { http_method: 'GET', results: [{ 'seq-num': 1 }], vdom: 'root', status: 'success', http_status: 200 },
      json,
    );
  const res = await client.request({
    method: 'GET',
    tablePath: 'firewall.ipmacbinding/table',
    query: { vdom: ['root'] },
  });
  assert.equal(seen.authorization, 'Bearer s3cr3t-token');
  assert.equal(res.multiVdom, false);
  assert.deepEqual(res.envelopes[0].results, [{ 'seq-num': 1 }]);
});

test('a multi-VDOM answer is an array of envelopes', async () => {
  const { pool, client } = setup();
  pool.intercept({ path: '/api/v2/cmdb/router/access-list?vdom=*', method: 'GET' }).reply(
    200,
    [
      { results: [{ name: 'a' }], vdom: 'root', status: 'success' },
      { results: [], vdom: 'dmz', status: 'success' },
    ],
    json,
  );
  const res = await client.request({ method: 'GET', tablePath: 'router/access-list', query: { vdom: ['*'] } });
  assert.equal(res.multiVdom, true);
  assert.deepEqual(
    res.envelopes.map((e) => e.vdom),
    ['root', 'dmz'],
  );
});

test('a JSON body is sent with its content type, key percent-encoded in the path', async () => {
  const { pool, client } = setup();
  let body = '';
  let type = '';
  pool
    .intercept({
      path: '/api/v2/cmdb/router/access-list/10.0.0.0%2F8',
      method: 'PUT',
      body: (b) => ((body = b), true),
      headers: (h) => ((type = (h as Record<string, string>)['content-type']), true),
    })
    .reply(200, { status: 'success', mkey: '10.0.0.0/8', revision: 'r2' }, json);
  await client.request({ method: 'PUT', tablePath: 'router/access-list', mkey: '10.0.0.0/8', body: { comments: 'x' } });
  assert.equal(body, '{"comments":"x"}');
  assert.equal(type, 'application/json');
});

test('never sends a DELETE without a key', async () => {
  const { client, agent } = setup();
  await assert.rejects(
    client.request({ method: 'DELETE', tablePath: 'dlp/filepattern' }),
    (e: unknown) => e instanceof RequestError && describeError(e).exit === 2,
  );
  assert.equal(agent.pendingInterceptors().length, 0);
});

const statuses: [number, number, number | null][] = [
  [400, 7, null],
  [401, 4, null],
  [403, 5, null],
  [404, 6, -3],
  [405, 7, null],
  [413, 7, null],
  [424, 7, -651],
  [429, 8, null],
  [500, 9, null],
  [503, 9, null],
];

for (const [status, exit, code] of statuses) {
  test(`HTTP ${status} with a JSON body exits ${exit}`, async () => {
    const { pool, client } = setup();
    // A 429 that asks for a long wait is not tried again (a short one is: test/e2e/hostile).
    const headers = status === 429 ? { headers: { ...json.headers, 'retry-after': '120' } } : json;
    pool
      .intercept({ path: '/api/v2/cmdb/dlp/filepattern/7', method: 'GET' })
      .reply(status, { status: 'error', http_status: status, error: code, cli_error: 'the device says no' }, headers);
    const err = await client.request({ method: 'GET', tablePath: 'dlp/filepattern', mkey: 7, group: 'utmgrp' }).then(
      () => null,
      (e: unknown) => e,
    );
    assert.ok(err instanceof ApiError);
    assert.equal(err.status, status);
    assert.equal(err.code, code);
    assert.equal(err.cliError, 'the device says no');
    const shown = describeError(err);
    assert.equal(shown.exit, exit);
    assert.match(shown.message, status === 429 ? /blocked/ : /dlp\/filepattern/);
    assert.ok(shown.hint);
  });

  // A 404 that is not the device's JSON is someone else answering (exit 9, test/e2e/reported.test.ts).
  if (status !== 404)
    test(`HTTP ${status} with an HTML body exits ${exit} without crashing`, async () => {
      const { pool, client } = setup();
      pool
        .intercept({ path: '/api/v2/cmdb/dlp/filepattern', method: 'GET' })
        .reply(
          status,
          '<html><body>Error</body></html>',
          status === 429 ? { headers: { ...html.headers, 'retry-after': '120' } } : html,
        );
      const err = await client.request({ method: 'GET', tablePath: 'dlp/filepattern' }).then(
        () => null,
        (e: unknown) => e,
      );
      assert.ok(err instanceof ApiError);
      assert.equal(describeError(err).exit, exit);
      assert.equal(err.cliError, null);
    });
}

test('an empty error body does not crash', async () => {
  const { pool, client } = setup();
  pool.intercept({ path: '/api/v2/cmdb/dlp/filepattern', method: 'GET' }).reply(500, '');
  await assert.rejects(
    client.request({ method: 'GET', tablePath: 'dlp/filepattern' }),
    (e: unknown) => e instanceof ApiError && describeError(e).exit === 9,
  );
});

test('the body decides over the status: a duplicate sent as 500 exits 7 with the key in the message', async () => {
  const { pool, client } = setup();
  pool
    .intercept({ path: '/api/v2/cmdb/dlp/filepattern?vdom=root', method: 'POST' })
    .reply(500, { status: 'error', http_status: 500, error: -5, vdom: 'root' }, json);
  const err = (await client
    .request({ method: 'POST', tablePath: 'dlp/filepattern', query: { vdom: ['root'] }, body: { id: 7 } })
    .catch((e: unknown) => e)) as ApiError;
  const shown = describeError(err);
  assert.equal(shown.exit, 7);
  assert.match(shown.message, /already exists in vdom root/);
  assert.match(shown.hint ?? '', /update/);
});

test('a 403 names the access group the table needs', async () => {
  const { pool, client } = setup();
  pool
    .intercept({ path: '/api/v2/cmdb/log.disk/setting', method: 'GET' })
    .reply(403, { status: 'error', http_status: 403 }, json);
  const err = (await client
    .request({ method: 'GET', tablePath: 'log.disk/setting', group: 'loggrp' })
    .catch((e: unknown) => e)) as ApiError;
  assert.equal(describeError(err).exit, 5);
  assert.match(describeError(err).hint ?? '', /'loggrp'/);
});

test('a status 200 envelope with status error inside a multi-VDOM answer is an error for that VDOM', async () => {
  const { pool, client } = setup();
  pool.intercept({ path: '/api/v2/cmdb/router/access-list?vdom=root%2Cdmz', method: 'GET' }).reply(
    200,
    [
      { results: [], vdom: 'root', status: 'success' },
      { vdom: 'dmz', status: 'error', http_status: 403, error: -37 },
    ],
    json,
  );
  const err = (await client
    .request({ method: 'GET', tablePath: 'router/access-list', query: { vdom: ['root', 'dmz'] } })
    .catch((e: unknown) => e)) as ApiError;
  assert.equal(describeError(err).exit, 5);
  assert.match(describeError(err).message, /vdom dmz/);
});

test('a 401 is retried once when the authenticator obtains fresh credentials', async () => {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(BASE);
  let refreshed = 0;
  const client = new CmdbClient({
    baseUrl: BASE,
    dispatcher: agent,
    auth: {
      kind: 'session',
      headers: async () => ({ cookie: refreshed ? 'APSCOOKIE_1=new' : 'APSCOOKIE_1=old' }),
      refresh: async () => (++refreshed, true),
    },
  });
  pool
    .intercept({ path: '/api/v2/cmdb/log.disk/setting', method: 'GET', headers: { cookie: 'APSCOOKIE_1=old' } })
    .reply(401, '<html>login</html>', html);
  pool
    .intercept({ path: '/api/v2/cmdb/log.disk/setting', method: 'GET', headers: { cookie: 'APSCOOKIE_1=new' } })
    .reply(200, { status: 'success', results: { status: 'enable' } }, json);
  const res = await client.request({ method: 'GET', tablePath: 'log.disk/setting' });
  assert.equal(refreshed, 1);
  assert.deepEqual(res.envelopes[0].results, { status: 'enable' });
});

test('a network failure is a ConnectionError (exit 3)', async () => {
  const { pool, client } = setup();
  pool
    .intercept({ path: '/api/v2/cmdb/log.disk/setting', method: 'GET' })
    .replyWithError(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  await assert.rejects(
    client.request({ method: 'GET', tablePath: 'log.disk/setting' }),
    (e: unknown) =>
      e instanceof ConnectionError && describeError(e).exit === 3 && /refused/.test(describeError(e).message),
  );
});

test('--verbose exchanges never show the token, cookies or the CSRF token', async () => {
  const seen: Exchange[] = [];
  const { pool, client } = setup((e) => seen.push(e));
  pool
    .intercept({ path: '/api/v2/cmdb/log.disk/setting', method: 'GET' })
    .reply(
      200,
      { status: 'success', results: {} },
      { headers: { 'content-type': 'application/json', 'set-cookie': 'APSCOOKIE_9=sessionvalue; path=/' } },
    );
  await client.request({
    method: 'GET',
    tablePath: 'log.disk/setting',
    headers: { cookie: 'APSCOOKIE_9=sessionvalue; ccsrftoken=csrfvalue', 'x-csrftoken': 'csrfvalue' },
  });
  const text = JSON.stringify(seen);
  assert.equal(seen.length, 1);
  for (const secret of ['s3cr3t-token', 'sessionvalue', 'csrfvalue'])
    assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
  assert.match(text, /Bearer <redacted>/);
  assert.match(text, /APSCOOKIE_9=<redacted>/);
});
