import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MockAgent } from 'undici';
import { CmdbClient, type Exchange } from '../../src/api/client.js';
import {
  parseSession,
  serializeSession,
  SessionAuth,
  type SessionOptions,
  type SessionState,
} from '../../src/api/session.js';
import { LoginError } from '../../src/api/errors.js';
import { describeError } from '../../src/run/hints.js';
import { EXIT } from '../../src/errors.js';

const BASE = 'https://fw.example';
const PASSWORD = 'pa ss&w=rd';
const json = { headers: { 'content-type': 'application/json' } };
const LIST = '/api/v2/cmdb/firewall.ipmacbinding/table';
const OK = { results: [], status: 'success', http_status: 200 };

interface Seen {
  method: string;
  path: string;
  body: string;
  headers: Record<string, string>;
}

/** A MockAgent device; every request it receives is recorded in `seen`. */
function setup(options: Partial<SessionOptions> = {}, onExchange?: (e: Exchange) => void) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  const pool = agent.get(BASE);
  const seen: Seen[] = [];
  const reply = (
    method: string,
    path: string,
    status: number,
    data: string | object,
    options: object = {},
    times = 1,
  ) =>
    pool
      .intercept({ method, path })
      .reply(
        status,
        (opts) => {
          const h = opts.headers as Record<string, string> | Headers | undefined;
          const headers =
            h && typeof (h as Headers).entries === 'function'
              ? Object.fromEntries((h as Headers).entries())
              : ((h ?? {}) as Record<string, string>);
          seen.push({ method, path, body: typeof opts.body === 'string' ? opts.body : '', headers });
          return data;
        },
        options,
      )
      .times(times);
  const logins: SessionState[] = [];
  const session = new SessionAuth({
    username: 'admin',
    password: async () => PASSWORD,
    onLogin: async (s) => void logins.push(s),
    ...options,
  });
  const client = new CmdbClient({ baseUrl: BASE, auth: session, dispatcher: agent, onExchange });
  const loginchecks = () => seen.filter((s) => s.path === '/logincheck');
  return { agent, seen, reply, session, client, logins, loginchecks };
}

function cookies(port = 443, csrf = 'c5rf') {
  return {
    headers: {
      'content-type': 'text/html',
      'set-cookie': [`APSCOOKIE_123=sess-id; Path=/; HttpOnly`, `ccsrftoken_${port}="${csrf}"; Path=/`],
    },
  };
}

test('logs in with a form post, then sends the cookies and the CSRF token without its quotes', async () => {
  const { reply, seen, client, logins, session } = setup();
  reply('POST', '/logincheck', 200, '1document.location="/ng/";', cookies());
  reply('POST', LIST, 200, { status: 'success', mkey: 1 }, json);
  await client.request({ method: 'POST', tablePath: 'firewall.ipmacbinding/table', body: { 'seq-num': 1 } });
  const [login, write] = seen;
  assert.equal(login.headers['content-type'], 'application/x-www-form-urlencoded');
  assert.deepEqual(Object.fromEntries(new URLSearchParams(login.body)), {
    username: 'admin',
    secretkey: PASSWORD,
    ajax: '1',
  });
  assert.equal(write.headers.cookie, 'APSCOOKIE_123=sess-id; ccsrftoken_443="c5rf"');
  assert.equal(write.headers['x-csrftoken'], 'c5rf');
  assert.equal(logins.length, 1);
  assert.deepEqual(session.exportState(), { cookies: { APSCOOKIE_123: 'sess-id', ccsrftoken_443: '"c5rf"' } });
});

test("takes a 6.4 device's login cookies as captured: the last unexpired value of each name, the expired rl dropped", async () => {
  const { reply, seen, client, session } = setup();
  const n = '10593376298575695335';
  const captured = [
    `APSCOOKIE_${n}="Era%3D1%26Payload%3Dabc"; path=/; HttpOnly`,
    `ccsrftoken_${n}="1FBF5FBBE218A66091248EFB8BEAC2"; path=/`,
    'ccsrftoken="1FBF5FBBE218A66091248EFB8BEAC2"; path=/',
    'rl=;expires=Thu, 01 Jan 1970 00:00:01 GMT;path=/',
  ];
  reply('POST', '/logincheck', 200, '1document.location="/ng/";', {
    headers: { 'content-type': 'text/html', 'set-cookie': captured },
  });
  reply('POST', LIST, 200, { status: 'success', mkey: 1 }, json);
  await client.request({ method: 'POST', tablePath: 'firewall.ipmacbinding/table', body: { 'seq-num': 1 } });
  const write = seen[1];
  assert.equal(
    write.headers.cookie,
    `APSCOOKIE_${n}="Era%3D1%26Payload%3Dabc"; ccsrftoken_${n}="1FBF5FBBE218A66091248EFB8BEAC2"; ccsrftoken="1FBF5FBBE218A66091248EFB8BEAC2"`,
  );
  assert.equal(write.headers['x-csrftoken'], '1FBF5FBBE218A66091248EFB8BEAC2');
  assert.deepEqual(Object.keys(session.exportState()!.cookies), [`APSCOOKIE_${n}`, `ccsrftoken_${n}`, 'ccsrftoken']);
});

test('finds the CSRF cookie by prefix: ccsrf_token_<port>_<hash> of later firmware', async () => {
  const { reply, seen, client } = setup();
  reply('POST', '/logincheck', 200, '1', {
    headers: { 'set-cookie': ['APSCOOKIE_9="x"', 'ccsrf_token_8443_ab12="tok"'] },
  });
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.equal(seen[1].headers['x-csrftoken'], 'tok');
});

test('a saved session is reused: no login at all', async () => {
  const { reply, seen, client, loginchecks } = setup({
    state: { cookies: { APSCOOKIE_1: 'saved', ccsrftoken: '"t"' } },
  });
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.equal(loginchecks().length, 0);
  assert.equal(seen[0].headers.cookie, 'APSCOOKIE_1=saved; ccsrftoken="t"');
  assert.equal(seen[0].headers['x-csrftoken'], 't');
});

test('an expired session (401) logs in again once with the stored password, retries once, and reports the new state', async () => {
  const { reply, seen, client, logins, loginchecks } = setup({ state: { cookies: { APSCOOKIE_1: 'old' } } });
  reply('GET', LIST, 401, '<html>401</html>', { headers: { 'content-type': 'text/html' } });
  reply('POST', '/logincheck', 200, '1', cookies(443, 'new'));
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.equal(loginchecks().length, 1);
  assert.equal(seen[2].headers.cookie, 'APSCOOKIE_123=sess-id; ccsrftoken_443="new"');
  assert.deepEqual(logins, [{ cookies: { APSCOOKIE_123: 'sess-id', ccsrftoken_443: '"new"' } }]);
});

test('a 401 after the re-login is the end: one re-login per run', async () => {
  const { reply, client, loginchecks } = setup({ state: { cookies: { APSCOOKIE_1: 'old' } } });
  reply('GET', LIST, 401, '', {}, 4);
  reply('POST', '/logincheck', 200, '1', cookies(), 2);
  await assert.rejects(
    client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) => describeError(e).exit === EXIT.AUTH,
  );
  await assert.rejects(
    client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) => describeError(e).exit === EXIT.AUTH,
  );
  assert.equal(loginchecks().length, 1);
});

const refusals: [string, string, RegExp][] = [
  ['0', 'wrong credentials', /refused the login of admin: wrong user name or password/],
  ['2', 'locked out', /admin is locked out/],
  ['4', 'password change required', /requires a new password for admin/],
];
for (const [code, what, message] of refusals) {
  test(`login answer ${code} (${what}): exit 4 with a clear message, and never tried again`, async () => {
    const { reply, client, loginchecks, logins } = setup({ state: { cookies: { APSCOOKIE_1: 'old' } } });
    reply('GET', LIST, 401, '', {}, 2);
    reply(
      'POST',
      '/logincheck',
      200,
      `${code}document.location="/login";`,
      { headers: { 'content-type': 'text/html' } },
      2,
    );
    for (let i = 0; i < 2; i++) {
      await assert.rejects(
        client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
        (e: unknown) =>
          e instanceof LoginError && describeError(e).exit === EXIT.AUTH && message.test(describeError(e).message),
      );
    }
    assert.equal(loginchecks().length, 1);
    assert.equal(logins.length, 0);
  });
}

test('answer 3: the second factor is posted with token_code on the same cookies', async () => {
  const { reply, seen, client } = setup({ tokenCode: async () => '123456' });
  reply('POST', '/logincheck', 200, '3<html>token_code</html>', {
    headers: { 'set-cookie': 'APSCOOKIE_5=pending; Path=/' },
  });
  reply('POST', '/logincheck', 200, '1', cookies());
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.equal(new URLSearchParams(seen[1].body).get('token_code'), '123456');
  assert.equal(seen[1].headers.cookie, 'APSCOOKIE_5=pending');
});

test('answer 3 without a way to get a code: exit 4 naming --token-code; a refused code is not retried', async () => {
  const none = setup({ tokenCode: async () => null });
  none.reply('POST', '/logincheck', 200, '3', {});
  await assert.rejects(
    none.client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) =>
      describeError(e).exit === EXIT.AUTH &&
      /second factor/.test(describeError(e).message) &&
      /--token-code/.test(describeError(e).hint ?? ''),
  );

  const wrong = setup({ tokenCode: async () => '000000' });
  wrong.reply('POST', '/logincheck', 200, '3', {});
  wrong.reply('POST', '/logincheck', 200, '0', {});
  await assert.rejects(
    wrong.client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) => /refused the second-factor code/.test(describeError(e).message),
  );
  await assert.rejects(
    wrong.client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) => /refused the second-factor code/.test(describeError(e).message),
  );
  assert.equal(wrong.loginchecks().length, 2);
});

test('a login banner is accepted with POST /logindisclaimer confirm=1 when allowed', async () => {
  const { reply, seen, client } = setup({ acceptDisclaimer: async () => true });
  reply('POST', '/logincheck', 200, '1document.location="/logindisclaimer";', cookies());
  reply('POST', '/logindisclaimer', 200, '1', {});
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.deepEqual(Object.fromEntries(new URLSearchParams(seen[1].body)), { confirm: '1', ajax: '1' });
  assert.equal(seen[1].headers['x-csrftoken'], 'c5rf');
});

test('a login banner that is not accepted: exit 4 naming the banner, nothing accepted', async () => {
  const { reply, seen, client } = setup();
  reply('POST', '/logincheck', 200, '1document.location="/logindisclaimer";', cookies());
  await assert.rejects(
    client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
    (e: unknown) =>
      describeError(e).exit === EXIT.AUTH &&
      /login banner/.test(describeError(e).message) &&
      /CMDB_ACCEPT_DISCLAIMER/.test(describeError(e).hint ?? ''),
  );
  assert.equal(seen.filter((s) => s.path === '/logindisclaimer').length, 0);
});

test('429 on the login: exit 8 with how long to wait, and never tried again', async () => {
  const { reply, client, loginchecks } = setup();
  reply(
    'POST',
    '/logincheck',
    429,
    '<html>Too many</html>',
    { headers: { 'content-type': 'text/html', 'retry-after': '60' } },
    2,
  );
  for (let i = 0; i < 2; i++) {
    await assert.rejects(
      client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' }),
      (e: unknown) =>
        describeError(e).exit === EXIT.BLOCKED && /try again in 60 seconds/.test(describeError(e).message),
    );
  }
  assert.equal(loginchecks().length, 1);
});

test('logout posts /logout with the session and forgets it', async () => {
  const { reply, seen, session, client } = setup({ state: { cookies: { APSCOOKIE_1: 's', ccsrftoken: '"t"' } } });
  reply('POST', '/logout', 200, 'bye', {
    headers: { 'set-cookie': 'APSCOOKIE_1="0%260"; Expires=Thu, 01 Jan 1970 00:00:00 GMT' },
  });
  assert.equal(await session.logout(client), true);
  assert.equal(seen[0].headers.cookie, 'APSCOOKIE_1=s; ccsrftoken="t"');
  assert.equal(seen[0].headers['x-csrftoken'], 't');
  assert.equal(session.exportState(), null);
  assert.equal(await session.logout(client), false);
});

test('cookies the device expires are dropped from the jar', async () => {
  const { reply, session, client } = setup();
  reply('POST', '/logincheck', 200, '1', {
    headers: { 'set-cookie': ['APSCOOKIE_1=a', 'old=x; Max-Age=0', 'ccsrftoken=""'] },
  });
  reply('GET', LIST, 200, OK, json);
  await client.request({ method: 'GET', tablePath: 'firewall.ipmacbinding/table' });
  assert.deepEqual(session.exportState(), { cookies: { APSCOOKIE_1: 'a' } });
});

test('--verbose sees no password, cookie or CSRF token', async () => {
  const exchanges: Exchange[] = [];
  const { reply, client } = setup({}, (e) => exchanges.push(e));
  reply('POST', '/logincheck', 200, '1', cookies(443, 'csrf-secret-value'));
  reply('POST', LIST, 200, { status: 'success' }, json);
  await client.request({ method: 'POST', tablePath: 'firewall.ipmacbinding/table', body: {} });
  const text = JSON.stringify(exchanges);
  assert.match(text, /secretkey=<redacted>/);
  for (const secret of [encodeURIComponent(PASSWORD), 'pa+ss', 'sess-id', 'csrf-secret-value'])
    assert.ok(!text.includes(secret), `${secret} leaked: ${text}`);
});

test('a session survives serialisation; anything unreadable is no session', () => {
  const state = { cookies: { APSCOOKIE_1: 'a', ccsrftoken_443: '"b"' } };
  assert.deepEqual(parseSession(serializeSession(state)), state);
  for (const bad of [null, '', 'not json', '{"v":2,"cookies":{"a":"b"}}', '{"v":1,"cookies":{}}'])
    assert.equal(parseSession(bad), null);
});
