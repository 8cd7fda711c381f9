// Safe changes through the program (in-process) against the emulator: --dry-run shows the exact requests and
// sends no write; on a terminal, deletes, writes to several VDOMs and device remove ask first.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { cmdbOnTerminal } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
const BINDINGS = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';

/** What the device received from `since` on, as `METHOD path?query`. */
const received = (since: number) =>
  emu.requests.slice(since).map((r) => `${r.method} ${r.path}${r.query ? `?${r.query}` : ''}`);
const writesSince = (since: number) => emu.requests.slice(since).filter((r) => r.method !== 'GET');
const find = (device: RunningEmulator, name: string, vdom = 'root') =>
  (device.objects(ACL, vdom) as Obj[]).find((o) => o.name === name)!;
const seqNums = (vdom = 'root') => (emu.objects(BINDINGS, vdom) as Obj[]).map((o) => o['seq-num']);

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

describe('--dry-run', () => {
  test('every write command prints its requests, one a line, and the device receives nothing', async () => {
    const before = JSON.stringify([emu.objects(BINDINGS), emu.objects(ACL)]);
    const since = emu.requests.length;
    const cases: [string[], string][] = [
      [
        ['create', BINDINGS, '--set', 'seq-num=40', '--set', 'ip=10.1.1.1'],
        `POST /api/v2/cmdb/${BINDINGS}?vdom=root {"seq-num":40,"ip":"10.1.1.1"}`,
      ],
      [
        ['update', ACL, 'mgmt nets', '--set', 'comments=lab'],
        `PUT /api/v2/cmdb/${ACL}/mgmt%20nets?vdom=root {"comments":"lab"}`,
      ],
      [
        ['delete', BINDINGS, '1', '3'],
        `DELETE /api/v2/cmdb/${BINDINGS}/1?vdom=root\nDELETE /api/v2/cmdb/${BINDINGS}/3?vdom=root`,
      ],
      [['clone', BINDINGS, '1', '41'], `POST /api/v2/cmdb/${BINDINGS}/1?vdom=root&action=clone&nkey=41`],
      [
        ['move', ACL, 'deny-all', '--before', '10.0.0.0/8'],
        `PUT /api/v2/cmdb/${ACL}/deny-all?vdom=root&action=move&before=10.0.0.0%2F8`,
      ],
      [['delete', 'router/access-list', '10.0.0.0/8'], 'DELETE /api/v2/cmdb/router/access-list/10.0.0.0%2F8?vdom=root'],
    ];
    for (const [args, expected] of cases) {
      const r = await run(...args, '--vdom', 'root', '--dry-run', '-o', 'table');
      assert.equal(r.code, 0, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stdout, `${expected}\n`, args.join(' '));
    }
    // Reads a plan needs are allowed (deletes of several keys read what uses them): no write, no transaction.
    assert.deepEqual(writesSince(since), [], 'no write reached the device');
    assert.ok(
      received(since).every((r) => r.startsWith('GET ')),
      received(since).join('\n'),
    );
    assert.equal(JSON.stringify([emu.objects(BINDINGS), emu.objects(ACL)]), before);
  });

  test('-o json: an array of {method, path, query, body}; secrets in bodies redacted', async () => {
    const since = emu.requests.length;
    const r = await run(
      'update',
      'log.disk/setting',
      '--set',
      'uploadpass=hunter2',
      '--set',
      'status=enable',
      '--vdom',
      'dmz',
      '--dry-run',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(json(r), [
      {
        method: 'PUT',
        path: '/api/v2/cmdb/log.disk/setting',
        query: 'vdom=dmz',
        body: { uploadpass: '<redacted>', status: 'enable' },
      },
    ]);
    assert.ok(!r.stdout.includes('hunter2') && !r.stderr.includes('hunter2'));
    const bulk = await run('delete', BINDINGS, '4', '5', '--dry-run', '-o', 'json');
    assert.deepEqual(
      json<Obj[]>(bulk).map((q) => [q.method, q.path, q.query, q.body]),
      [
        ['DELETE', `/api/v2/cmdb/${BINDINGS}/4`, '', null],
        ['DELETE', `/api/v2/cmdb/${BINDINGS}/5`, '', null],
      ],
    );
    assert.deepEqual(writesSince(since), []);
  });

  test('a dry run of a write to several VDOMs asks nothing and sends nothing', async () => {
    const since = emu.requests.length;
    const r = await cmdbOnTerminal(
      ['delete', BINDINGS, '2', '--vdom', 'root,dmz', '--dry-run', '-o', 'table'],
      '',
      env,
    );
    assert.equal(r.code, 0, r.stdout);
    assert.doesNotMatch(r.stdout, /\[y\/N\]/);
    assert.match(r.stdout, new RegExp(`^DELETE /api/v2/cmdb/${BINDINGS}/2\\?vdom=root%2Cdmz$`, 'm'));
    assert.deepEqual(writesSince(since), []);
  });
});

describe('confirmations on a terminal', () => {
  test('delete says what it will delete and asks; no keeps the objects (exit 2), yes deletes', async () => {
    const since = emu.requests.length;
    const no = await cmdbOnTerminal(['delete', BINDINGS, '6', '7', '--vdom', 'root'], 'n\r', env);
    assert.equal(no.code, 2, no.stdout);
    assert.match(no.stdout, /delete 2 objects of firewall\.ipmacbinding\/table in vdom root\? \[y\/N\]/);
    assert.match(no.stdout, /^ {2}6, 7$/m);
    assert.match(no.stdout, /cancelled: nothing was changed/);
    assert.deepEqual(writesSince(since), []);
    assert.ok(seqNums().includes(6) && seqNums().includes(7));

    const yes = await cmdbOnTerminal(['delete', BINDINGS, '6', '--vdom', 'root', '-o', 'table'], 'y\r', env);
    assert.equal(yes.code, 0, yes.stdout);
    assert.match(yes.stdout, /delete firewall\.ipmacbinding\/table 6 in vdom root\? \[y\/N\]/);
    assert.ok(!seqNums().includes(6));
  });

  test('--yes skips the question; without a terminal nothing asks', async () => {
    const r = await cmdbOnTerminal(['delete', BINDINGS, '7', '--vdom', 'root', '--yes', '-o', 'table'], '', env);
    assert.equal(r.code, 0, r.stdout);
    assert.doesNotMatch(r.stdout, /\[y\/N\]/);
    assert.ok(!seqNums().includes(7));
    const piped = await runInProcess(['delete', BINDINGS, '8', '--vdom', 'root'], { env, stdin: 'n\n' });
    assert.equal(piped.code, 0, piped.stderr);
    assert.doesNotMatch(piped.stderr, /\[y\/N\]/);
    assert.ok(!seqNums().includes(8));
  });

  test('a write to several VDOMs asks once, naming them', async () => {
    const since = emu.requests.length;
    const comments = (vdom: string) => (emu.objects(ACL, vdom) as Obj[]).find((o) => o.name === '10.0.0.0/8')?.comments;
    const no = await cmdbOnTerminal(
      ['update', ACL, '10.0.0.0/8', '--set', 'comments=both', '--vdom', 'root,dmz'],
      'n\r',
      env,
    );
    assert.equal(no.code, 2, no.stdout);
    assert.match(
      no.stdout,
      /^ {2}\{"comments":"both"\}\nupdate router\/access-list 10\.0\.0\.0\/8 in vdoms root, dmz\? \[y\/N\]/m,
    );
    assert.deepEqual(writesSince(since), []);
    const yes = await cmdbOnTerminal(
      ['update', ACL, '10.0.0.0/8', '--set', 'comments=both', '--vdom', 'root,dmz', '-o', 'json'],
      'y\r',
      env,
    );
    assert.equal(yes.code, 0, yes.stdout);
    assert.equal((yes.stdout.match(/\[y\/N\]/g) ?? []).length, 1);
    assert.deepEqual([comments('root'), comments('dmz')], ['both', 'both']);
    const one = await cmdbOnTerminal(
      ['update', ACL, '10.0.0.0/8', '--set', 'comments=one', '--vdom', 'root', '-o', 'json'],
      '',
      env,
    );
    assert.equal(one.code, 0, one.stdout);
    assert.doesNotMatch(one.stdout, /\[y\/N\]/, 'a write to one VDOM does not ask');
  });

  test('device remove asks; no keeps the profile', async () => {
    const home = isolatedEnv();
    const login = await runInProcess(['login', '--host', emu.url, '--token-stdin', '--insecure-storage', '-d', 'lab'], {
      env: home,
      stdin: `${emu.token}\n`,
    });
    assert.equal(login.code, 0, login.stderr);
    const no = await cmdbOnTerminal(['device', 'remove', 'lab'], 'n\r', home);
    assert.equal(no.code, 2, no.stdout);
    assert.match(
      no.stdout,
      /remove device 'lab' \(http:\/\/127\.0\.0\.1:\d+\) with its saved credential and session\? \[y\/N\]/,
    );
    assert.equal((await runInProcess(['device', 'list', '-o', 'json'], { env: home })).stdout.includes('lab'), true);
    const yes = await cmdbOnTerminal(['device', 'remove', 'lab'], 'y\r', home);
    assert.equal(yes.code, 0, yes.stdout);
    assert.equal((await runInProcess(['device', 'list', '-o', 'json'], { env: home })).stdout.includes('lab'), false);
  });
});

describe('move --top and --bottom', () => {
  const names = () => (emu.objects(ACL, 'dmz') as Obj[]).map((o) => o.name);
  test('read the order, then move in front of the first or behind the last; already there: nothing sent', async () => {
    const start = names();
    assert.ok(start.length >= 2, 'the seed has several access lists in dmz');
    const last = start[start.length - 1] as string;
    let since = emu.requests.length;
    const top = await run('move', ACL, last, '--top', '--vdom', 'dmz', '-o', 'json');
    assert.equal(top.code, 0, top.stderr);
    assert.deepEqual(names(), [last, ...start.slice(0, -1)]);
    assert.deepEqual(
      received(since).filter((r) => r.startsWith('PUT')),
      [
        `PUT /api/v2/cmdb/${ACL}/${encodeURIComponent(last)}?vdom=dmz&action=move&before=${encodeURIComponent(start[0] as string)}`,
      ],
    );

    since = emu.requests.length;
    const again = await run('move', ACL, last, '--top', '--vdom', 'dmz', '-o', 'json');
    assert.equal(again.code, 0, again.stderr);
    assert.match(again.stderr, /already at the top: nothing sent/);
    assert.deepEqual(writesSince(since), []);

    const bottom = await run('move', ACL, last, '--bottom', '--vdom', 'dmz', '-o', 'json');
    assert.equal(bottom.code, 0, bottom.stderr);
    assert.deepEqual(names(), start);
  });

  test('exactly one of --before, --after, --top, --bottom; a missing object is exit 6', async () => {
    for (const args of [['--top', '--bottom'], ['--top', '--before', 'x'], []]) {
      const r = await run('move', ACL, 'deny-all', '--vdom', 'dmz', ...args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /exactly one of --before <key>, --after <key>, --top or --bottom/);
    }
    const since = emu.requests.length;
    const missing = await run('move', ACL, 'no-such', '--bottom', '--vdom', 'dmz');
    assert.equal(missing.code, 6, missing.stderr);
    assert.deepEqual(writesSince(since), []);
  });
});

describe('several devices', () => {
  let second: RunningEmulator;
  let fleet: NodeJS.ProcessEnv;
  before(async () => {
    second = await startEmulator({ port: 0, seed: 'demo' });
    fleet = isolatedEnv();
    for (const [name, device] of [
      ['fw1', emu],
      ['fw2', second],
    ] as const) {
      const r = await runInProcess(['login', '--host', device.url, '--token-stdin', '--insecure-storage', '-d', name], {
        env: fleet,
        stdin: `${device.token}\n`,
      });
      assert.equal(r.code, 0, r.stderr);
    }
  });
  after(() => second.close());
  const writes = (device: RunningEmulator, since: number) =>
    device.requests.slice(since).filter((r) => r.method !== 'GET');

  test('--dry-run: the requests of each device, keyed by device; nothing sent', async () => {
    const since = [emu.requests.length, second.requests.length];
    const r = await runInProcess(
      ['delete', ACL, 'deny-all', '-d', 'fw1,fw2', '--vdom', 'root', '--dry-run', '-o', 'json'],
      {
        env: fleet,
      },
    );
    assert.equal(r.code, 0, r.stderr);
    const request = { method: 'DELETE', path: `/api/v2/cmdb/${ACL}/deny-all`, query: 'vdom=root', body: null };
    assert.deepEqual(json(r), { fw1: [request], fw2: [request] });
    assert.deepEqual([...writes(emu, since[0]), ...writes(second, since[1])], []);
  });

  test('on a terminal a write asks once for all devices (and their VDOMs); no changes none', async () => {
    const since = [emu.requests.length, second.requests.length];
    const args = [
      'update',
      ACL,
      '10.0.0.0/8',
      '--set',
      'comments=fleet',
      '-d',
      'fw1,fw2',
      '--vdom',
      'root,dmz',
      '-o',
      'json',
    ];
    const no = await cmdbOnTerminal(args, 'n\r', fleet);
    assert.equal(no.code, 2, no.stdout);
    assert.match(no.stdout, /update router\/access-list 10\.0\.0\.0\/8 on 2 devices \(fw1, fw2\)\? \[y\/N\]/);
    assert.match(no.stdout, /cancelled: nothing was changed/);
    assert.deepEqual([...writes(emu, since[0]), ...writes(second, since[1])], []);
    const yes = await cmdbOnTerminal(args, 'y\r', fleet);
    assert.equal(yes.code, 0, yes.stdout);
    assert.equal((yes.stdout.match(/\[y\/N\]/g) ?? []).length, 1, yes.stdout);
    assert.equal(writes(emu, since[0]).length + writes(second, since[1]).length, 2);
    assert.deepEqual(
      [find(second, '10.0.0.0/8', 'root').comments, find(second, '10.0.0.0/8', 'dmz').comments],
      ['fleet', 'fleet'],
    );
  });
});

describe('apply and --atomic share the dry run and the question', () => {
  const document = (comments: string) => {
    const dir = tempDir('cmdb-doc-');
    const file = join(dir, 'desired.yaml');
    writeFileSync(
      file,
      `vdoms:\n  root:\n    ${ACL}:\n      - name: deny-all\n        comments: ${comments}\n    log.disk/setting:\n      uploadpass: hunter2\n`,
    );
    return file;
  };

  test('apply --dry-run: the plan and the exact requests, secrets redacted, nothing sent (exit 10)', async () => {
    const since = emu.requests.length;
    const r = await run('apply', '-f', document('from a document'), '--dry-run', '-o', 'json');
    assert.equal(r.code, 10, r.stderr);
    const out = json<{ requests: Obj[] }>(r);
    const byPath = (a: Obj, b: Obj) => String(a.path).localeCompare(String(b.path));
    assert.deepEqual(
      [...out.requests].sort(byPath),
      [
        {
          method: 'PUT',
          path: `/api/v2/cmdb/${ACL}/deny-all`,
          query: 'vdom=root',
          body: { comments: 'from a document' },
        },
        {
          method: 'PUT',
          path: '/api/v2/cmdb/log.disk/setting',
          query: 'vdom=root',
          body: { uploadpass: '<redacted>' },
        },
      ].sort(byPath),
    );
    assert.ok(!r.stdout.includes('hunter2'));
    assert.deepEqual(writesSince(since), []);
    const table = await run('apply', '-f', document('from a document'), '--dry-run', '-o', 'table');
    assert.equal(table.code, 10, table.stderr);
    assert.match(
      table.stdout,
      new RegExp(`^PUT /api/v2/cmdb/${ACL}/deny-all\\?vdom=root \\{"comments":"from a document"\\}$`, 'm'),
    );
    assert.deepEqual(writesSince(since), []);
  });

  test('apply on a terminal asks; no: nothing sent, exit 2 as for every question', async () => {
    const since = emu.requests.length;
    const no = await cmdbOnTerminal(['apply', '-f', document('asked first'), '-o', 'table'], 'n\r', env);
    assert.equal(no.code, 2, no.stdout);
    assert.match(no.stdout, /cancelled: nothing was changed/);
    assert.match(no.stdout, /apply 2 changes\? \[y\/N\]/);
    assert.deepEqual(writesSince(since), []);
    const yes = await cmdbOnTerminal(['apply', '-f', document('asked first'), '-o', 'table', '--yes'], '', env);
    assert.equal(yes.code, 0, yes.stdout);
    assert.doesNotMatch(yes.stdout, /\[y\/N\]/);
    assert.equal(find(emu, 'deny-all').comments, 'asked first');
  });

  test('delete --atomic --dry-run: the deletes, no transaction opened, nothing sent', async () => {
    const since = emu.requests.length;
    const r = await run('delete', BINDINGS, '1', '2', '--atomic', '--vdom', 'root', '--dry-run', '-o', 'table');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(
      r.stdout,
      `DELETE /api/v2/cmdb/${BINDINGS}/1?vdom=root\nDELETE /api/v2/cmdb/${BINDINGS}/2?vdom=root\n`,
    );
    // What uses them is read (the check before sending); nothing written, no transaction opened.
    assert.deepEqual(writesSince(since), []);
    assert.ok(
      received(since).every((r) => r.startsWith('GET ')),
      received(since).join('\n'),
    );
  });
});
