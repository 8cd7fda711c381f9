// A write whose connection is reset after the device committed (the answer is lost) or before the
// request reached it (nothing happened, but the client cannot tell: the request had gone out) is read back, for every kind of write: move, clone, a singleton's
// update, and writes to several VDOMs, where each VDOM is read back and reported on its own. Bulk writes
// to several VDOMs give one result per item and VDOM, in every format, and exit with the most severe.
import { after, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseYaml } from 'yaml';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../helpers/fault-proxy.js';
import { tempDir } from '../helpers/temp.js';

const ACL = 'router/access-list';
const DISK = 'log.disk/setting';
type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let proxy: FaultProxy;
let env: NodeJS.ProcessEnv;
let choose: (line: string) => Fault = () => 'pass';
let hits = 0;

/** The next request whose request line matches `pattern` has its connection reset `when`. */
function lose(pattern: RegExp, when: 'before' | 'after'): void {
  hits = 0;
  choose = (line) => (hits === 0 && pattern.test(line) && ++hits ? when : 'pass');
}

async function run(...args: string[]): Promise<Run> {
  const r = await runInProcess(args, { env, timeoutMs: 60_000 });
  assert.equal(hits, 1, `the write was cut off: ${r.stderr}`);
  return r;
}

/** A run with nothing cut off. */
function plain(...args: string[]): Promise<Run> {
  choose = () => 'pass';
  return runInProcess(args, { env, timeoutMs: 60_000 });
}

function names(vdom: string): string[] {
  return (emu.objects(ACL, vdom) as Obj[]).map((o) => String(o.name));
}

/** The JSON error line on stderr (`-o json`). */
function errorLine(r: Run): { exit: number; message: string; hint: string; outcome?: string } {
  return (
    JSON.parse(r.stderr.trim().split('\n').pop()!) as {
      error: { exit: number; message: string; hint: string; outcome?: string };
    }
  ).error;
}

beforeEach(async () => {
  await proxy?.close();
  await emu?.close();
  emu = await startEmulator({ port: 0 });
  proxy = await startFaultProxy({ target: emu.url, seed: 1, choose: (head) => choose(head.split('\r\n')[0]) });
  env = isolatedEnv({ CMDB_HOST: proxy.url, CMDB_TOKEN: emu.token });
  choose = () => 'pass';
});
after(async () => {
  await proxy?.close();
  await emu?.close();
});

describe('a lost answer read back, in one VDOM', () => {
  test('move: applied when the device moved it, unknown when the request never arrived (it had gone out)', async () => {
    lose(/^PUT \S*router\/access-list\/deny-all\?.*action=move/, 'after');
    const moved = await run('move', ACL, 'deny-all', '--before', '10.0.0.0/8', '--vdom', 'root', '-o', 'json');
    assert.equal(moved.code, 0, moved.stderr);
    assert.deepEqual(JSON.parse(moved.stdout), {
      status: 'success',
      mkey: 'deny-all',
      revision: null,
      vdom: 'root',
      outcome: 'applied',
    });
    assert.deepEqual(names('root'), ['deny-all', '10.0.0.0/8', 'mgmt nets']);

    lose(/^PUT \S*router\/access-list\/deny-all\?.*action=move/, 'before');
    const lost = await run('move', ACL, 'deny-all', '--after', 'mgmt nets', '--vdom', 'root');
    assert.equal(lost.code, 3, lost.stderr);
    assert.match(
      lost.stderr,
      /^cmdb: the connection was lost after the move of router\/access-list "deny-all" after "mgmt nets" was sent: not there when read back; the device may still apply it$/m,
    );
    assert.match(lost.stderr, /hint: check with 'cmdb list router\/access-list --vdom root' before sending it again/);
    assert.deepEqual(names('root'), ['deny-all', '10.0.0.0/8', 'mgmt nets']);
  });

  test('clone: the copy is there (applied) or not (unknown)', async () => {
    lose(/^POST \S*router\/access-list\/deny-all\?.*action=clone/, 'after');
    const cloned = await run('clone', ACL, 'deny-all', 'deny-copy', '--vdom', 'root', '-o', 'json');
    assert.equal(cloned.code, 0, cloned.stderr);
    assert.deepEqual(JSON.parse(cloned.stdout), {
      status: 'success',
      mkey: 'deny-copy',
      revision: null,
      vdom: 'root',
      outcome: 'applied',
    });
    assert.ok(names('root').includes('deny-copy'));

    lose(/^POST \S*router\/access-list\/deny-all\?.*action=clone/, 'before');
    const lost = await run('clone', ACL, 'deny-all', 'deny-copy-2', '--vdom', 'root', '-o', 'json');
    assert.equal(lost.code, 3, lost.stderr);
    assert.match(
      errorLine(lost).message,
      /after the clone of router\/access-list "deny-all" to "deny-copy-2" was sent: not there when read back; the device may still apply it/,
    );
    assert.equal(errorLine(lost).outcome, 'unknown');
    assert.equal(errorLine(lost).exit, 3);
    assert.ok(!names('root').includes('deny-copy-2'));
  });

  test('update of a singleton: its fields read back', async () => {
    lose(/^PUT \S*log\.disk\/setting[ ?]/, 'after');
    const applied = await run('update', DISK, '--set', 'max-log-file-size=33', '-o', 'json');
    assert.equal(applied.code, 0, applied.stderr);
    assert.equal((JSON.parse(applied.stdout) as Obj).outcome, 'applied');
    assert.equal((emu.objects(DISK) as Obj)['max-log-file-size'], 33);

    lose(/^PUT \S*log\.disk\/setting[ ?]/, 'before');
    const lost = await run('update', DISK, '--set', 'max-log-file-size=44');
    assert.equal(lost.code, 3, lost.stderr);
    assert.match(
      lost.stderr,
      /^cmdb: the connection was lost after the write of log\.disk\/setting was sent: not there when read back; the device may still apply it$/m,
    );
    assert.equal((emu.objects(DISK) as Obj)['max-log-file-size'], 33);
  });
});

test('edit: the fields saved in the editor read back', async () => {
  const dir = tempDir('cmdb-lost-edit-');
  const script = join(dir, 'editor.mjs');
  writeFileSync(
    script,
    `import { readFileSync, writeFileSync } from 'node:fs';\nconst f = process.argv[2];\nwriteFileSync(f, readFileSync(f, 'utf8').replace(/^comments: .*$/m, 'comments: ' + process.env.COMMENT));\n`,
  );
  const edit = (comment: string) =>
    cmdb(['edit', ACL, 'deny-all', '--vdom', 'root', '-o', 'json'], {
      env: { ...env, EDITOR: `${process.execPath} ${script}`, COMMENT: comment },
      timeoutMs: 60_000,
    });
  lose(/^PUT \S*router\/access-list\/deny-all\?/, 'after');
  const applied = await edit('kept');
  assert.equal(hits, 1);
  assert.equal(applied.code, 0, applied.stderr);
  assert.equal((JSON.parse(applied.stdout) as Obj).outcome, 'applied');
  lose(/^PUT \S*router\/access-list\/deny-all\?/, 'before');
  const lost = await edit('lost');
  assert.equal(hits, 1);
  assert.equal(lost.code, 3, lost.stderr);
  assert.equal(errorLine(lost).outcome, 'unknown');
  assert.equal((emu.objects(ACL, 'root') as Obj[]).find((o) => o.name === 'deny-all')?.comments, 'kept');
});

describe('a lost answer to a write in several VDOMs: each VDOM read back', () => {
  test('create --vdom root,dmz: applied in root, unknown in dmz (which held another object under the key), exit 3', async () => {
    emu.populate(ACL, 'dmz', [{ name: 'edge', comments: 'already here' }]);
    lose(/^POST \S*router\/access-list\?/, 'after');
    const r = await run(
      'create',
      ACL,
      '--vdom',
      'root,dmz',
      '--data',
      '{"name":"edge","comments":"new"}',
      '-o',
      'json',
    );
    assert.equal(r.code, 3, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, Obj & { error?: { exit: number; message: string } }>;
    assert.deepEqual(Object.keys(out), ['root', 'dmz']);
    assert.deepEqual(out.root, { status: 'success', mkey: 'edge', revision: null, vdom: 'root', outcome: 'applied' });
    assert.equal(out.dmz.status, 'error');
    assert.equal(out.dmz.vdom, 'dmz');
    assert.equal(out.dmz.mkey, 'edge');
    assert.equal(out.dmz.outcome, 'unknown');
    assert.equal(out.dmz.error?.exit, 3);
    assert.match(
      out.dmz.error!.message,
      /after the write of router\/access-list "edge" in vdom dmz was sent: not there when read back; the device may still apply it/,
    );
    assert.equal((emu.objects(ACL, 'root') as Obj[]).find((o) => o.name === 'edge')?.comments, 'new');
    assert.equal((emu.objects(ACL, 'dmz') as Obj[]).find((o) => o.name === 'edge')?.comments, 'already here');
  });

  test('create --vdom root,dmz cut off before it arrived: unknown in each (it had gone out), one line each in a table', async () => {
    lose(/^POST \S*router\/access-list\?/, 'before');
    const r = await run('create', ACL, '--vdom', 'root,dmz', '--data', '{"name":"edge"}', '-o', 'table');
    assert.equal(r.code, 3, r.stderr);
    assert.equal(r.stdout, '');
    for (const vdom of ['root', 'dmz']) {
      assert.match(
        r.stderr,
        new RegExp(
          `^cmdb: the connection was lost after the write of router/access-list "edge" in vdom ${vdom} was sent: not there when read back; the device may still apply it$`,
          'm',
        ),
      );
      assert.ok(!names(vdom).includes('edge'));
    }
  });

  test("delete --vdom '*' and update --vdom root,dmz: applied in each, one ndjson row each", async () => {
    lose(/^DELETE \S*router\/access-list\/deny-all\?/, 'after');
    const deleted = await run('delete', ACL, 'deny-all', '--vdom', '*', '-o', 'ndjson');
    assert.equal(deleted.code, 0, deleted.stderr);
    const rows = deleted.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    assert.deepEqual(
      rows.map((row) => [row.vdom, row.mkey, row.status, row.outcome]),
      [
        ['root', 'deny-all', 'success', 'applied'],
        ['dmz', 'deny-all', 'success', 'applied'],
      ],
    );
    assert.ok(!names('root').includes('deny-all') && !names('dmz').includes('deny-all'));

    lose(/^PUT \S*router\/access-list\/10\.0\.0\.0%2F8\?/, 'after');
    const updated = await run(
      'update',
      ACL,
      '10.0.0.0/8',
      '--set',
      'comments=private',
      '--vdom',
      'root,dmz',
      '-o',
      'table',
    );
    assert.equal(updated.code, 0, updated.stderr);
    assert.equal(
      updated.stdout,
      'updated router/access-list 10.0.0.0/8 in vdom root (the answer was lost; reading it back shows it applied)\nupdated router/access-list 10.0.0.0/8 in vdom dmz (the answer was lost; reading it back shows it applied)\n',
    );
  });

  test('move --vdom root,dmz: applied where it stands right before its anchor', async () => {
    lose(/^PUT \S*router\/access-list\/deny-all\?.*action=move/, 'after');
    const r = await run('move', ACL, 'deny-all', '--before', '10.0.0.0/8', '--vdom', 'root,dmz', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as Record<string, Obj>;
    assert.deepEqual(Object.fromEntries(Object.entries(out).map(([vdom, o]) => [vdom, o.outcome])), {
      root: 'applied',
      dmz: 'applied',
    });
    assert.deepEqual(names('dmz'), ['deny-all', '10.0.0.0/8', 'dmz servers']);
  });
});

describe('bulk writes to several VDOMs: one result per item and VDOM', () => {
  const IPMAC = 'firewall.ipmacbinding/table';
  const items = [601, 602].map((n) => ({ 'seq-num': n, ip: `10.60.0.${n - 600}`, mac: `00:09:0f:60:00:0${n - 600}` }));
  let file: string;
  const write = () => {
    file = join(tempDir('cmdb-bulk-vdoms-'), 'items.ndjson');
    writeFileSync(file, items.map((i) => JSON.stringify(i)).join('\n') + '\n');
  };
  type ResultRow = {
    status: string;
    mkey: number | string;
    vdom: string | null;
    outcome?: string;
    error?: { exit: number; message: string } | string;
  };
  const summary = (rows: ResultRow[]) =>
    rows.map((r) => [
      Number(r.mkey),
      r.vdom,
      r.status,
      r.outcome ?? null,
      typeof r.error === 'string' ? (JSON.parse(r.error) as { exit: number }).exit : (r.error?.exit ?? null),
    ]);

  test('create -f --vdom root,dmz: every item in every VDOM, by key and VDOM in every format; a re-run converges but for the real duplicate', async () => {
    write();
    emu.populate(IPMAC, 'dmz', [{ ...items[1], ip: '10.60.9.9' }]);
    const first = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'json');
    assert.equal(first.code, 7, first.stderr);
    assert.deepEqual(summary(JSON.parse(first.stdout) as ResultRow[]), [
      [601, 'root', 'success', null, null],
      [601, 'dmz', 'success', null, null],
      [602, 'root', 'success', null, null],
      [602, 'dmz', 'error', null, 7],
    ]);
    assert.match(first.stderr, /"message":"1 of 4 failed"/);

    const again = [
      [601, 'root', 'success', 'unchanged', null],
      [601, 'dmz', 'success', 'unchanged', null],
      [602, 'root', 'success', 'unchanged', null],
      [602, 'dmz', 'error', null, 7],
    ];
    const json = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'json');
    assert.equal(json.code, 7, json.stderr);
    const rows = JSON.parse(json.stdout) as ResultRow[];
    assert.deepEqual(summary(rows), again);
    assert.match(
      (rows[3].error as { message: string }).message,
      /firewall\.ipmacbinding\/table "602" already exists in vdom dmz/,
    );
    const yaml = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'yaml');
    assert.equal(yaml.code, 7, yaml.stderr);
    assert.deepEqual(summary(parseYaml(yaml.stdout) as ResultRow[]), again);
    const ndjson = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'ndjson');
    assert.equal(ndjson.code, 7, ndjson.stderr);
    assert.deepEqual(
      summary(
        ndjson.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as ResultRow),
      ),
      again,
    );
    const csv = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'csv');
    assert.equal(csv.code, 7, csv.stderr);
    const [header, ...lines] = csv.stdout.trim().split('\n');
    const columns = header.split(',');
    assert.ok(columns.includes('mkey') && columns.includes('vdom'), header);
    assert.deepEqual(
      lines.map((l) => [l.split(',')[columns.indexOf('mkey')], l.split(',')[columns.indexOf('vdom')]]),
      [
        ['601', 'root'],
        ['601', 'dmz'],
        ['602', 'root'],
        ['602', 'dmz'],
      ],
    );
    const table = await plain('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '-o', 'table');
    assert.equal(table.code, 7, table.stderr);
    assert.equal(
      table.stdout,
      [601, 601, 602]
        .map(
          (n, i) =>
            `created ${IPMAC} ${n} in vdom ${i === 1 ? 'dmz' : 'root'} (already there with the same content: unchanged)\n`,
        )
        .join(''),
    );
    assert.match(table.stderr, /^cmdb: firewall\.ipmacbinding\/table "602" already exists in vdom dmz$/m);
    assert.match(table.stderr, /^cmdb: 1 of 4 failed$/m);
  });

  test("delete --vdom '*' of keys one VDOM lacks: a result per key and VDOM, exit 6", async () => {
    emu.populate(IPMAC, 'root', items);
    emu.populate(IPMAC, 'dmz', [items[0]]);
    const r = await plain('delete', IPMAC, '601', '602', '--vdom', '*', '-o', 'ndjson');
    assert.equal(r.code, 6, r.stderr);
    assert.deepEqual(
      summary(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l) as ResultRow),
      ),
      [
        [601, 'root', 'success', null, null],
        [601, 'dmz', 'success', null, null],
        [602, 'root', 'success', null, null],
        [602, 'dmz', 'error', null, 6],
      ],
    );
    emu.populate(IPMAC, 'root', items);
    const table = await plain('delete', IPMAC, '601', '602', '--vdom', '*', '-o', 'table');
    assert.equal(table.code, 6, table.stderr);
    assert.equal(table.stdout, `deleted ${IPMAC} 601 in vdom root\ndeleted ${IPMAC} 602 in vdom root\n`);
    for (const [key, vdom] of [
      [601, 'dmz'],
      [602, 'dmz'],
    ])
      assert.match(
        table.stderr,
        new RegExp(`^cmdb: firewall\\.ipmacbinding/table "${key}" not found in vdom ${vdom}$`, 'm'),
      );
  });

  test('the exit is the most severe, not the highest: an item of unknown outcome in either VDOM (3) outranks a duplicate (7)', async () => {
    write();
    emu.populate(IPMAC, 'dmz', [{ ...items[1], ip: '10.60.9.9' }]);
    lose(/^POST \S*firewall\.ipmacbinding\/table\?/, 'before');
    const r = await run('create', IPMAC, '-f', file, '--vdom', 'root,dmz', '--concurrency', '1', '-o', 'json');
    assert.equal(r.code, 3, r.stderr);
    assert.deepEqual(summary(JSON.parse(r.stdout) as ResultRow[]), [
      [601, 'root', 'error', 'unknown', 3],
      [601, 'dmz', 'error', 'unknown', 3],
      [602, 'root', 'success', null, null],
      [602, 'dmz', 'error', null, 7],
    ]);
  });
});
