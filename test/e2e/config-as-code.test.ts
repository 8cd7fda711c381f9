// export, diff and apply through the program (in-process) against the emulator, asserting on what the device
// received.
import { afterEach, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { startEmulator, type ReceivedRequest, type RunningEmulator } from '../../src/emulator/index.js';
import { main } from '../../src/cli/main.js';
import { BIN, isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { terminalIO } from '../helpers/tty.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

const BINDINGS = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';
const DISK = 'log.disk/setting';
/** A table whose order matters to the device (numbered objects that can be moved). */
const BWL = 'emailfilter/bwl';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
let dir: string;
const run = (...args: string[]) => runInProcess(args, { env });
/** Requests the device received since `mark`. */
const since = (mark: number): ReceivedRequest[] => emu.requests.slice(mark);
const writes = (requests: ReceivedRequest[]) => requests.filter((r) => r.method !== 'GET');
const file = (name: string, text: string) => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};

async function device(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${emu.url}/api/v2/cmdb/${path}`, {
    method,
    headers: { Authorization: `Bearer ${emu.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${method} ${path}: ${await res.text()}`);
}

/** A document with each keyed table's objects sorted by their first field (the key), for comparing contents. */
function byKey(doc: { vdoms: Record<string, Record<string, unknown>> }): unknown {
  const sortKey = (o: Obj) => String(Object.values(o)[0]);
  return Object.fromEntries(
    Object.entries(doc.vdoms).map(([vdom, tables]) => [
      vdom,
      Object.fromEntries(
        Object.entries(tables).map(([path, content]) => [
          path,
          Array.isArray(content)
            ? [...(content as Obj[])].sort((a, b) => sortKey(a).localeCompare(sortKey(b)))
            : content,
        ]),
      ),
    ]),
  );
}

/** Text equality that reports the first differing line rather than both texts. */
function sameText(actual: string, expected: string, message: string): void {
  if (actual === expected) return;
  const a = actual.split('\n');
  const e = expected.split('\n');
  const i = a.findIndex((line, n) => line !== e[n]);
  assert.fail(`${message}: line ${i + 1} is ${JSON.stringify(a[i])}, expected ${JSON.stringify(e[i])}`);
}

function expectCode(r: Run, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

beforeEach(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
before(() => {
  dir = tempDir('cmdb-cac-');
});
afterEach(() => emu.close());

describe('export', () => {
  test('is byte-identical twice, reads back unchanged with a YAML 1.1 reader, and holds every readable table of both VDOMs', async () => {
    const first = await run('export', '--vdom', '*');
    expectCode(first, 0);
    const second = await run('export', '--vdom', '*');
    sameText(second.stdout, first.stdout, 'the second export');
    const asJson = await run('export', '--vdom', '*', '-o', 'json');
    expectCode(asJson, 0);
    const doc = json<{ vdoms: Record<string, Record<string, unknown>> }>(asJson);
    assert.deepEqual(parse(first.stdout, { version: '1.1' }), doc, 'a YAML 1.1 reader reads what a JSON reader does');
    assert.deepEqual(Object.keys(doc.vdoms), ['root', 'dmz']);
    assert.ok(Object.keys(doc.vdoms.root).length > 30);
    assert.deepEqual(
      Object.keys(doc.vdoms.root[DISK] as Obj).filter((k) => k.startsWith('q_')),
      [],
    );
    assert.ok(!first.stdout.includes('q_origin_key'));
  });

  test('--dir writes <device>.yaml and nothing on stdout; a table the caller may not read is left out and sets the exit code', async () => {
    const limited = await startEmulator({
      port: 0,
      seed: 'demo',
      tokens: [{ token: 'limitedtoken00000000000000000a', groups: ['fwgrp', 'loggrp'] }],
    });
    const r = await runInProcess(['export', DISK, BINDINGS, ACL, '--dir', join(dir, 'out')], {
      env: isolatedEnv({ CMDB_HOST: limited.url, CMDB_TOKEN: 'limitedtoken00000000000000000a' }),
    });
    await limited.close();
    expectCode(r, 5);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /router\/access-list is left out/);
    const written = readFileSync(join(dir, 'out', `${new URL(limited.url).host.replace(':', '_')}.yaml`), 'utf8');
    assert.deepEqual(Object.keys(parse(written).vdoms.root), [BINDINGS, DISK], "the catalogue's order");
  });
  test('--dir: the folder cmdb creates is 0700 and the file 0600 whatever the umask; an existing folder is kept and named when others can read it', async () => {
    const umask = process.umask(0o022);
    try {
      const created = join(dir, 'new', 'exports');
      expectCode(await run('export', DISK, '--dir', created), 0);
      assert.equal(statSync(join(dir, 'new')).mode & 0o777, 0o700, 'every folder created, parents too');
      assert.equal(statSync(created).mode & 0o777, 0o700);
      const [name] = readdirSync(created);
      assert.equal(statSync(join(created, name)).mode & 0o777, 0o600);
      const open = join(dir, 'open');
      mkdirSync(open, { mode: 0o755 });
      chmodSync(open, 0o755);
      writeFileSync(join(open, name), 'old', { mode: 0o644 });
      const again = await run('export', DISK, '--dir', open);
      expectCode(again, 0);
      assert.match(again.stderr, /warning: the folder .*open already exists and other users can read it/);
      assert.equal(statSync(open).mode & 0o777, 0o755, 'an existing folder is left as it is');
      assert.equal(statSync(join(open, name)).mode & 0o777, 0o600, 'a file written over is private too');
      assert.deepEqual(readdirSync(open), [name], 'no temporary file left beside it');
    } finally {
      process.umask(umask);
    }
  });

  test('--exclude-default-values gives a minimal document that is still in sync', async () => {
    const full = parse((await run('export', DISK)).stdout).vdoms.root[DISK] as Obj;
    const minimal = await run('export', DISK, '--exclude-default-values');
    expectCode(minimal, 0);
    assert.match(emu.requests.at(-1)!.query, /exclude-default-values=1/);
    const fields = parse(minimal.stdout).vdoms.root[DISK] as Obj;
    assert.ok(Object.keys(fields).length > 0 && Object.keys(fields).length < Object.keys(full).length);
    expectCode(await run('diff', '-f', file('minimal.yaml', minimal.stdout)), 0);
  });
});

describe('diff and apply', () => {
  test('export → change → diff shows exactly the change → apply → in sync → a second apply sends no write', async () => {
    const exported = file('before.yaml', (await run('export', DISK, BINDINGS, ACL)).stdout);
    await device('PUT', DISK, { 'max-log-file-size': 99 });
    await device('DELETE', `${BINDINGS}/2`);
    await device('PUT', `${ACL}/deny-all`, { comments: 'changed on the device' });

    let mark = emu.requests.length;
    const diff = await run('diff', '-f', exported);
    expectCode(diff, 10);
    assert.deepEqual(writes(since(mark)), [], 'diff sends only reads');
    const plan = json<{ create: Obj[]; update: Obj[]; delete: Obj[] }>(diff);
    const original = (parse(readFileSync(exported, 'utf8')).vdoms.root[BINDINGS] as Obj[]).find(
      (o) => o['seq-num'] === 2,
    );
    assert.deepEqual(plan.create, [{ vdom: 'root', table: BINDINGS, key: 2, object: original }]);
    assert.deepEqual(plan.update, [
      { vdom: 'root', table: DISK, key: null, changes: { 'max-log-file-size': { from: 99, to: 20 } } },
      { vdom: 'root', table: ACL, key: 'deny-all', changes: { comments: { from: 'changed on the device', to: '' } } },
    ]);
    assert.deepEqual(plan.delete, []);

    const human = await run('diff', '-f', exported, '-o', 'table');
    expectCode(human, 10);
    // A numbered object is also named by its name; a create shows the fields that differ from their defaults.
    assert.match(
      human.stdout,
      /^\+ firewall\.ipmacbinding\/table 2 \(nas-01\) \(vdom root\)\n {4}ip: 192\.168\.1\.11$/m,
    );
    assert.match(human.stdout, /^~ log\.disk\/setting \(vdom root\)\n {4}max-log-file-size: 99 → 20$/m);
    // The binding created again goes back to its place: the table's order matters (integer key, updatable).
    assert.match(human.stderr, /1 to create, 2 to update, 1 to move, 0 to delete/);

    mark = emu.requests.length;
    const dry = await run('apply', '-f', exported, '--dry-run');
    expectCode(dry, 10);
    assert.deepEqual(writes(since(mark)), [], 'a dry run sends only reads');
    assert.deepEqual(json<{ requests: Obj[] }>(dry).requests, [
      { method: 'POST', path: `/api/v2/cmdb/${BINDINGS}`, query: 'vdom=root', body: original },
      { method: 'PUT', path: `/api/v2/cmdb/${BINDINGS}/2`, query: 'vdom=root&action=move&after=1', body: null },
      { method: 'PUT', path: `/api/v2/cmdb/${DISK}`, query: 'vdom=root', body: { 'max-log-file-size': 20 } },
      { method: 'PUT', path: `/api/v2/cmdb/${ACL}/deny-all`, query: 'vdom=root', body: { comments: '' } },
    ]);

    mark = emu.requests.length;
    const apply = await run('apply', '-f', exported);
    expectCode(apply, 0);
    const sent = writes(since(mark)).map((r) => `${r.method} ${r.path} ${r.body}`);
    // Writes that wait for nothing run at once; the move of the object created waits for its create.
    assert.deepEqual([...sent].sort(), [
      `POST /api/v2/cmdb/${BINDINGS} ${JSON.stringify(original)}`,
      `PUT /api/v2/cmdb/${BINDINGS}/2 `,
      `PUT /api/v2/cmdb/${DISK} {"max-log-file-size":20}`,
      `PUT /api/v2/cmdb/${ACL}/deny-all {"comments":""}`,
    ]);
    assert.ok(sent.indexOf(`PUT /api/v2/cmdb/${BINDINGS}/2 `) > 0, 'the move after the create');
    assert.equal(json<{ applied: Obj[] }>(apply).applied.length, 4);
    expectCode(await run('diff', '-f', exported), 0);

    mark = emu.requests.length;
    const again = await run('apply', '-f', exported);
    expectCode(again, 0);
    assert.deepEqual(json(again), { applied: [], failed: null, not_applied: [], unknown: [] });
    assert.deepEqual(writes(since(mark)), [], 'an in-sync apply sends no write');
  });

  test('--prune deletes what the document does not list, last, in reverse order; only in the tables it names', async () => {
    const doc = file('prune.yaml', (await run('export', BINDINGS, ACL)).stdout);
    await device('POST', BINDINGS, { 'seq-num': 90, ip: '10.9.9.90', mac: '00:00:00:00:00:90' });
    await device('POST', BINDINGS, { 'seq-num': 91, ip: '10.9.9.91', mac: '00:00:00:00:00:91' });
    await device('POST', ACL, { name: 'extra' });
    await device('POST', 'dlp/filepattern', { id: 50, name: 'not in the document' });
    const diff = json<{ delete: Obj[] }>(await run('diff', '-f', doc));
    assert.deepEqual(diff.delete, [], 'without --prune nothing is deleted');
    const pruned = await run('diff', '-f', doc, '--prune');
    expectCode(pruned, 10);
    assert.deepEqual(json<{ delete: Obj[] }>(pruned).delete, [
      { vdom: 'root', table: BINDINGS, key: 90 },
      { vdom: 'root', table: BINDINGS, key: 91 },
      { vdom: 'root', table: ACL, key: 'extra' },
    ]);
    const mark = emu.requests.length;
    expectCode(await run('apply', '-f', doc, '--prune'), 0);
    assert.deepEqual(
      writes(since(mark)).map((r) => `${r.method} ${r.path}`),
      [`DELETE /api/v2/cmdb/${ACL}/extra`, `DELETE /api/v2/cmdb/${BINDINGS}/91`, `DELETE /api/v2/cmdb/${BINDINGS}/90`],
    );
    assert.ok(
      (emu.objects('dlp/filepattern') as Obj[]).some((o) => o.id === 50),
      'tables the document does not name are left alone',
    );
  });

  test('apply writes an object after the objects it names and --prune deletes in the reverse (user groups and their members)', async () => {
    // Alphabetically user/group comes before user/local: the group names a user the device does not have yet.
    const doc = file(
      'refs.yaml',
      'vdoms:\n  root:\n    user/group:\n      - name: staff\n        member:\n          - name: carol\n' +
        '    user/local:\n      - name: carol\n        type: password\n        passwd: Carol-Passw0rd\n',
    );
    expectCode(await run('apply', '-f', doc, '--yes'), 0);
    assert.deepEqual((emu.objects('user/group') as Obj[]).find((g) => g.name === 'staff')?.member, [{ name: 'carol' }]);
    // Every group and user pruned, and the VPN clients that name groups: what names an object goes first.
    const none = file(
      'no-users.yaml',
      'vdoms:\n  root:\n    vpn.ipsec/vendorclient: []\n    user/group: []\n    user/local: []\n',
    );
    const mark = emu.requests.length;
    expectCode(await run('apply', '-f', none, '--prune', '--yes'), 0);
    assert.deepEqual([emu.objects('user/group'), emu.objects('user/local')], [[], []]);
    const deleted = writes(since(mark)).map((r) => r.path.split('/cmdb/')[1]);
    const at = (path: string) => deleted.indexOf(path);
    for (const [user, used] of [
      ['vpn.ipsec/vendorclient/corp.example.com', 'user/group/vpn-users'],
      ['user/group/vpn-users', 'user/local/alice'],
      ['user/group/staff', 'user/local/carol'],
    ])
      assert.ok(at(user) >= 0 && at(user) < at(used), `${user} before ${used}: ${deleted.join(' ')}`);
  });

  test('an export re-applied with --prune to a changed device restores it (both VDOMs)', async () => {
    const backup = (await run('export', '--vdom', '*')).stdout;
    const path = file('backup.yaml', backup);
    await device('PUT', `${DISK}?vdom=dmz`, { status: 'disable', 'roll-day': 'monday' });
    await device('DELETE', `${BINDINGS}/1`);
    await device('POST', `${ACL}?vdom=dmz`, {
      name: 'added',
      rule: [{ id: 1, action: 'deny', prefix: '10.0.0.0 255.0.0.0' }],
    });
    await device('PUT', `${ACL}/deny-all`, { rule: [] });
    await device('DELETE', 'dlp/filepattern/1');
    const r = await run('apply', '-f', path, '--prune', '-o', 'table');
    expectCode(r, 0);
    expectCode(await run('diff', '-f', path, '--prune'), 0);
    const restored = parse((await run('export', '--vdom', '*')).stdout);
    assert.deepEqual(byKey(restored), byKey(parse(backup)));
    // Where the order matters to the device it is restored too: the object created again is moved back in place.
    assert.deepEqual(restored.vdoms.root['dlp/filepattern'], parse(backup).vdoms.root['dlp/filepattern']);
  });

  test('without --atomic a failed write stops the run and reports what was and was not applied', async () => {
    const doc = file(
      'bad.json',
      JSON.stringify({
        vdoms: {
          root: {
            [DISK]: { 'max-log-file-size': 55 },
            [BINDINGS]: [{ 'seq-num': 70, mac: 'not-a-mac' }],
            [ACL]: [{ name: 'after-the-failure' }],
          },
        },
      }),
    );
    // One write at a time: the failure stops the run before the next write starts.
    const r = await run('apply', '-f', doc, '--concurrency', '1');
    expectCode(r, 7);
    const report = json<{ applied: Obj[]; failed: Obj & { error: Obj }; not_applied: Obj[] }>(r);
    assert.deepEqual(
      report.applied.map((s) => `${s.action} ${s.table}`),
      [`update ${DISK}`],
    );
    assert.equal(report.failed.table, BINDINGS);
    assert.equal(report.failed.key, 70);
    assert.equal(report.failed.error.exit, 7, 'a value the device refuses (HTTP 500, -651)');
    assert.deepEqual(
      report.not_applied.map((s) => `${s.action} ${s.table} ${s.key}`),
      [`create ${ACL} after-the-failure`],
    );
    assert.equal((emu.objects(DISK) as Obj)['max-log-file-size'], 55);
    assert.ok(!(emu.objects(ACL) as Obj[]).some((o) => o.name === 'after-the-failure'));
  });

  test('--atomic: a write that fails midway aborts the transactions; the device is left exactly as it was', async () => {
    const before = (await run('export', '--vdom', '*')).stdout;
    const doc = file(
      'atomic.json',
      JSON.stringify({
        vdoms: {
          root: { [DISK]: { 'max-log-file-size': 55 }, [ACL]: [{ name: 'in-root' }] },
          dmz: { [ACL]: [{ name: 'in-dmz' }], [BINDINGS]: [{ 'seq-num': 70, mac: 'not-a-mac' }] },
        },
      }),
    );
    const mark = emu.requests.length;
    const r = await run('apply', '-f', doc, '--atomic');
    expectCode(r, 7);
    const sent = writes(since(mark));
    const starts = sent.filter((q) => q.query.includes('transaction-start'));
    assert.equal(starts.length, 2, 'one transaction per VDOM');
    assert.ok(
      sent.filter((q) => q.path !== '/api/v2/cmdb').every((q) => q.headers['x-transaction-id']),
      'every write inside a transaction',
    );
    assert.equal(sent.filter((q) => q.query.includes('transaction-abort')).length, 2);
    assert.equal(sent.filter((q) => q.query.includes('transaction-commit')).length, 0);
    const report = json<{ applied: Obj[]; failed: Obj; not_applied: Obj[] }>(r);
    assert.deepEqual(report.applied, []);
    assert.equal(report.failed.key, 70);
    assert.equal(report.not_applied.length, 3);
    assert.match(r.stderr, /nothing was changed/);
    // Each of the 4 changes counted once: the one that failed, and the 3 aborted with it.
    assert.match(r.stderr, /applied 0 of 4 changes; failed: 1; not applied: 3\n/);
    sameText((await run('export', '--vdom', '*')).stdout, before, 'read back');
    assert.deepEqual(json(await run('transactions', ACL)), [], 'no transaction left open');
  });

  test('--atomic commits every VDOM only once all writes succeeded', async () => {
    const doc = file(
      'atomic-ok.json',
      JSON.stringify({ vdoms: { root: { [ACL]: [{ name: 'in-root' }] }, dmz: { [ACL]: [{ name: 'in-dmz' }] } } }),
    );
    const mark = emu.requests.length;
    expectCode(await run('apply', '-f', doc, '--atomic'), 0);
    assert.equal(writes(since(mark)).filter((q) => q.query.includes('transaction-commit')).length, 2);
    assert.ok((emu.objects(ACL, 'root') as Obj[]).some((o) => o.name === 'in-root'));
    assert.ok((emu.objects(ACL, 'dmz') as Obj[]).some((o) => o.name === 'in-dmz'));
  });

  test('SIGTERM during an atomic apply aborts the transaction and leaves the device unchanged', async () => {
    const objects = Array.from({ length: 3000 }, (_, i) => ({
      'seq-num': 1000 + i,
      ip: `10.8.${Math.floor(i / 250)}.${i % 250}`,
    }));
    const doc = file('many.json', JSON.stringify({ vdoms: { root: { [BINDINGS]: objects } } }));
    const count = (emu.objects(BINDINGS) as Obj[]).length;
    const child = spawn(process.execPath, [BIN, 'apply', '-f', doc, '--atomic'], {
      env,
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    child.stdin.end();
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    let done = false;
    const exited = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code))).finally(
      () => (done = true),
    );
    const staged = () => emu.requests.filter((q) => q.method === 'POST' && q.headers['x-transaction-id']).length;
    while (staged() < 20 && !done) await new Promise((resolve) => setTimeout(resolve, 5));
    assert.ok(!done, `the apply ended before it was interrupted: ${stderr}`);
    child.kill('SIGTERM');
    const code = await exited;
    assert.equal(code, 143, stderr);
    assert.ok(staged() < objects.length, 'interrupted before the end');
    assert.ok(
      emu.requests.some((q) => q.query.includes('transaction-abort')),
      'the transaction was aborted',
    );
    assert.ok(!emu.requests.some((q) => q.query.includes('transaction-commit')));
    assert.equal((emu.objects(BINDINGS) as Obj[]).length, count);
    assert.deepEqual(json(await run('transactions', BINDINGS)), []);
  });

  test('create -f --atomic: a failing element leaves nothing created; delete --atomic of several keys is all or nothing', async () => {
    const before = (await run('export', BINDINGS, ACL)).stdout;
    const bodies = file('bulk.json', JSON.stringify([{ name: 'bulk-1' }, { name: 'deny-all' }, { name: 'bulk-3' }]));
    let mark = emu.requests.length;
    const created = await run('create', ACL, '-f', bodies, '--atomic');
    expectCode(created, 7);
    assert.match(created.stderr, /nothing was changed/);
    // Without --vdom the writes go to the device's own VDOM, which it does not name: no "(vdom )".
    assert.match(created.stderr, /^cmdb: create router\/access-list deny-all failed: /m);
    assert.doesNotMatch(created.stderr, /\(vdom \)/);
    let sent = writes(since(mark));
    assert.ok(
      sent.some((q) => q.query.includes('transaction-abort')) &&
        !sent.some((q) => q.query.includes('transaction-commit')),
    );
    assert.ok(sent.filter((q) => q.path !== '/api/v2/cmdb').every((q) => q.headers['x-transaction-id']));

    mark = emu.requests.length;
    const deleted = await run('delete', BINDINGS, '1', '2', '99', '--atomic');
    expectCode(deleted, 6);
    sent = writes(since(mark));
    assert.deepEqual(
      sent.filter((q) => q.method === 'DELETE').map((q) => q.path),
      [`/api/v2/cmdb/${BINDINGS}/1`, `/api/v2/cmdb/${BINDINGS}/2`, `/api/v2/cmdb/${BINDINGS}/99`],
    );
    sameText((await run('export', BINDINGS, ACL)).stdout, before, 'read back');

    const ok = await run('delete', BINDINGS, '1', '2', '--atomic', '-o', 'json');
    expectCode(ok, 0);
    assert.deepEqual(
      json<{ applied: Obj[] }>(ok).applied.map((s) => s.key),
      [1, 2],
    );
    assert.deepEqual(
      (emu.objects(BINDINGS) as Obj[]).filter((o) => o['seq-num'] === 1 || o['seq-num'] === 2),
      [],
    );
  });

  test('diff --from DEVICE: another saved device is the desired configuration; nothing is written to either', async () => {
    const other = await startEmulator({ port: 0, seed: 'demo' });
    try {
      const login = await runInProcess(
        ['login', '--host', other.url, '-d', 'other', '--token-stdin', '--insecure-storage'],
        {
          env: { ...env, CMDB_HOST: '', CMDB_TOKEN: '' },
          stdin: `${other.token}\n`,
        },
      );
      expectCode(login, 0);
      const res = await fetch(`${other.url}/api/v2/cmdb/${DISK}`, {
        method: 'PUT',
        headers: { Authorization: `Bearer ${other.token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ 'max-log-file-size': 77 }),
      });
      assert.equal(res.status, 200);
      const mark = emu.requests.length;
      const otherMark = other.requests.length;
      const r = await run('diff', '--from', 'other', DISK, BINDINGS);
      expectCode(r, 10);
      assert.deepEqual(json(r), {
        create: [],
        update: [{ vdom: 'root', table: DISK, key: null, changes: { 'max-log-file-size': { from: 20, to: 77 } } }],
        move: [],
        delete: [],
      });
      assert.deepEqual(writes(since(mark)), []);
      assert.deepEqual(writes(other.requests.slice(otherMark)), []);
      assert.ok(
        other.requests.slice(otherMark).every((q) => q.headers.authorization === `Bearer ${other.token}`),
        'the other device gets its own credential',
      );
      assert.ok(!emu.requests.slice(mark).some((q) => q.headers.authorization?.includes(other.token)));
    } finally {
      await other.close();
    }
  });

  test('on a terminal apply shows the plan and asks; no sends nothing (exit 2), yes applies, --yes does not ask', async () => {
    const doc = file('ask.json', JSON.stringify({ vdoms: { root: { [ACL]: [{ name: 'asked' }] } } }));
    let mark = emu.requests.length;
    const declined = terminalIO([[/\[y\/N\] $/, 'n\r']]);
    assert.equal(await main(['apply', '-f', doc, '--no-color'], declined, env), 2);
    assert.match(declined.out(), /^\+ router\/access-list asked \(vdom root\)$/m);
    assert.match(declined.err(), /apply 1 change\? \[y\/N\]/);
    assert.deepEqual(writes(since(mark)), [], 'declined: nothing sent');

    const accepted = terminalIO([[/\[y\/N\] $/, 'y\r']]);
    assert.equal(await main(['apply', '-f', doc, '--no-color'], accepted, env), 0);
    assert.deepEqual(
      writes(since(mark)).map((q) => `${q.method} ${q.path}`),
      [`POST /api/v2/cmdb/${ACL}`],
    );
    assert.match(accepted.out(), /^created router\/access-list asked \(vdom root\)$/m);

    await device('DELETE', `${ACL}/asked`);
    mark = emu.requests.length;
    const unasked = terminalIO();
    assert.equal(await main(['apply', '-f', doc, '--yes', '--no-color'], unasked, env), 0);
    assert.doesNotMatch(unasked.err(), /\[y\/N\]/);
    assert.equal(writes(since(mark)).length, 1);
  });
});

describe('the order of objects where it matters to the device', () => {
  const ids = () => (emu.objects(BWL) as Obj[]).map((o) => o.id);
  const move = (key: number, where: 'before' | 'after', anchor: number) =>
    device('PUT', `${BWL}/${key}?action=move&${where}=${anchor}`);
  beforeEach(async () => {
    for (const id of [2, 3, 4]) await device('POST', BWL, { id, name: `list-${id}` });
  });

  test('export → move one on the device → diff shows the move → apply --prune restores the order → a second apply sends nothing', async () => {
    const exported = file('order.yaml', (await run('export', BWL, ACL)).stdout);
    assert.deepEqual(ids(), [1, 2, 3, 4]);
    await move(4, 'before', 1);
    await device('PUT', `${ACL}/deny-all?action=move&before=${encodeURIComponent('10.0.0.0/8')}`);

    let mark = emu.requests.length;
    const diff = await run('diff', '-f', exported, '--prune');
    expectCode(diff, 10);
    assert.deepEqual(
      json(diff),
      { create: [], update: [], move: [{ vdom: 'root', table: BWL, key: 4, after: 3 }], delete: [] },
      'the order of named objects (access lists) is never reported',
    );
    const human = await run('diff', '-f', exported, '--prune', '-o', 'table');
    expectCode(human, 10);
    assert.equal(human.stdout, `↕ ${BWL} 4 (list-4) (vdom root): move after 3\n`);
    assert.match(human.stderr, /0 to create, 0 to update, 1 to move, 0 to delete/);

    const dry = await run('apply', '-f', exported, '--prune', '--dry-run');
    expectCode(dry, 10);
    assert.deepEqual(json<{ requests: Obj[] }>(dry).requests, [
      { method: 'PUT', path: `/api/v2/cmdb/${BWL}/4`, query: 'vdom=root&action=move&after=3', body: null },
    ]);
    assert.deepEqual(writes(since(mark)), [], 'diff and a dry run send only reads');

    mark = emu.requests.length;
    const apply = await run('apply', '-f', exported, '--prune');
    expectCode(apply, 0);
    assert.deepEqual(
      writes(since(mark)).map((r) => `${r.method} ${r.path}?${r.query}`),
      [`PUT /api/v2/cmdb/${BWL}/4?vdom=root&action=move&after=3`],
    );
    assert.deepEqual(json<{ applied: Obj[] }>(apply).applied, [
      { action: 'move', vdom: 'root', table: BWL, key: 4, after: 3 },
    ]);
    assert.deepEqual(ids(), [1, 2, 3, 4], 'the device order is the export');

    mark = emu.requests.length;
    const again = await run('apply', '-f', exported, '--prune');
    expectCode(again, 0);
    assert.deepEqual(writes(since(mark)), [], 'an in-sync apply sends no write');
  });

  test('--atomic sends the moves inside the transaction; after the commit the order is in place', async () => {
    const exported = file('order-atomic.yaml', (await run('export', BWL)).stdout);
    await move(1, 'after', 4);
    await move(2, 'after', 1);
    assert.deepEqual(ids(), [3, 4, 1, 2]);
    const mark = emu.requests.length;
    expectCode(await run('apply', '-f', exported, '--atomic'), 0);
    const sent = writes(since(mark));
    assert.deepEqual(
      sent.map((r) => `${r.method} ${r.path}?${r.query}`),
      [
        'POST /api/v2/cmdb?action=transaction-start&vdom=root',
        `PUT /api/v2/cmdb/${BWL}/1?vdom=root&action=move&before=3`,
        `PUT /api/v2/cmdb/${BWL}/2?vdom=root&action=move&after=1`,
        'POST /api/v2/cmdb?action=transaction-commit&vdom=root',
      ],
    );
    assert.ok(sent.slice(1, 3).every((r) => r.headers['x-transaction-id']));
    assert.deepEqual(ids(), [1, 2, 3, 4]);
  });

  test('restore: after creates, deletes and moves on the device, apply -f export --prune brings back content and order', async () => {
    const backup = (await run('export', BWL, BINDINGS)).stdout;
    const path = file('order-backup.yaml', backup);
    await device('DELETE', `${BWL}/2`);
    await device('POST', BWL, { id: 7, name: 'added on the device' });
    await move(7, 'before', 1);
    await move(4, 'before', 3);
    await device('PUT', `${BWL}/3`, { comment: 'changed' });
    assert.deepEqual(ids(), [7, 1, 4, 3]);

    const mark = emu.requests.length;
    const r = await run('apply', '-f', path, '--prune');
    expectCode(r, 0);
    const sent = writes(since(mark)).map(
      (q) => `${q.method} ${q.path}${q.query.includes('action=move') ? `?${q.query}` : ''}`,
    );
    assert.deepEqual(
      sent,
      [
        `POST /api/v2/cmdb/${BWL}`,
        `PUT /api/v2/cmdb/${BWL}/3`,
        `PUT /api/v2/cmdb/${BWL}/2?vdom=root&action=move&after=1`,
        `PUT /api/v2/cmdb/${BWL}/3?vdom=root&action=move&after=2`,
        `DELETE /api/v2/cmdb/${BWL}/7`,
      ],
      'the re-created object lands at the end and is moved in place, with one more move; the prune comes last',
    );
    sameText((await run('export', BWL, BINDINGS)).stdout, backup, 'the export after the restore');
  });
});
