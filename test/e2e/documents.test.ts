// Config documents as CLI.md "Configuration as code" and "References between tables" write and read them,
// through the program against the emulator (which holds global tables once, has factory objects in every
// seed and refuses deletes of them): global tables once under `global:`, `device:` and the UUIDs of
// another device, `defaults: excluded`, objects under key 0, --prune beside factory objects, secrets, and
// what the API cannot restore.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { startEmulator, type ReceivedRequest, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
/** `cmdb ...args` with a document (JSON) on stdin. */
const withDocument = (document: unknown, ...args: string[]) =>
  runInProcess([...args, '-f', '-'], {
    env,
    stdin: typeof document === 'string' ? document : JSON.stringify(document),
  });
const since = (mark: number): ReceivedRequest[] => emu.requests.slice(mark);
const writes = (requests: ReceivedRequest[]) => requests.filter((r) => r.method !== 'GET');
const reads = (requests: ReceivedRequest[], table: string) =>
  requests.filter((r) => r.method === 'GET' && r.path === `/api/v2/cmdb/${table}`);

function expectCode(r: Run, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

async function device(method: string, path: string, body?: unknown, on: RunningEmulator = emu): Promise<void> {
  const res = await fetch(`${on.url}/api/v2/cmdb/${path}`, {
    method,
    headers: { Authorization: `Bearer ${on.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${method} ${path}: ${await res.text()}`);
}

beforeEach(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
afterEach(() => emu.close());

describe('global tables: once, under global:', () => {
  test('export writes a global table once; diff and apply read it once and write it once, without a VDOM', async () => {
    const mark = emu.requests.length;
    const exported = await run('export', 'system/dns', 'firewall/address', '--vdom', '*', '-o', 'json');
    expectCode(exported, 0);
    const doc = json(exported) as { global: Obj; vdoms: Record<string, Obj> };
    assert.deepEqual(Object.keys(doc), ['device', 'global', 'vdoms']);
    assert.deepEqual(Object.keys(doc.global), ['system/dns']);
    assert.deepEqual(Object.keys(doc.vdoms), ['root', 'dmz']);
    for (const vdom of ['root', 'dmz']) assert.deepEqual(Object.keys(doc.vdoms[vdom]), ['firewall/address']);
    assert.equal(reads(since(mark), 'system/dns').length, 1, 'asked once');

    (doc.global['system/dns'] as Obj).timeout = 7;
    const applyMark = emu.requests.length;
    const applied = await withDocument(doc, 'apply', '--yes', '-o', 'json');
    expectCode(applied, 0);
    assert.deepEqual((JSON.parse(applied.stdout) as { applied: Obj[] }).applied, [
      { action: 'update', vdom: null, table: 'system/dns', key: null, changes: { timeout: { from: 5, to: 7 } } },
    ]);
    const sent = since(applyMark);
    assert.equal(reads(sent, 'system/dns').length, 1, 'read once, not once per VDOM');
    assert.deepEqual(
      writes(sent).map((r) => `${r.method} ${r.path}?${r.query}`),
      ['PUT /api/v2/cmdb/system/dns?'],
      'written once, without a vdom',
    );
    expectCode(await withDocument(doc, 'diff', '--prune'), 0);
  });

  test('an older document: a global table under each VDOM is taken as global; copies that differ are refused', async () => {
    const same = { vdoms: { root: { 'system/dns': { timeout: 8 } }, dmz: { 'system/dns': { timeout: 8 } } } };
    const diff = await withDocument(same, 'diff', '-o', 'json');
    expectCode(diff, 10);
    assert.deepEqual(json(diff), {
      create: [],
      update: [{ vdom: null, table: 'system/dns', key: null, changes: { timeout: { from: 5, to: 8 } } }],
      move: [],
      delete: [],
    });
    const mark = emu.requests.length;
    expectCode(await withDocument(same, 'apply', '--yes'), 0);
    assert.equal(writes(since(mark)).length, 1);

    const differ = { vdoms: { root: { 'system/dns': { timeout: 8 } }, dmz: { 'system/dns': { timeout: 9 } } } };
    const refusedMark = emu.requests.length;
    const refused = await withDocument(differ, 'apply', '--yes');
    expectCode(refused, 2);
    assert.match(refused.stderr, /system\/dns is global .*vdom root and vdom dmz hold different copies of it/);
    assert.deepEqual(since(refusedMark), [], 'nothing sent');

    const misplaced = await withDocument({ global: { 'firewall/address': [] } }, 'diff');
    expectCode(misplaced, 2);
    assert.match(misplaced.stderr, /firewall\/address is not a global table/);
  });

  test("--atomic: the global tables' writes go in the first VDOM's transaction", async () => {
    const doc = {
      global: { 'system/dns': { timeout: 6 } },
      vdoms: { dmz: { 'firewall/address': [{ name: 'atomic-net', subnet: '10.9.0.0/16' }] } },
    };
    const mark = emu.requests.length;
    expectCode(await withDocument(doc, 'apply', '--atomic', '--yes'), 0);
    const sent = writes(since(mark));
    const starts = sent.filter((r) => r.query.includes('transaction-start'));
    assert.deepEqual(
      starts.map((r) => r.query),
      ['action=transaction-start&vdom=dmz'],
    );
    const dns = sent.find((r) => r.path === '/api/v2/cmdb/system/dns')!;
    const address = sent.find((r) => r.path === '/api/v2/cmdb/firewall/address')!;
    assert.ok(dns.headers['x-transaction-id']);
    assert.equal(dns.headers['x-transaction-id'], address.headers['x-transaction-id']);
    assert.equal(dns.query, '', 'no vdom for a global table');
  });

  test('single commands ignore --vdom for a global table, say so once, and do not key the output by VDOM', async () => {
    const mark = emu.requests.length;
    const got = await run('get', 'system/dns', '--vdom', 'root,dmz', '-o', 'json');
    expectCode(got, 0);
    assert.match(got.stderr, /^cmdb: system\/dns is one for the whole device \(a global table\): --vdom is ignored\n$/);
    const shown = JSON.parse(got.stdout) as Obj | Obj[];
    const object = Array.isArray(shown) ? shown[0] : shown;
    assert.equal(object.timeout, 5, got.stdout);
    assert.ok(!('root' in object), 'not keyed by VDOM');
    assert.deepEqual(
      since(mark).map((r) => r.query),
      [''],
    );

    const listed = await run('list', 'system/accprofile', '--vdom', '*', '-o', 'json');
    expectCode(listed, 0);
    assert.ok(Array.isArray(JSON.parse(listed.stdout)), 'a list, not an object of VDOMs');

    const updateMark = emu.requests.length;
    expectCode(await run('update', 'system/dns', '--set', 'timeout=9', '--vdom', 'dmz', '--yes'), 0);
    assert.deepEqual(
      writes(since(updateMark)).map((r) => `${r.method} ${r.path}?${r.query}`),
      ['PUT /api/v2/cmdb/system/dns?'],
    );
    const plain = await run('get', 'system/dns', '-o', 'json');
    assert.equal(plain.stderr, '', 'no notice without --vdom');
  });
});

describe('device: where a document came from, and UUIDs', () => {
  let other: RunningEmulator;
  beforeEach(async () => {
    other = await startEmulator({ port: 0, seed: 'demo', serial: 'FGVMEMU000000002' });
    // The same object made on both devices: each gives it a UUID of its own.
    for (const on of [emu, other])
      await device('POST', 'firewall/address', { name: 'shared-net', subnet: '10.60.0.0/16' }, on);
  });
  afterEach(() => other.close());

  test("export writes device: first; another device's document compares and sends no uuid unless --with-uuid", async () => {
    const exported = await runInProcess(['export', 'firewall/address'], {
      env: isolatedEnv({ CMDB_HOST: other.url, CMDB_TOKEN: other.token }),
    });
    expectCode(exported, 0);
    assert.match(exported.stdout, /^device:\n {2}serial: FGVMEMU000000002\n {2}version: v6.4.14\nvdoms:\n/);
    const text = exported.stdout;
    expectCode(await withDocument(text, 'diff'), 0);
    const withUuid = await withDocument(text, 'diff', '--with-uuid', '-o', 'json');
    expectCode(withUuid, 10);
    assert.deepEqual(
      (json(withUuid) as { update: { key: string; changes: Obj }[] }).update.map((u) => [
        u.key,
        Object.keys(u.changes),
      ]),
      [['shared-net', ['uuid']]],
    );

    // A new object of the other device's is created without its UUID: the device gives it its own.
    const added = text.replace(
      /^ {6}- name: shared-net$/m,
      '      - name: branch-net\n        subnet: 10.61.0.0/16\n$&',
    );
    const mark = emu.requests.length;
    const document = (await import('yaml')).parse(added) as { vdoms: { root: { 'firewall/address': Obj[] } } };
    document.vdoms.root['firewall/address'].find((a) => a.name === 'branch-net')!.uuid =
      '11111111-2222-3333-4444-555555555555';
    expectCode(await withDocument(document, 'apply', '--yes'), 0);
    const posts = writes(since(mark));
    assert.equal(posts.length, 1, posts.map((r) => r.path).join(', '));
    assert.ok(!('uuid' in (JSON.parse(posts[0].body) as Obj)), posts[0].body);

    // The same document on the device it came from compares UUIDs.
    const own = await runInProcess(['diff', '-f', '-', '--prune'], {
      env: isolatedEnv({ CMDB_HOST: other.url, CMDB_TOKEN: other.token }),
      stdin: text.replace(/(- name: shared-net\n {8}uuid: )\S+/, '$1aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee'),
    });
    expectCode(own, 10);
  });

  test('diff --from another device leaves uuid out', async () => {
    const login = await runInProcess(
      ['login', '--host', other.url, '-d', 'gold', '--token-stdin', '--insecure-storage'],
      { env: { ...env, CMDB_HOST: '', CMDB_TOKEN: '' }, stdin: `${other.token}\n` },
    );
    expectCode(login, 0);
    expectCode(await run('diff', '--from', 'gold', 'firewall/address'), 0);
    expectCode(await run('diff', '--from', 'gold', 'firewall/address', '--with-uuid'), 10);
  });

  test('--ignore-fields leaves fields out of comparisons and writes; a field no table has is a usage error', async () => {
    const exported = await run('export', 'firewall/address', 'firewall/addrgrp');
    expectCode(exported, 0);
    await device('PUT', 'firewall/address/shared-net', { comment: 'changed by hand', color: 3 });
    const diff = await withDocument(exported.stdout, 'diff', '--ignore-fields', 'comment,color', '-o', 'json');
    expectCode(diff, 0);
    const mark = emu.requests.length;
    const applied = await withDocument(exported.stdout, 'apply', '--ignore-fields', 'comment', '--yes', '-o', 'json');
    expectCode(applied, 0);
    assert.deepEqual(
      writes(since(mark)).map((r) => JSON.parse(r.body) as Obj),
      [{ color: 0 }],
    );
    const typoMark = emu.requests.length;
    const typo = await withDocument(exported.stdout, 'diff', '--ignore-fields', 'commnet');
    expectCode(typo, 2);
    assert.match(typo.stderr, /no table of the document has a field 'commnet'/);
    assert.match(typo.stderr, /did you mean comment/);
    assert.deepEqual(writes(since(typoMark)), []);
  });
});

describe('defaults: excluded', () => {
  test("a field the document leaves out is compared with the device's default, read once per table", async () => {
    await device('POST', 'firewall/address', { name: 'plain-net', subnet: '10.50.0.0/16' });
    const exported = await run('export', 'firewall/address', '--vdom', '*', '--exclude-default-values');
    expectCode(exported, 0);
    assert.match(exported.stdout, /^defaults: excluded\ndevice:\n/);
    await device('PUT', 'firewall/address/plain-net', { comment: 'drift', color: 5 });
    const mark = emu.requests.length;
    const diff = await withDocument(exported.stdout, 'diff', '-o', 'json');
    expectCode(diff, 10);
    assert.deepEqual(json(diff), {
      create: [],
      update: [
        {
          vdom: 'root',
          table: 'firewall/address',
          key: 'plain-net',
          changes: { comment: { from: 'drift', to: '' }, color: { from: 5, to: 0 } },
        },
      ],
      move: [],
      delete: [],
    });
    assert.equal(
      since(mark).filter((r) => r.query.includes('action=default')).length,
      1,
      'the defaults of firewall/address are read once for both VDOMs',
    );
    expectCode(await withDocument(exported.stdout, 'apply', '--yes'), 0);
    expectCode(await withDocument(exported.stdout, 'diff', '--prune'), 0);

    // A document without the mark compares only the fields it states.
    await device('PUT', 'firewall/address/plain-net', { comment: 'drift' });
    expectCode(await withDocument(exported.stdout.replace(/^defaults: excluded\n/, ''), 'diff'), 0);
  });

  test("where the device gives no defaults, the catalogue's: fields it has no default for are not compared", async () => {
    const to = new URL(emu.url);
    // A device that does not answer `action=default`.
    const proxy: Server = createServer((req, res) => {
      if (req.url!.includes('action=default')) {
        res.writeHead(405, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ http_method: 'GET', status: 'error', http_status: 405 }));
        return;
      }
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    try {
      env = isolatedEnv({
        CMDB_HOST: `http://127.0.0.1:${(proxy.address() as { port: number }).port}`,
        CMDB_TOKEN: emu.token,
      });
      await device('POST', 'firewall/address', { name: 'plain-net', subnet: '10.50.0.0/16' });
      const exported = await run('export', 'firewall/address', '--exclude-default-values');
      expectCode(exported, 0);
      await device('PUT', 'firewall/address/plain-net', { comment: 'drift', color: 5 });
      const diff = await withDocument(exported.stdout, 'diff', '-o', 'json');
      expectCode(diff, 10);
      // The catalogue gives color a default (0), comment none.
      assert.deepEqual((json(diff) as { update: { changes: Obj }[] }).update[0].changes, {
        color: { from: 5, to: 0 },
      });
    } finally {
      proxy.closeAllConnections();
      await new Promise((resolve) => proxy.close(resolve));
    }
  });
});

describe('key 0: the device picks the key', () => {
  const policy = {
    policyid: 0,
    name: 'k0-policy',
    srcintf: [{ name: 'port1' }],
    dstintf: [{ name: 'port2' }],
    srcaddr: [{ name: 'all' }],
    dstaddr: [{ name: 'all' }],
    service: [{ name: 'ALL' }],
    schedule: 'always',
    action: 'accept',
  };
  const named = (name: string) => (emu.objects('firewall/policy', 'root') as Obj[]).filter((p) => p.name === name);

  test("an object under key 0 is the device's object of the same name: applying twice creates it once", async () => {
    const doc = { vdoms: { root: { 'firewall/policy': [policy] } } };
    expectCode(await withDocument(doc, 'apply', '--yes'), 0);
    assert.equal(named('k0-policy').length, 1);
    const id = named('k0-policy')[0].policyid;
    const mark = emu.requests.length;
    expectCode(await withDocument(doc, 'apply', '--yes'), 0);
    assert.deepEqual(writes(since(mark)), [], 'the second apply sends nothing');
    expectCode(await withDocument(doc, 'diff'), 0);
    assert.equal(named('k0-policy').length, 1);

    // A change to it updates the device's object, under its own key.
    const changed = { vdoms: { root: { 'firewall/policy': [{ ...policy, action: 'deny' }] } } };
    const updateMark = emu.requests.length;
    expectCode(await withDocument(changed, 'apply', '--yes'), 0);
    assert.deepEqual(
      writes(since(updateMark)).map((r) => `${r.method} ${r.path} ${r.body}`),
      [`PUT /api/v2/cmdb/firewall/policy/${id} {"action":"deny"}`],
    );
  });

  test('without a name to find it by, every apply creates it anew, and the plan says so', async () => {
    const doc = { vdoms: { root: { 'router/static': [{ 'seq-num': 0, dst: '10.77.0.0/16', gateway: '192.0.2.1' }] } } };
    const diff = await withDocument(doc, 'diff');
    expectCode(diff, 10);
    assert.match(
      diff.stderr,
      /created again by every apply \(key 0 and no name to find it by\): create router\/static 0/,
    );
    expectCode(await withDocument(doc, 'apply', '--yes'), 0);
    expectCode(await withDocument(doc, 'apply', '--yes'), 0);
    assert.equal(
      (emu.objects('router/static', 'root') as Obj[]).filter((r) => r.dst === '10.77.0.0 255.255.0.0').length,
      2,
    );
  });
});

describe('--prune and factory objects', () => {
  const FACTORY_ADDRESSES = ['all', 'none', 'FABRIC_DEVICE', 'FIREWALL_AUTH_PORTAL_ADDRESS', 'SSLVPN_TUNNEL_ADDR1'];

  test('never deletes factory objects, objects the device marks q_static, or VDOMs', async () => {
    await device('POST', 'firewall/address', { name: 'extra-net', subnet: '10.70.0.0/16' });
    const exported = json(await run('export', 'firewall/address', '-o', 'json')) as {
      vdoms: { root: { 'firewall/address': Obj[] } };
    };
    // A document that lacks the factory addresses (and the extra one), the root VDOM's interfaces (the
    // model's ports, which the device marks q_static) and the VDOM dmz (in the older layout, under a VDOM).
    const doc = {
      vdoms: {
        root: {
          'system/vdom': [{ name: 'root' }],
          'firewall/address': exported.vdoms.root['firewall/address'].filter(
            (a) => !FACTORY_ADDRESSES.includes(a.name as string) && a.name !== 'extra-net',
          ),
          'system/interface': [],
        },
      },
    };
    const diff = await withDocument(doc, 'diff', '--prune', '-o', 'json');
    expectCode(diff, 10);
    assert.deepEqual((json(diff) as { delete: Obj[] }).delete, [
      { vdom: 'root', table: 'firewall/address', key: 'extra-net' },
    ]);
    expectCode(await withDocument(doc, 'apply', '--prune', '--yes'), 0);
    expectCode(await withDocument(doc, 'diff', '--prune'), 0);
    const left = (emu.objects('firewall/address', 'root') as Obj[]).map((a) => a.name);
    for (const name of FACTORY_ADDRESSES) assert.ok(left.includes(name), `${name} is kept`);
  });
});

describe('secrets', () => {
  test('a plain-text secret is named as not compared; --set-secrets sends it, never an ENC value', async () => {
    const doc = { vdoms: { root: { 'user/local': [{ name: 'alice', passwd: 'N3w-Passw0rd' }] } } };
    const diff = await withDocument(doc, 'diff');
    expectCode(diff, 0);
    assert.match(
      diff.stderr,
      /^cmdb: secrets compared only as set or not \(--set-secrets sends them\): passwd of user\/local alice \(vdom root\)\n$/,
    );
    const mark = emu.requests.length;
    expectCode(await withDocument(doc, 'apply', '--yes'), 0);
    assert.deepEqual(writes(since(mark)), []);

    const rotated = await withDocument(doc, 'apply', '--set-secrets', '--yes', '-o', 'json');
    expectCode(rotated, 0);
    assert.doesNotMatch(rotated.stdout + rotated.stderr, /N3w-Passw0rd/, 'never shown');
    assert.deepEqual(
      writes(since(mark)).map((r) => `${r.method} ${r.path} ${r.body}`),
      ['PUT /api/v2/cmdb/user/local/alice {"passwd":"N3w-Passw0rd"}'],
    );

    const encrypted = { vdoms: { root: { 'user/local': [{ name: 'alice', passwd: 'ENC c2VjcmV0' }] } } };
    const encMark = emu.requests.length;
    const sent = await withDocument(encrypted, 'apply', '--set-secrets', '--yes');
    expectCode(sent, 0);
    assert.deepEqual(writes(since(encMark)), [], 'an ENC value is never sent as a rotation');
    assert.equal(sent.stderr.includes('secrets compared'), false, sent.stderr);
  });
});

describe('what the API cannot restore', () => {
  test('objects of a table without create are reported once, are not differences, and are never sent', async () => {
    // An older document (the certificates under a VDOM): an imported certificate the device does not have.
    const doc = {
      vdoms: {
        root: {
          'certificate/local': [{ name: 'imported-web', comments: 'from the old device' }],
          'firewall/address': [{ name: 'restore-net', subnet: '10.80.0.0/16' }],
        },
      },
    };
    const diff = await withDocument(doc, 'diff', '-o', 'json');
    expectCode(diff, 10);
    assert.deepEqual(
      (json(diff) as { create: Obj[] }).create.map((c) => c.table),
      ['firewall/address'],
      'only the address is a difference',
    );
    const lines = diff.stderr.trim().split('\n');
    assert.equal(lines.length, 1, diff.stderr);
    assert.match(
      lines[0],
      /^cmdb: warning: not restorable through the API .*: create certificate\/local imported-web \(global\)$/,
    );

    for (const force of [[], ['--force']]) {
      const mark = emu.requests.length;
      const applied = await withDocument(doc, 'apply', '--yes', ...force);
      expectCode(applied, 0);
      assert.ok(
        writes(since(mark)).every((r) => !r.path.includes('certificate')),
        'no write to certificate/local, --force or not',
      );
    }
    // The device now matches everything the API can restore: in sync.
    const again = await withDocument(doc, 'diff');
    expectCode(again, 0);
    assert.match(again.stderr, /not restorable through the API/);
  });
});
