import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, describe, it } from 'node:test';
import type { EmulatorOptions, RunningEmulator } from '../../src/emulator/index.js';
import { call, CMDB, get, PASSWORD, start, TOKEN } from './helpers.js';

const started: RunningEmulator[] = [];
async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const emu = await start(options);
  started.push(emu);
  return emu;
}
after(() => Promise.all(started.map((emu) => emu.close())));

/** A browser-like client: keeps the cookies the device sets. */
class Session {
  readonly cookies = new Map<string, string>();
  constructor(private readonly emu: RunningEmulator) {}

  private keep(response: Response): void {
    for (const line of response.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const name = pair.slice(0, pair.indexOf('='));
      if (attributes.some((a) => /expires=thu, 01 jan 1970/i.test(a.trim()))) this.cookies.delete(name);
      else this.cookies.set(name, pair.slice(pair.indexOf('=') + 1));
    }
  }

  get cookieHeader(): string {
    return [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
  }

  get csrf(): string | undefined {
    const entry = [...this.cookies].find(([name]) => name.startsWith('ccsrftoken'));
    return entry?.[1].replace(/^"|"$/g, '');
  }

  async form(
    path: string,
    fields: Record<string, string>,
  ): Promise<{ status: number; text: string; type: string | null; setCookies: string[] }> {
    const response = await fetch(this.emu.url + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', Cookie: this.cookieHeader },
      body: new URLSearchParams(fields).toString(),
    });
    this.keep(response);
    return {
      status: response.status,
      text: await response.text(),
      type: response.headers.get('content-type'),
      setCookies: response.headers.getSetCookie(),
    };
  }

  login(username: string, password: string, extra: Record<string, string> = {}) {
    return this.form('/logincheck', { username, secretkey: password, ajax: '1', ...extra });
  }

  api(method: string, path: string, options: { body?: unknown; csrf?: boolean } = {}) {
    const headers: Record<string, string> = { Cookie: this.cookieHeader };
    if (options.csrf !== false && this.csrf) headers['X-CSRFTOKEN'] = this.csrf;
    return call(this.emu, method, path, { body: options.body, headers, token: null });
  }
}

const ACL = `${CMDB}/router/access-list`;

describe('session login', () => {
  it("answers '1' with the cookies a 6.4 device sets, and the session reads", async () => {
    const emu = await emulator();
    const session = new Session(emu);
    const answer = await session.login('admin', PASSWORD);
    assert.equal(answer.status, 200);
    assert.match(answer.type ?? '', /text\/html/);
    assert.equal(answer.text[0], '1');
    // PROTOCOL.md's captured answer: APSCOOKIE_<n>, ccsrftoken_<n>, ccsrftoken (quoted values), then the expired rl.
    const [apscookie, numbered, plain, rl, ...rest] = answer.setCookies;
    assert.deepEqual(rest, []);
    const n = /^APSCOOKIE_(\d+)="[^"]+"; path=\/; HttpOnly$/.exec(apscookie)?.[1];
    assert.ok(n, apscookie);
    assert.match(numbered, new RegExp(`^ccsrftoken_${n}="[0-9a-f]+"; path=/$`));
    assert.equal(plain, `ccsrftoken=${numbered.slice(numbered.indexOf('=') + 1)}`);
    assert.equal(rl, 'rl=;expires=Thu, 01 Jan 1970 00:00:01 GMT;path=/');
    assert.deepEqual([...session.cookies.keys()].sort(), [`APSCOOKIE_${n}`, 'ccsrftoken', `ccsrftoken_${n}`].sort());
    assert.equal((await session.api('GET', ACL)).status, 200);
  });

  it('sets a cookie that is neither APSCOOKIE nor ccsrftoken (rl), which the Ansible plugin needs to keep its cookie header', async () => {
    const emu = await emulator();
    const answer = await new Session(emu).login('admin', PASSWORD);
    const others = answer.setCookies
      .map((line) => line.slice(0, line.indexOf('=')))
      .filter((name) => !/^APSCOOKIE_|^ccsrftoken/.test(name));
    assert.deepEqual(others, ['rl']);
  });

  it('takes the session cookie with or without its quotes, and logout expires every cookie it set', async () => {
    const emu = await emulator();
    const session = new Session(emu);
    const answer = await session.login('admin', PASSWORD);
    const [name, value] = answer.setCookies[0].split(';')[0].split('=');
    const bare = await call(emu, 'GET', ACL, {
      token: null,
      headers: { Cookie: `${name}=${value.replace(/"/g, '')}` },
    });
    assert.equal(bare.status, 200);
    const out = await session.form('/logout', {});
    assert.deepEqual(
      out.setCookies.map((line) => line.slice(0, line.indexOf('='))).sort(),
      answer.setCookies
        .slice(0, 3)
        .map((line) => line.slice(0, line.indexOf('=')))
        .sort(),
    );
    assert.ok(out.setCookies.every((line) => /expires=Thu, 01 Jan 1970/.test(line)));
    assert.equal((await call(emu, 'GET', ACL, { token: null, headers: { Cookie: `${name}=${value}` } })).status, 401);
  });

  it('needs X-CSRFTOKEN for writes, not for reads', async () => {
    const emu = await emulator();
    const session = new Session(emu);
    await session.login('admin', PASSWORD);
    const without = await session.api('POST', ACL, { body: { name: 'csrf-test' }, csrf: false });
    assert.equal(without.status, 403);
    assert.equal((await session.api('GET', `${ACL}/csrf-test`)).status, 404);
    const wrong = await call(emu, 'POST', ACL, {
      body: { name: 'csrf-test' },
      token: null,
      headers: { Cookie: session.cookieHeader, 'X-CSRFTOKEN': 'not-the-token' },
    });
    assert.equal(wrong.status, 403);
    const quoted = await call(emu, 'POST', ACL, {
      body: { name: 'csrf-test' },
      token: null,
      headers: { Cookie: session.cookieHeader, 'X-CSRFTOKEN': `"${session.csrf}"` },
    });
    assert.equal(quoted.status, 200, 'the token is taken with the quotes of the cookie value, as devices take it');
    assert.equal((await session.api('POST', ACL, { body: { name: 'csrf-test2' } })).status, 200);
  });

  it("answers '0' to wrong credentials, without a session", async () => {
    const emu = await emulator();
    const session = new Session(emu);
    const answer = await session.login('admin', 'wrong');
    assert.equal(answer.text[0], '0');
    assert.equal((await session.api('GET', ACL)).status, 401);
    assert.equal((await session.login('nobody', PASSWORD)).text[0], '0');
  });

  it("answers '2' for a locked-out administrator", async () => {
    const emu = await emulator({ admins: [{ username: 'locked', password: 'pw', lockedOut: true }] });
    const session = new Session(emu);
    assert.equal((await session.login('locked', 'pw')).text[0], '2');
    assert.equal((await session.api('GET', ACL)).status, 401);
  });

  it("answers '3' until token_code is posted on the same cookies", async () => {
    const emu = await emulator({ admins: [{ username: 'mfa', password: 'pw', twoFactorCode: '123456' }] });
    const session = new Session(emu);
    assert.equal((await session.login('mfa', 'pw')).text[0], '3');
    assert.equal((await session.api('GET', ACL)).status, 401);
    assert.equal(
      (await session.form('/logincheck', { username: 'mfa', secretkey: 'pw', ajax: '1', token_code: '123456' }))
        .text[0],
      '1',
    );
    assert.equal((await session.api('GET', ACL)).status, 200);
  });

  it("refuses a wrong token_code with '0'", async () => {
    const emu = await emulator({ admins: [{ username: 'mfa', password: 'pw', twoFactorCode: '123456' }] });
    const session = new Session(emu);
    await session.login('mfa', 'pw');
    assert.equal((await session.form('/logincheck', { ajax: '1', token_code: '000000' })).text[0], '0');
    assert.equal((await session.api('GET', ACL)).status, 401);
  });

  it("answers '4' when the password must change, and the session cannot be used", async () => {
    const emu = await emulator({ admins: [{ username: 'expired', password: 'pw', mustChangePassword: true }] });
    const session = new Session(emu);
    assert.equal((await session.login('expired', 'pw')).text[0], '4');
    assert.equal((await session.api('GET', ACL)).status, 401);
  });

  it('holds the session until the login banner is accepted', async () => {
    const emu = await emulator({ disclaimer: true });
    const session = new Session(emu);
    const answer = await session.login('admin', PASSWORD);
    assert.match(answer.text, /\/logindisclaimer/);
    assert.equal((await session.api('GET', ACL)).status, 401);
    const accepted = await session.form('/logindisclaimer', { confirm: '1', ajax: '1' });
    assert.equal(accepted.status, 200);
    assert.equal((await session.api('GET', ACL)).status, 200);
  });

  it('ends the session on a declined banner', async () => {
    const emu = await emulator({ disclaimer: true });
    const session = new Session(emu);
    await session.login('admin', PASSWORD);
    await session.form('/logindisclaimer', { confirm: '0', ajax: '1' });
    assert.equal((await session.api('GET', ACL)).status, 401);
  });

  it('ends the session on logout', async () => {
    const emu = await emulator();
    const session = new Session(emu);
    await session.login('admin', PASSWORD);
    const cookies = session.cookieHeader;
    assert.equal((await session.form('/logout', {})).status, 200);
    const reply = await call(emu, 'GET', ACL, { token: null, headers: { Cookie: cookies } });
    assert.equal(reply.status, 401);
  });

  it('expires sessions on demand and after the idle time', async () => {
    const emu = await emulator({ sessionTtlSeconds: 1 });
    const session = new Session(emu);
    await session.login('admin', PASSWORD);
    emu.expireSessions();
    assert.equal((await session.api('GET', ACL)).status, 401);
    await session.login('admin', PASSWORD);
    assert.equal((await session.api('GET', ACL)).status, 200);
    await sleep(1100);
    assert.equal((await session.api('GET', ACL)).status, 401);
  });
});

describe('API tokens and refusals', () => {
  it('accepts a bearer token for reads and writes, without CSRF', async () => {
    const emu = await emulator();
    assert.equal((await get(emu, ACL)).status, 200);
    assert.equal((await call(emu, 'POST', ACL, { body: { name: 'by-token' } })).status, 200);
  });

  it('takes the token in the access_token query parameter too, as 6.4 does', async () => {
    const emu = await emulator();
    assert.equal((await get(emu, `${ACL}?access_token=${TOKEN}`, { token: null })).status, 200);
    assert.equal((await get(emu, `${ACL}?access_token=wrong`, { token: null })).status, 401);
  });

  it('answers 401 with an HTML body without credentials and with a wrong token', async () => {
    const emu = await emulator();
    for (const [path, token] of [
      [ACL, null],
      [ACL, 'wrong-token'],
    ] as const) {
      const reply = await get(emu, path, { token });
      assert.equal(reply.status, 401, `${path} ${token}`);
      assert.match(reply.headers.get('content-type') ?? '', /text\/html/);
      assert.equal(reply.json, undefined);
    }
  });

  it('blocks a source with 429 after too many failed logins, for logins and API calls', async () => {
    const emu = await emulator({ maxFailedLogins: 3, blockSeconds: 60 });
    const session = new Session(emu);
    for (let i = 0; i < 3; i++) assert.equal((await session.login('admin', `wrong${i}`)).text[0], '0');
    const blocked = await session.login('admin', PASSWORD);
    assert.equal(blocked.status, 429);
    assert.match(blocked.type ?? '', /text\/html/);
    const api = await get(emu, ACL);
    assert.equal(api.status, 429);
    assert.ok(Number(api.headers.get('retry-after')) > 0);
  });

  it('lifts the block after blockSeconds', async () => {
    const emu = await emulator({ maxFailedLogins: 2, blockSeconds: 1 });
    await get(emu, ACL, { token: 'bad1' });
    await get(emu, ACL, { token: 'bad2' });
    assert.equal((await get(emu, ACL)).status, 429);
    await sleep(1100);
    assert.equal((await get(emu, ACL)).status, 200);
  });

  it('answers the system status monitor to an authenticated caller only', async () => {
    const emu = await emulator({ hostname: 'lab-fw' });
    const reply = await get(emu, '/api/v2/monitor/system/status');
    assert.equal(reply.status, 200);
    assert.equal(reply.json.results.hostname, 'lab-fw');
    assert.equal(reply.json.results.model, 'CMDB-VM64');
    assert.deepEqual([reply.json.serial, reply.json.version, reply.json.build], ['FGVMEMU000000001', 'v6.4.14', 2093]);
    assert.equal((await get(emu, '/api/v2/monitor/system/status', { token: null })).status, 401);
    assert.equal((await get(emu, '/api/v2/monitor/system/unknown')).status, 404);
  });

  it('gives the default admin and token every group and VDOM', async () => {
    const emu = await emulator({ admins: undefined, tokens: undefined });
    assert.equal(emu.username, 'admin');
    assert.ok(emu.password.length >= 12);
    assert.match(emu.token, /^[a-z0-9]{30}$/);
    const reply = await get(emu, `${CMDB}/system.3g-modem/custom?vdom=*`, { token: emu.token });
    assert.equal(reply.status, 200);
    const session = new Session(emu);
    assert.equal((await session.login(emu.username, emu.password)).text[0], '1');
  });
});
