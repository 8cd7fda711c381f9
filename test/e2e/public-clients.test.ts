/**
 * The emulator as the public clients of this API drive a 6.4.14 device: the
 * Python libraries (untyped and form-labelled JSON bodies, `{"json": ...}`,
 * cookie jars that keep only the CSRF cookie named `ccsrftoken`), the
 * vendor's Ansible HTTP API plugin (`/api/v2/authentication` first, the whole
 * `Set-Cookie` line echoed as `Cookie`, `access_token` in the query) and
 * plain scripts. `cmdb emulator` runs as its own process, over HTTP and HTTPS;
 * every request is written out here byte for byte, and the answers must look
 * like a device's.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { TLSSocket } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import type { StartLine } from '../../src/emulator/index.js';
import { BIN, isolatedEnv } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: whatever JSON the client parsed, indexed freely by the tests
  json: any;
  /** SHA-256 of the server certificate, lowercase hex without colons (HTTPS only). */
  fingerprint: string | null;
}

interface Send {
  headers?: Record<string, string>;
  body?: string;
}

const dir = tempDir('cmdb-public-clients-');
const children: ChildProcess[] = [];
after(() => {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
});

/** `cmdb emulator -o json` in its own process, as an administrator starts it. */
async function startDevice(args: string[]): Promise<{ child: ChildProcess; line: StartLine }> {
  const child = spawn(process.execPath, [BIN, 'emulator', '-o', 'json', ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: isolatedEnv(),
  });
  children.push(child);
  for await (const text of createInterface({ input: child.stdout! }))
    return { child, line: JSON.parse(text) as StartLine };
  throw new Error('the emulator printed no start line');
}

/** One request on its own connection, with exactly the headers given (no Content-Type unless given). */
function send(base: string, method: string, path: string, options: Send = {}): Promise<Answer> {
  const url = new URL(path, base);
  const body = options.body === undefined ? undefined : Buffer.from(options.body);
  const headers: Record<string, string> = { ...options.headers };
  if (body) headers['Content-Length'] = String(body.length);
  const request = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // Like the Python clients with verify=False; the certificate is checked by fingerprint below.
    const req = request(url, { method, headers, agent: false, rejectUnauthorized: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let json: unknown;
        try {
          json = JSON.parse(text);
        } catch {
          json = undefined;
        }
        const peer = url.protocol === 'https:' ? (res.socket as TLSSocket).getPeerCertificate() : null;
        const fingerprint = peer?.fingerprint256 ? peer.fingerprint256.replace(/:/g, '').toLowerCase() : null;
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json, fingerprint });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

const CMDB = '/api/v2/cmdb';
const ACL = `${CMDB}/router/access-list`;

/** The parts of every device envelope. */
function assertEnvelope(envelope: Record<string, unknown>, method: string, status: number): void {
  assert.equal(envelope.http_method, method);
  assert.equal(envelope.http_status, status);
  assert.equal(envelope.status, status === 200 ? 'success' : 'error');
  assert.equal(envelope.version, 'v6.4.14');
  assert.equal(envelope.build, 2093);
  assert.equal(typeof envelope.serial, 'string');
}

/** Every `Set-Cookie` line of an answer, in order. */
function setCookies(answer: Answer): string[] {
  const header = answer.headers['set-cookie'];
  return Array.isArray(header) ? header : header ? [header] : [];
}

/** A jar that reads every cookie, expired ones included, the last of a name winning (raw-header clients). */
function everyCookie(lines: string[]): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of lines) {
    const pair = line.split(';')[0];
    jar.set(pair.slice(0, pair.indexOf('=')).trim(), pair.slice(pair.indexOf('=') + 1).trim());
  }
  return jar;
}

/** A jar that drops expired cookies, as Python's requests does. */
function liveCookies(lines: string[]): Map<string, string> {
  const jar = new Map<string, string>();
  for (const line of lines) {
    const [pair, ...attributes] = line.split(';');
    const name = pair.slice(0, pair.indexOf('=')).trim();
    const expired = attributes.some((a) => /^\s*expires=/i.test(a) && Date.parse(a.split('=')[1]) < Date.now());
    if (expired) jar.delete(name);
    else jar.set(name, pair.slice(pair.indexOf('=') + 1).trim());
  }
  return jar;
}

const cookieHeader = (jar: Map<string, string>) => [...jar].map(([name, value]) => `${name}=${value}`).join('; ');

for (const scheme of ['http', 'https'] as const) {
  describe(`public clients against cmdb emulator over ${scheme.toUpperCase()}`, { timeout: 60_000 }, () => {
    let device: StartLine;
    let child: ChildProcess;
    const bearer = () => ({ Authorization: `Bearer ${device.token}` });
    const call = (method: string, path: string, options: Send = {}) => send(device.url, method, path, options);
    const withToken = (method: string, path: string, options: Send = {}) =>
      call(method, path, { ...options, headers: { ...bearer(), ...options.headers } });

    before(async () => {
      ({ child, line: device } = await startDevice(
        scheme === 'https'
          ? ['--tls', '--state', join(dir, `${scheme}.json`)]
          : ['--state', join(dir, `${scheme}.json`)],
      ));
    });
    after(async () => {
      child.kill('SIGTERM');
      await once(child, 'exit');
    });

    it('serves the scheme of its start line (HTTPS: the certificate the start line pins)', async () => {
      assert.ok(device.url.startsWith(`${scheme}://`));
      const answer = await withToken('GET', `${CMDB}/log.disk/setting`);
      assert.equal(answer.status, 200);
      assert.equal(answer.fingerprint, device.fingerprint);
    });

    describe('bodies', () => {
      it('takes JSON without Content-Type, as text/plain and labelled as a form', async () => {
        const cases: [string, Record<string, string>][] = [
          ['untyped', {}],
          ['plain', { 'Content-Type': 'text/plain' }],
          ['form-labelled', { 'Content-Type': 'application/x-www-form-urlencoded' }],
        ];
        for (const [name, headers] of cases) {
          const answer = await withToken('POST', ACL, {
            headers,
            body: JSON.stringify({ name: `${scheme}-${name}`, comments: name }),
          });
          assert.equal(answer.status, 200, `${name}: ${answer.text}`);
          assertEnvelope(answer.json, 'POST', 200);
          assert.equal(answer.json.mkey, `${scheme}-${name}`);
          assert.equal(answer.json.revision_changed, true);
          const read = await withToken('GET', `${ACL}/${encodeURIComponent(`${scheme}-${name}`)}`);
          assert.equal(read.json.results[0].comments, name);
        }
      });

      it('takes a body wrapped in one "json" member as the object inside', async () => {
        const answer = await withToken('POST', ACL, {
          body: JSON.stringify({ json: { name: `${scheme}-wrapped`, comments: 'inside' } }),
        });
        assert.equal(answer.status, 200, answer.text);
        assert.equal(answer.json.mkey, `${scheme}-wrapped`);
        const put = await withToken('PUT', `${ACL}/${scheme}-wrapped`, {
          body: JSON.stringify({ json: { comments: 'changed' } }),
        });
        assert.equal(put.status, 200);
        assert.equal((await withToken('GET', `${ACL}/${scheme}-wrapped`)).json.results[0].comments, 'changed');
      });

      it('refuses only a body that is not JSON, with 424', async () => {
        const answer = await withToken('POST', ACL, {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: `name=${scheme}-form`,
        });
        assert.equal(answer.status, 424);
        assertEnvelope(answer.json, 'POST', 424);
        assert.equal((await withToken('GET', `${ACL}/${scheme}-form`)).status, 404);
      });
    });

    describe('integer keys', () => {
      it('numbers a create with key 0 or without its integer key, and says which number in mkey', async () => {
        const table = `${CMDB}/dlp/filepattern`;
        const first = await withToken('POST', table, { body: JSON.stringify({ id: 0, name: `${scheme}-zero` }) });
        assert.equal(first.status, 200, first.text);
        const taken = (await withToken('GET', table)).json.results.map((o: { id: number }) => o.id);
        assert.equal(first.json.mkey, Math.max(...taken));
        const second = await withToken('POST', table, { body: JSON.stringify({ name: `${scheme}-missing` }) });
        assert.equal(second.json.mkey, first.json.mkey + 1);
        const read = await withToken('GET', `${table}/${second.json.mkey}`);
        assert.equal(read.json.results[0].name, `${scheme}-missing`);
        const ipmac = await withToken('POST', `${CMDB}/firewall.ipmacbinding/table`, {
          body: JSON.stringify({ 'seq-num': 0, ip: '10.99.0.1' }),
        });
        assert.equal(typeof ipmac.json.mkey, 'number');
        assert.ok(ipmac.json.mkey > 0);
      });

      it('still refuses a create without the key of a string-keyed table (424)', async () => {
        const answer = await withToken('POST', ACL, { body: JSON.stringify({ comments: 'no name' }) });
        assert.equal(answer.status, 424);
      });
    });

    describe('errors as 6.4 sends them', () => {
      it('a duplicate: HTTP 500, error -5, a cli_error', async () => {
        const answer = await withToken('POST', ACL, { body: JSON.stringify({ name: 'deny-all' }) });
        assert.equal(answer.status, 500);
        assertEnvelope(answer.json, 'POST', 500);
        assert.equal(answer.json.error, -5);
        assert.match(answer.json.cli_error, /duplicate/i);
      });

      it('a value the CLI layer refuses: HTTP 500, error -651, a multi-line cli_error', async () => {
        const answer = await withToken('PUT', `${CMDB}/log.disk/setting`, {
          body: JSON.stringify({ status: 'sometimes' }),
        });
        assert.equal(answer.status, 500);
        assert.equal(answer.json.error, -651);
        const lines = String(answer.json.cli_error).split('\n');
        assert.ok(lines.length >= 3, answer.json.cli_error);
        assert.match(lines[0], /status sometimes/);
        assert.match(answer.json.cli_error, /Return code -651/);
        const range = await withToken('PUT', `${CMDB}/log.disk/setting`, {
          body: JSON.stringify({ 'max-log-file-size': 1000 }),
        });
        assert.deepEqual([range.status, range.json.error], [500, -651]);
        const address = await withToken('POST', `${CMDB}/firewall.ipmacbinding/table`, {
          body: JSON.stringify({ 'seq-num': 777, ip: '10.1.1.300' }),
        });
        assert.deepEqual([address.status, address.json.error], [500, -8]);
      });

      it('a VDOM that does not exist: 403', async () => {
        const answer = await withToken('GET', `${ACL}?vdom=no-such-vdom`);
        assert.equal(answer.status, 403);
        assertEnvelope(answer.json, 'GET', 403);
      });
    });

    describe('VDOMs', () => {
      it('global=1 acts on every VDOM and answers an array of envelopes, like vdom=*', async () => {
        const global = await withToken('GET', `${CMDB}/log.disk/setting?global=1`);
        assert.equal(global.status, 200);
        assert.ok(Array.isArray(global.json));
        assert.deepEqual(
          global.json.map((e: { vdom: string }) => e.vdom),
          device.vdoms,
        );
        const star = await withToken('GET', `${CMDB}/log.disk/setting?vdom=*`);
        assert.deepEqual(
          global.json.map((e: { results: unknown }) => e.results),
          star.json.map((e: { results: unknown }) => e.results),
        );
        const write = await withToken('POST', `${ACL}?global=1`, {
          body: JSON.stringify({ name: `${scheme}-everywhere` }),
        });
        assert.deepEqual(
          write.json.map((e: { http_status: number }) => e.http_status),
          device.vdoms.map(() => 200),
        );
        for (const vdom of device.vdoms)
          assert.equal((await withToken('GET', `${ACL}/${scheme}-everywhere?vdom=${vdom}`)).status, 200);
      });
    });

    describe('sub-table paths', () => {
      it('POST appends an entry, PUT and DELETE change and remove one', async () => {
        const name = `${scheme}-subtable`;
        assert.equal(
          (
            await withToken('POST', ACL, {
              body: JSON.stringify({ name, rule: [{ id: 1, action: 'deny', prefix: '10.0.0.0 255.0.0.0' }] }),
            })
          ).status,
          200,
        );
        const appended = await withToken('POST', `${ACL}/${name}/rule`, {
          body: JSON.stringify({ action: 'permit', prefix: 'any' }),
        });
        assert.equal(appended.status, 200, appended.text);
        assertEnvelope(appended.json, 'POST', 200);
        assert.equal(appended.json.mkey, 2);
        const rules = () =>
          withToken('GET', `${ACL}/${name}`).then((a) =>
            a.json.results[0].rule.map((r: { id: number; action: string }) => [r.id, r.action]),
          );
        assert.deepEqual(await rules(), [
          [1, 'deny'],
          [2, 'permit'],
        ]);
        assert.equal(
          (await withToken('PUT', `${ACL}/${name}/rule/1`, { body: JSON.stringify({ action: 'permit' }) })).status,
          200,
        );
        assert.deepEqual(await rules(), [
          [1, 'permit'],
          [2, 'permit'],
        ]);
        assert.equal((await withToken('DELETE', `${ACL}/${name}/rule/2`)).status, 200);
        assert.deepEqual(await rules(), [[1, 'permit']]);
        const one = await withToken('GET', `${ACL}/${name}/rule/1`);
        assert.equal(one.json.results[0].action, 'permit');
        assert.equal((await withToken('DELETE', `${ACL}/${name}/rule/9`)).status, 404);
        const dup = await withToken('POST', `${ACL}/${name}/rule`, { body: JSON.stringify({ id: 1, action: 'deny' }) });
        assert.deepEqual([dup.status, dup.json.error], [500, -5]);
      });
    });

    describe('endpoints clients call first', () => {
      it('the firmware monitor answers release 6.4.14 build 2093', async () => {
        const answer = await withToken('GET', '/api/v2/monitor/system/firmware');
        assert.equal(answer.status, 200);
        const { major, minor, patch, build } = answer.json.results.current;
        assert.deepEqual([major, minor, patch, build], [6, 4, 14, 2093]);
      });

      it('the configuration backup is the CLI text of the tables, global and per VDOM', async () => {
        const global = await withToken('GET', '/api/v2/monitor/system/config/backup?scope=global');
        assert.equal(global.status, 200);
        assert.match(String(global.headers['content-type']), /text\/plain/);
        assert.match(global.text, /^#config-version=FGVM64-6\.4\.14-FW-build2093-\d{6}:/);
        for (const vdom of device.vdoms) assert.match(global.text, new RegExp(`^edit ${vdom}$`, 'm'));
        assert.match(global.text, /^config router access-list$/m);
        assert.match(global.text, /^ {4}edit "deny-all"$/m);
        const created = await withToken('POST', ACL, {
          body: JSON.stringify({ name: `${scheme}-in-backup`, comments: 'say "hi"' }),
        });
        assert.equal(created.status, 200);
        const vdom = await withToken('GET', `/api/v2/monitor/system/config/backup?scope=vdom&vdom=${device.vdoms[0]}`);
        assert.match(
          vdom.text,
          new RegExp(`^ {4}edit "${scheme}-in-backup"\\n {8}set comments "say \\\\"hi\\\\""$`, 'm'),
        );
        assert.equal((await withToken('GET', '/api/v2/monitor/system/config/backup')).status, 400);
      });
    });

    describe('reads', () => {
      it('with_meta=1 adds the full set of q_ fields', async () => {
        const answer = await withToken('GET', `${ACL}/deny-all?with_meta=1`);
        const object = answer.json.results[0];
        for (const field of [
          'q_ref',
          'q_static',
          'q_no_rename',
          'q_global_entry',
          'q_type',
          'q_path',
          'q_name',
          'q_mkey_type',
          'q_no_edit',
          'q_class',
        ]) {
          assert.ok(field in object, `${field} missing from ${JSON.stringify(object)}`);
        }
        assert.deepEqual([object.q_path, object.q_name, object.q_origin_key], ['router', 'access-list', 'deny-all']);
      });

      it('filter values take \\, for a literal comma and \\\\ for a backslash; a bare comma is OR', async () => {
        for (const [name, comments] of [
          [`${scheme}-comma`, 'a,b'],
          [`${scheme}-slash`, 'C:\\temp'],
          [`${scheme}-a`, 'a'],
        ]) {
          assert.equal((await withToken('POST', ACL, { body: JSON.stringify({ name, comments }) })).status, 200);
        }
        const names = async (filter: string) =>
          (await withToken('GET', `${ACL}?filter=${encodeURIComponent(filter)}`)).json.results
            .map((o: { name: string }) => o.name)
            .filter((n: string) => n.startsWith(scheme));
        assert.deepEqual(await names('comments==a\\,b'), [`${scheme}-comma`]);
        assert.deepEqual(await names('comments==C:\\\\temp'), [`${scheme}-slash`]);
        assert.deepEqual(await names('comments==a,comments==C:\\\\temp'), [`${scheme}-slash`, `${scheme}-a`]);
      });

      it('multi-value options: one space-separated string, answered in the device order', async () => {
        const put = await withToken('PUT', `${CMDB}/log.disk/setting`, {
          body: JSON.stringify({ 'roll-day': 'tuesday monday' }),
        });
        assert.equal(put.status, 200, put.text);
        const value = (await withToken('GET', `${CMDB}/log.disk/setting`)).json.results['roll-day'];
        assert.deepEqual(new Set(value.split(' ')), new Set(['monday', 'tuesday']));
        const bad = await withToken('PUT', `${CMDB}/log.disk/setting`, {
          body: JSON.stringify({ 'roll-day': 'monday someday' }),
        });
        assert.deepEqual([bad.status, bad.json.error], [500, -651]);
      });
    });

    describe('table names', () => {
      it("serves the vendor's names of catalogued tables as those tables", async () => {
        const alias = await withToken('GET', `${CMDB}/log.fortianalyzer2/filter`);
        assert.equal(alias.status, 200);
        assert.deepEqual([alias.json.path, alias.json.name], ['log.fortianalyzer2', 'filter']);
        const canonical = await withToken('GET', `${CMDB}/log.vendoranalyzer2/filter`);
        assert.deepEqual(alias.json.results, canonical.json.results);
        assert.equal(
          (
            await withToken('PUT', `${CMDB}/log.fortianalyzer2/filter`, {
              body: JSON.stringify({ severity: 'warning' }),
            })
          ).status,
          200,
        );
        assert.equal((await withToken('GET', `${CMDB}/log.vendoranalyzer2/filter`)).json.results.severity, 'warning');
        assert.equal((await withToken('GET', `${CMDB}/log.fortianalyzer-cloud/filter`)).status, 200);
        const client = await withToken('POST', `${CMDB}/vpn.ipsec/forticlient`, {
          body: JSON.stringify({ realm: `${scheme}-realm` }),
        });
        assert.equal(client.status, 200);
        assert.equal((await withToken('GET', `${CMDB}/vpn.ipsec/vendorclient/${scheme}-realm`)).status, 200);
      });
    });

    describe('API token', () => {
      it('as Authorization: Bearer, and in the access_token query parameter (Ansible)', async () => {
        assert.equal((await call('GET', `${ACL}?access_token=${device.token}`)).status, 200);
        const write = await call('POST', `${ACL}?access_token=${device.token}`, {
          body: JSON.stringify({ name: `${scheme}-query-token` }),
        });
        assert.equal(write.status, 200);
        assert.equal((await call('GET', ACL)).status, 401);
      });
    });

    describe('session login', () => {
      const form = () =>
        `username=${encodeURIComponent(device.username)}&secretkey=${encodeURIComponent(device.password)}&ajax=1`;

      it('/logincheck sets the cookies a 6.4 device sets: APSCOOKIE_<n>, ccsrftoken_<n>, ccsrftoken and the expired rl', async () => {
        const login = await call('POST', '/logincheck', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form(),
        });
        assert.equal(login.status, 200);
        assert.equal(login.text[0], '1');
        const lines = setCookies(login);
        assert.ok(lines.length > 2, lines.join('\n'));
        const live = liveCookies(lines);
        assert.deepEqual([...live.keys()].map((n) => n.replace(/\d+$/, '')).sort(), [
          'APSCOOKIE_',
          'ccsrftoken',
          'ccsrftoken_',
        ]);
        assert.ok(
          lines.some((line) => line.startsWith('rl=;')),
          'the expired rl cookie the Ansible plugin looks for',
        );
        assert.match(live.get('ccsrftoken')!, /^"[0-9a-f]+"$/);
      });

      it('a cookie jar that drops expired cookies (requests): the exact name ccsrftoken, the token without quotes', async () => {
        const login = await call('POST', '/logincheck', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form(),
        });
        const jar = liveCookies(setCookies(login));
        const csrf = jar.get('ccsrftoken')!.slice(1, -1);
        const headers = { Cookie: cookieHeader(jar), 'X-CSRFTOKEN': csrf };
        assert.equal((await call('GET', ACL, { headers })).status, 200);
        const write = await call('POST', ACL, { headers, body: JSON.stringify({ name: `${scheme}-requests` }) });
        assert.equal(write.status, 200, write.text);
        assert.equal(
          (
            await call('POST', ACL, {
              headers: { Cookie: cookieHeader(jar) },
              body: JSON.stringify({ name: `${scheme}-no-csrf` }),
            })
          ).status,
          403,
        );
      });

      it('a client that reads every cookie, expired ones too, and sends the token with its quotes', async () => {
        const login = await call('POST', '/logincheck', {
          headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
          body: form(),
        });
        const jar = everyCookie(setCookies(login));
        assert.ok(jar.size > 2, [...jar.keys()].join());
        const headers = { Cookie: cookieHeader(jar), 'X-CSRFTOKEN': jar.get('ccsrftoken')! };
        const write = await call('POST', ACL, { headers, body: JSON.stringify({ name: `${scheme}-every-cookie` }) });
        assert.equal(write.status, 200, write.text);
        assert.equal((await call('POST', '/logout', { headers: { Cookie: cookieHeader(jar) } })).status, 200);
        assert.equal((await call('GET', ACL, { headers })).status, 401);
      });

      it('Ansible: /api/v2/authentication first, the Set-Cookie line echoed as Cookie, logout by DELETE', async () => {
        const refused = await call('POST', '/api/v2/authentication', {
          body: JSON.stringify({
            username: device.username,
            secretkey: 'wrong',
            ack_pre_disclaimer: true,
            ack_post_disclaimer: true,
            request_key: true,
          }),
        });
        assert.equal(refused.status, 200);
        assert.equal(refused.json.status_code, -1);
        assert.deepEqual(setCookies(refused), []);
        const login = await call('POST', '/api/v2/authentication', {
          body: JSON.stringify({
            username: device.username,
            secretkey: device.password,
            ack_pre_disclaimer: true,
            ack_post_disclaimer: true,
            request_key: true,
          }),
        });
        assert.equal(login.status, 200);
        assert.match(String(login.headers['content-type']), /application\/json/);
        assert.equal(login.json.status_code, 5);
        assert.match(login.text, /LOGIN_SUCCESS/);
        let cookie = '';
        let csrf = '';
        for (const line of setCookies(login)) {
          if (line.includes('APSCOOKIE_')) cookie = line;
          else if (line.includes('ccsrftoken')) csrf = /"(.*)"/.exec(line)?.[1] ?? csrf;
        }
        const headers = { Cookie: cookie, 'x-csrftoken': csrf, Accept: 'application/json' };
        assert.equal(
          (await call('GET', '/api/v2/monitor/system/status?vdom=root', { headers })).json.version,
          'v6.4.14',
        );
        const write = await call('POST', `${ACL}?vdom=root`, {
          headers,
          body: JSON.stringify({ name: `${scheme}-ansible` }),
        });
        assert.equal(write.status, 200, write.text);
        assert.equal((await call('DELETE', '/api/v2/authentication', { headers })).status, 200);
        assert.equal((await call('GET', ACL, { headers })).status, 401);
      });
    });
  });
}
