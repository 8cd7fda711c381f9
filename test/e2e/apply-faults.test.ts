// apply over a link that loses answers: a proxy resets chosen writes' connections, before the request
// reaches the device (nothing happened) or once the device has answered (it was done and the client
// never heard). Every such write is read back and reported as what it was; the device is the judge.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../helpers/fault-proxy.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;
type Report = { applied: Obj[]; failed: (Obj & { error: Obj }) | null; not_applied: Obj[]; unknown: Obj[] };

const BWL = 'emailfilter/bwl';
const DISK = 'log.disk/setting';

let emu: RunningEmulator;
let proxy: FaultProxy | undefined;
let file: string;
/** What the proxy does to each request, from its request line: pass unless told. */
let choose: (head: string) => Fault;

const ids = () => (emu.objects(BWL) as Obj[]).map((o) => o.id);
const writes = (mark: number) => emu.requests.slice(mark).filter((r) => r.method !== 'GET');
const viaProxy = (...args: string[]) =>
  runInProcess(args, { env: isolatedEnv({ CMDB_HOST: proxy!.url, CMDB_TOKEN: emu.token }) });
const direct = (...args: string[]) =>
  runInProcess(args, { env: isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token }) });
/** The request line of a request's first bytes. */
const line = (head: string) => head.split('\r\n', 1)[0];

function expectCode(r: Run, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

beforeEach(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  choose = () => 'pass';
  proxy = await startFaultProxy({ target: emu.url, seed: 1, choose: (head) => choose(head) });
  for (const [id, name] of [
    [2, 'two'],
    [3, 'three'],
    [9, 'to-prune'],
  ]) {
    const res = await fetch(`${emu.url}/api/v2/cmdb/${BWL}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${emu.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({ id, name }),
    });
    assert.equal(res.status, 200);
  }
  // Six and five are new and go in front of one, two, three: created at the end, then six is moved in
  // front of one and five right behind six (between six and one, once both moves are done); nine is pruned.
  const one = (emu.objects(BWL) as Obj[]).find((o) => o.id === 1)!;
  const { q_origin_key: _, ...seeded } = one;
  file = join(tempDir('cmdb-apply-faults-'), 'doc.json');
  writeFileSync(
    file,
    JSON.stringify({
      vdoms: {
        root: {
          [DISK]: { 'max-log-file-size': 42 },
          [BWL]: [
            { id: 6, name: 'six' },
            { id: 5, name: 'five' },
            seeded,
            { id: 2, name: 'two' },
            { id: 3, name: 'three' },
          ],
        },
      },
    }),
  );
});
afterEach(async () => {
  await proxy?.close();
  await emu.close();
});

describe('apply when a write loses its answer', () => {
  test('every answer lost after the device acted: each write is read back as applied and the run goes on to the end', async () => {
    choose = (head) => (/^(POST|PUT|DELETE) /.test(head) ? 'after' : 'pass');
    const mark = emu.requests.length;
    const r = await viaProxy('apply', '-f', file, '--prune', '-o', 'json');
    expectCode(r, 0);
    const report = json<Report>(r);
    assert.deepEqual(
      report.applied.map((s) => `${s.action} ${s.table} ${s.key} ${s.outcome}`),
      [
        `update ${DISK} null applied`,
        `create ${BWL} 6 applied`,
        `create ${BWL} 5 applied`,
        `move ${BWL} 6 applied`,
        `move ${BWL} 5 applied`,
        `delete ${BWL} 9 applied`,
      ],
    );
    assert.equal(report.failed, null);
    assert.deepEqual(report.not_applied, []);
    assert.equal(writes(mark).length, 6, 'each write sent once: read back, never sent again');
    assert.ok(proxy!.stats.after >= 6);
    assert.deepEqual(ids(), [6, 5, 1, 2, 3], 'the device holds the document, in its order');
    assert.equal((emu.objects(DISK) as Obj)['max-log-file-size'], 42);

    const second = emu.requests.length;
    expectCode(await direct('apply', '-f', file, '--prune'), 0);
    assert.deepEqual(writes(second), [], 'in sync: a second apply sends no write');
  });

  test('a write lost before it reached the device (but after it went out) is unknown: the run stops there (exit 3), and says so in words', async () => {
    let posts = 0;
    choose = (head) => (line(head).startsWith(`POST /api/v2/cmdb/${BWL}`) && ++posts === 2 ? 'before' : 'pass');
    const r = await viaProxy('apply', '-f', file, '--prune', '-o', 'table', '--yes');
    expectCode(r, 3);
    assert.match(r.stdout, /^updated log\.disk\/setting \(vdom root\)\ncreated emailfilter\/bwl 6 \(vdom root\)\n$/m);
    assert.match(
      r.stderr,
      /create emailfilter\/bwl 5 \(vdom root\) failed: the connection was lost after the write was sent: not there when read back; the device may still apply it/,
    );
    assert.match(r.stderr, /applied 2 of 6 changes; not applied: 3; unknown \(the device may still apply them\): 1/);
    assert.deepEqual(ids(), [1, 2, 3, 9, 6], 'nothing after the failure was sent');

    let postsAgain = 0;
    choose = (head) => (line(head).startsWith(`POST /api/v2/cmdb/${BWL}`) && ++postsAgain === 1 ? 'before' : 'pass');
    const asJson = await viaProxy('apply', '-f', file, '--prune', '-o', 'json');
    expectCode(asJson, 3);
    const report = json<Report>(asJson);
    assert.equal(report.failed?.outcome, 'unknown');
    assert.deepEqual(
      report.unknown.map((s) => `${s.action} ${s.key}`),
      ['create 5'],
    );
    assert.equal(report.failed?.key, 5);
    assert.equal(report.failed?.error.exit, 3);
    assert.deepEqual(
      report.not_applied.map((s) => `${s.action} ${s.key}`),
      ['move 6', 'move 5', 'delete 9'],
    );
  });

  test("--atomic, the commit's answer lost after the device committed: reading back shows every write applied (exit 0)", async () => {
    choose = (head) => (line(head).includes('action=transaction-commit') ? 'after' : 'pass');
    const r = await viaProxy('apply', '-f', file, '--prune', '--atomic', '-o', 'table', '--yes');
    expectCode(r, 0);
    assert.match(
      r.stdout,
      /^created emailfilter\/bwl 6 \(vdom root\): the answer was lost, reading it back shows it applied$/m,
    );
    assert.match(
      r.stdout,
      /^moved emailfilter\/bwl 6 \(vdom root\): the answer was lost, reading it back shows it applied$/m,
    );
    assert.match(
      r.stdout,
      /^moved emailfilter\/bwl 5 \(vdom root\): the answer was lost, reading it back shows it applied$/m,
    );
    assert.deepEqual(ids(), [6, 5, 1, 2, 3]);
    assert.equal(proxy!.stats.after, 1);
  });

  test('--atomic, the commit lost before it reached the device: the transaction, still open, is aborted; nothing changed (exit 3)', async () => {
    const before = (await direct('export', BWL, DISK)).stdout;
    choose = (head) => (line(head).includes('action=transaction-commit') ? 'before' : 'pass');
    const mark = emu.requests.length;
    const r = await viaProxy('apply', '-f', file, '--prune', '--atomic', '-o', 'json');
    expectCode(r, 3);
    const report = json<Report>(r);
    assert.deepEqual(report.applied, []);
    assert.equal(report.failed?.action, 'transaction');
    assert.equal(report.failed?.outcome, 'not_applied');
    assert.match(
      String(report.failed?.error.message),
      /the answer to the commit of the transaction of vdom root was lost; the transaction was aborted or had ended without it: not applied/,
    );
    assert.deepEqual(report.unknown, []);
    assert.equal(report.not_applied.length, 6);
    const sent = emu.requests
      .slice(mark)
      .map((q) => q.query)
      .filter((q) => q.includes('action=transaction-'));
    assert.deepEqual(
      sent,
      ['action=transaction-start&vdom=root', 'action=transaction-list&vdom=root', 'action=transaction-abort&vdom=root'],
      'the commit never arrived; the open transaction was found and aborted',
    );
    assert.equal((await direct('export', BWL, DISK)).stdout, before, 'the device is unchanged');
    assert.deepEqual(json(await direct('transactions', BWL)), []);
  });
});
