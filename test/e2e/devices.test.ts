// Many devices in one run (CLI.md, "Many devices"): -d lists and patterns over saved profiles, each
// device an emulator of its own, through the program (in-process) over HTTP.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { terminalIO } from '../helpers/tty.js';
import { main } from '../../src/cli/main.js';
import { readdirSync } from 'node:fs';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;
const BINDINGS = 'firewall.ipmacbinding/table';

/** Three healthy devices; their bindings differ so that each device's answer is recognisable. */
const NAMES = ['branch-1', 'branch-2', 'hq'] as const;
const emus: Record<string, RunningEmulator> = {};
/** Profiles of the healthy devices only. */
let healthy: NodeJS.ProcessEnv;
/** The same, plus one unreachable device and one whose token is wrong. */
let mixed: NodeJS.ProcessEnv;

function binding(seq: number, name: string): Obj {
  return {
    'seq-num': seq,
    ip: `10.0.0.${seq}`,
    mac: `00:09:0f:00:00:${String(seq).padStart(2, '0')}`,
    name,
    status: 'enable',
  };
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Writes profiles (secrets in credentials.yaml) for `devices`: name → [host, token, more settings]. */
function profilesEnv(devices: ([string, string, string] | [string, string, string, string])[]): NodeJS.ProcessEnv {
  const env = isolatedEnv();
  const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const config = [
    `default: ${devices.some(([name]) => name === 'hq') ? 'hq' : devices[0][0]}`,
    'devices:',
    ...devices.flatMap(([name, host, , more]) => [
      `  ${name}:`,
      `    host: ${host}`,
      '    auth: token',
      '    secrets: file',
      ...(more ? [`    ${more}`] : []),
    ]),
  ];
  writeFileSync(join(dir, 'config.yaml'), config.join('\n') + '\n', { mode: 0o600 });
  writeFileSync(
    join(dir, 'credentials.yaml'),
    devices.map(([name, , token]) => `${name}: ${token}`).join('\n') + '\n',
    { mode: 0o600 },
  );
  return env;
}

const requestCount = () => Object.values(emus).reduce((n, e) => n + e.requests.length, 0);
const ok = (r: Run) => assert.equal(r.code, 0, r.stderr);

before(async () => {
  for (const [i, name] of NAMES.entries()) {
    emus[name] = await startEmulator({ port: 0, seed: 'empty' });
    emus[name].populate(BINDINGS, 'root', [binding(1, `${name}-a`), binding(2 + i, `${name}-b`)]);
  }
  const devices = NAMES.map((n) => [n, emus[n].url, emus[n].token] as [string, string, string]);
  healthy = profilesEnv(devices);
  mixed = profilesEnv([
    ...devices,
    ['down', `http://127.0.0.1:${await closedPort()}`, 'abcdefghij0123456789abcdefghij'],
    ['wrong-token', emus.hq.url, 'zzzzzzzzzzzzzzzzzzzzzzzzzzzzzz'],
  ]);
});
after(async () => {
  for (const emu of Object.values(emus)) await emu.close();
});

const names = (rows: Obj[]) => rows.map((r) => r.name);

describe('reads keyed by device in every format', () => {
  test('json: an object keyed by device, in the order of the selection', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'hq,branch-1', '-o', 'json'], { env: healthy });
    ok(r);
    const out = json<Record<string, Obj[]>>(r);
    assert.deepEqual(Object.keys(out), ['hq', 'branch-1']);
    assert.deepEqual(names(out.hq), ['hq-a', 'hq-b']);
    assert.deepEqual(names(out['branch-1']), ['branch-1-a', 'branch-1-b']);
  });

  test("a pattern, and '*' for every saved profile (file order)", async () => {
    const pattern = await runInProcess(['list', BINDINGS, '-d', 'branch-*', '-o', 'json'], { env: healthy });
    ok(pattern);
    assert.deepEqual(Object.keys(json<Obj>(pattern)), ['branch-1', 'branch-2']);
    const all = await runInProcess(['list', BINDINGS, '-o', 'json'], { env: { ...healthy, CMDB_DEVICE: '*' } });
    ok(all);
    const out = json<Record<string, Obj[]>>(all);
    assert.deepEqual(Object.keys(out), ['branch-1', 'branch-2', 'hq']);
    assert.deepEqual(names(out['branch-2']), ['branch-2-a', 'branch-2-b']);
    // Keyed even when a pattern matches one device: a script's shape does not depend on the count.
    const one = await runInProcess(['list', BINDINGS, '-d', 'h?', '-o', 'json'], { env: healthy });
    ok(one);
    assert.deepEqual(Object.keys(json<Obj>(one)), ['hq']);
  });

  test('yaml: the same mapping', async () => {
    const r = await runInProcess(['get', BINDINGS, '1', '-d', 'branch-*', '-o', 'yaml', '--fields', 'seq-num,name'], {
      env: healthy,
    });
    ok(r);
    assert.match(r.stdout, /^branch-1:\n {2}seq-num: 1\n/);
    assert.match(r.stdout, /\nbranch-2:\n {2}seq-num: 1\n(.*\n)* {2}name: branch-2-a\n/);
  });

  test('ndjson: every line whole, device first', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', '*', '-o', 'ndjson'], { env: healthy });
    ok(r);
    const lines = r.stdout
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    assert.equal(lines.length, 6);
    for (const line of lines) {
      assert.equal(Object.keys(line)[0], 'device');
      assert.ok(String(line.name).startsWith(`${line.device}-`), JSON.stringify(line));
    }
    assert.deepEqual(lines.map((l) => `${l.device}`).sort(), [
      'branch-1',
      'branch-1',
      'branch-2',
      'branch-2',
      'hq',
      'hq',
    ]);
  });

  test('csv: one header, device first', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'branch-2,hq', '-o', 'csv', '--fields', 'seq-num,name'], {
      env: healthy,
    });
    ok(r);
    assert.equal(r.stdout, 'device,seq-num,name\nbranch-2,1,branch-2-a\nbranch-2,3,branch-2-b\nhq,1,hq-a\nhq,4,hq-b\n');
  });

  test('table: one section per device', async () => {
    const r = await runInProcess(['get', BINDINGS, '1', '-d', 'branch-1,hq', '-o', 'table'], { env: healthy });
    ok(r);
    const sections = r.stdout.split(/^== device: (.+) ==\n/m);
    assert.equal(sections[0], '');
    assert.deepEqual([sections[1], sections[3]], ['branch-1', 'hq']);
    assert.match(sections[2], /^name +branch-1-a$/m);
    assert.match(sections[4], /^name +hq-a$/m);
  });

  test('table: a device with nothing to show has no section (its note names it on stderr)', async () => {
    const r = await runInProcess(
      ['list', BINDINGS, '-d', 'branch-1,branch-2,hq', '-o', 'table', '--filter', 'name==branch-2-b'],
      { env: healthy },
    );
    ok(r);
    assert.deepEqual(
      [...r.stdout.matchAll(/^== device: (.+) ==$/gm)].map((m) => m[1]),
      ['branch-2'],
    );
    assert.match(r.stdout, /^== device: branch-2 ==\nseq-num .*\n3 .*branch-2-b.*\n$/);
    assert.match(r.stderr, /^cmdb: branch-1: nothing matched the filter/m);
    assert.match(r.stderr, /^cmdb: hq: nothing matched the filter/m);
  });

  test("table on a narrow terminal: each device's note on the columns left out follows its own section", async () => {
    const { stdin } = terminalIO();
    let screen = '';
    const show = (s: string | Uint8Array) => ((screen += String(s)), true);
    const io = { stdin, stdout: { isTTY: true, columns: 30, write: show }, stderr: { isTTY: true, write: show } };
    const code = await main(['list', BINDINGS, '-d', 'branch-1,hq', '--no-color'], io, healthy);
    assert.equal(code, 0, screen);
    const lines = screen.split('\n').filter((l) => l && !l.includes('devices'));
    const at = (pattern: RegExp) => lines.findIndex((l) => pattern.test(l));
    const notes = lines.filter((l) => / more columns? /.test(l));
    assert.equal(notes.length, 2, screen);
    assert.ok(at(/^== device: branch-1 ==$/) < at(/^cmdb: branch-1: \d+ more column/), screen);
    assert.ok(at(/^cmdb: branch-1: \d+ more column/) < at(/^== device: hq ==$/), screen);
    assert.ok(at(/\bhq-b\b/) >= 0 && at(/\bhq-b\b/) < at(/^cmdb: hq: \d+ more column/), screen);
  });

  test('--verbose: each exchange line names its device', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'branch-1,hq', '-o', 'json', '-v'], { env: healthy });
    ok(r);
    const exchanges = r.stderr.split('\n').filter((l) => /^\[[^\]]+\] [<>]/.test(l));
    assert.ok(
      exchanges.some((l) => l.startsWith(`[branch-1] > GET ${emus['branch-1'].url}/`)),
      r.stderr,
    );
    assert.ok(
      exchanges.some((l) => l.startsWith(`[hq] > GET ${emus.hq.url}/`)),
      r.stderr,
    );
    assert.ok(exchanges.some((l) => l.startsWith('[hq] < 200')));
    assert.ok(!r.stderr.split('\n').some((l) => /^[<>] /.test(l)), 'no exchange line without its device');
    assert.ok(!r.stderr.includes(emus.hq.token), 'the token stays redacted');
  });

  test('list --all pages on each device: the same documents as one page, in every format', async () => {
    for (const format of ['json', 'yaml', 'csv', 'table', 'ndjson']) {
      const paged = await runInProcess(['list', BINDINGS, '-d', '*', '-o', format, '--all', '--page-size', '1'], {
        env: healthy,
      });
      const whole = await runInProcess(['list', BINDINGS, '-d', '*', '-o', format], { env: healthy });
      ok(paged);
      if (format === 'ndjson') assert.deepEqual(paged.stdout.split('\n').sort(), whole.stdout.split('\n').sort());
      else assert.equal(paged.stdout, whole.stdout, format);
    }
  });

  test('--parallel 1 prints exactly what the default prints', async () => {
    for (const format of ['json', 'yaml', 'csv', 'table']) {
      const one = await runInProcess(['list', BINDINGS, '-d', '*', '-o', format, '--parallel', '1'], { env: healthy });
      const many = await runInProcess(['list', BINDINGS, '-d', '*', '-o', format], { env: healthy });
      ok(one);
      assert.equal(one.stdout, many.stdout, format);
    }
    const one = await runInProcess(['list', BINDINGS, '-d', '*', '-o', 'ndjson', '--parallel', '1'], { env: healthy });
    const many = await runInProcess(['list', BINDINGS, '-d', '*', '-o', 'ndjson', '--parallel', '3'], { env: healthy });
    assert.deepEqual(one.stdout.split('\n').sort(), many.stdout.split('\n').sort());
  });
});

describe('writes on several devices', () => {
  test('a bulk write whose items fail on several devices: each summary names its device', async () => {
    // Keys no device has: every item fails, on each device.
    const r = await runInProcess(['delete', BINDINGS, '9001', '9002', '-d', 'branch-*', '--yes', '-o', 'table'], {
      env: healthy,
    });
    assert.notEqual(r.code, 0, r.stderr);
    for (const name of ['branch-1', 'branch-2']) assert.match(r.stderr, new RegExp(`${name}: 2 of 2 failed`), r.stderr);
  });

  test('create reaches each device; one result per device in json, csv and table', async () => {
    const before = NAMES.map((n) => emus[n].requests.length);
    const r = await runInProcess(
      [
        'create',
        BINDINGS,
        '-d',
        'branch-*',
        '--set',
        'seq-num=20',
        '--set',
        'ip=10.1.1.20',
        '--set',
        'mac=00:09:0f:00:01:20',
        '-o',
        'json',
      ],
      { env: healthy },
    );
    ok(r);
    const out = json<Record<string, Obj>>(r);
    assert.deepEqual(Object.keys(out), ['branch-1', 'branch-2']);
    for (const name of ['branch-1', 'branch-2']) {
      assert.equal(out[name].status, 'success');
      assert.equal(out[name].mkey, 20);
      assert.ok(
        (emus[name].objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === 20 && o.ip === '10.1.1.20'),
        name,
      );
    }
    assert.equal(emus.hq.requests.length, before[2], 'hq was not selected');
    assert.ok(!(emus.hq.objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === 20));

    const csv = await runInProcess(
      [
        'create',
        BINDINGS,
        '-d',
        'branch-*',
        '--set',
        'seq-num=21',
        '--set',
        'ip=10.1.1.21',
        '--set',
        'mac=00:09:0f:00:01:21',
        '-o',
        'csv',
      ],
      { env: healthy },
    );
    ok(csv);
    assert.match(
      csv.stdout,
      /^device,status,mkey,revision,vdom\nbranch-1,success,21,\w+,root\nbranch-2,success,21,\w+,root\n$/,
    );
    const table = await runInProcess(['delete', BINDINGS, '20', '21', '-d', 'branch-*', '-o', 'table'], {
      env: healthy,
    });
    ok(table);
    assert.match(table.stdout, /^== device: branch-1 ==\n(.*\n)*\n== device: branch-2 ==\n/);
    assert.equal((table.stdout.match(/deleted firewall.ipmacbinding\/table 2[01]/g) ?? []).length, 4, table.stdout);
    for (const name of ['branch-1', 'branch-2'])
      assert.ok(!(emus[name].objects(BINDINGS) as Obj[]).some((o) => Number(o['seq-num']) >= 20));
  });

  test("create on '-d a,b' and on '*' in every format: one result per device, one POST each, nothing to the others", async () => {
    const API = `/api/v2/cmdb/${BINDINGS}`;
    const selections: [string, string[]][] = [
      ['hq,branch-1', ['hq', 'branch-1']],
      ['*', ['branch-1', 'branch-2', 'hq']],
    ];
    const result = (seq: number) => ({ status: 'success', mkey: seq, revision: 'REV', vdom: 'root' });
    const expected: Record<string, (devices: string[], seq: number) => string> = {
      table: (devices, seq) =>
        devices.map((d) => `== device: ${d} ==\ncreated ${BINDINGS} ${seq} in vdom root\n`).join('\n'),
      json: (devices, seq) => JSON.stringify(Object.fromEntries(devices.map((d) => [d, result(seq)]))) + '\n',
      yaml: (devices, seq) =>
        devices.map((d) => `${d}:\n  status: success\n  mkey: ${seq}\n  revision: REV\n  vdom: root\n`).join(''),
      ndjson: (devices, seq) => devices.map((d) => JSON.stringify({ device: d, ...result(seq) }) + '\n').join(''),
      csv: (devices, seq) =>
        `device,status,mkey,revision,vdom\n${devices.map((d) => `${d},success,${seq},REV,root\n`).join('')}`,
    };
    let seq = 60;
    for (const format of Object.keys(expected)) {
      for (const [selection, selected] of selections) {
        seq++;
        const body = { 'seq-num': seq, ip: `10.6.6.${seq}`, mac: `00:09:0f:00:06:${seq}` };
        const sent = Object.fromEntries(NAMES.map((n) => [n, emus[n].requests.length]));
        const r = await runInProcess(
          [
            'create',
            BINDINGS,
            '-d',
            selection,
            '--set',
            `seq-num=${seq}`,
            '--set',
            `ip=${body.ip}`,
            '--set',
            `mac=${body.mac}`,
            '-o',
            format,
          ],
          { env: healthy },
        );
        const what = `${format} -d '${selection}'`;
        assert.equal(r.code, 0, `${what}\n${r.stderr}`);
        // Each device's revision is its own; everything else is the exact keyed shape of CLI.md.
        const stdout = r.stdout.replace(/\b[0-9a-f]{32}\b/g, 'REV');
        // ndjson lines come as each device answers: the same lines, in any order.
        if (format === 'ndjson')
          assert.deepEqual(stdout.split('\n').sort(), expected.ndjson(selected, seq).split('\n').sort(), what);
        else assert.equal(stdout, expected[format](selected, seq), what);
        for (const name of NAMES) {
          const received = emus[name].requests.slice(sent[name]).map((q) => ({
            method: q.method,
            path: q.path,
            query: q.query,
            body: q.body ? (JSON.parse(q.body) as Obj) : null,
          }));
          const has = (emus[name].objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === seq);
          if (selected.includes(name)) {
            assert.deepEqual(
              received,
              [{ method: 'POST', path: API, query: '', body }],
              `${what}: ${name} got one POST with the body`,
            );
            assert.ok(has, `${what}: created on ${name}`);
          } else {
            assert.deepEqual(received, [], `${what}: ${name} was not selected`);
            assert.ok(!has, `${what}: not created on ${name}`);
          }
        }
        ok(await runInProcess(['delete', BINDINGS, String(seq), '-d', selection], { env: healthy }));
      }
    }
  });

  test('a refused write on one device: the others still written, the exit its code', async () => {
    emus['branch-2'].populate(BINDINGS, 'root', [binding(30, 'taken')]);
    const r = await runInProcess(
      [
        'create',
        BINDINGS,
        '-d',
        'branch-*',
        '--set',
        'seq-num=30',
        '--set',
        'ip=10.1.1.30',
        '--set',
        'mac=00:09:0f:00:01:30',
        '-o',
        'json',
      ],
      { env: healthy },
    );
    assert.equal(r.code, 7, r.stderr);
    assert.deepEqual(Object.keys(json<Obj>(r)), ['branch-1']);
    const error = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: Obj };
    assert.equal(error.error.device, 'branch-2');
    assert.equal(Object.keys(error.error)[0], 'device');
    assert.equal(error.error.exit, 7);
    await runInProcess(['delete', BINDINGS, '30', '-d', 'branch-*'], { env: healthy });
  });
});

describe('devices that fail do not stop the others', () => {
  test('unreachable and wrong credential among healthy ones: errors named, exit the most severe', async () => {
    for (const format of ['json', 'table']) {
      const r = await runInProcess(['list', BINDINGS, '-d', '*', '-o', format], { env: mixed });
      assert.equal(r.code, 3, `unreachable (3) outranks not authenticated (4)\n${r.stderr}`);
      if (format === 'json') {
        const errors = r.stderr
          .trim()
          .split('\n')
          .slice(1)
          .map((l) => (JSON.parse(l) as { error: Obj }).error);
        assert.deepEqual(errors.map((e) => [e.device, e.exit]).sort(), [
          ['down', 3],
          ['wrong-token', 4],
        ]);
        assert.deepEqual(Object.keys(json<Obj>(r)), ['branch-1', 'branch-2', 'hq']);
      } else {
        assert.match(r.stderr, /^cmdb: down: connection refused/m);
        assert.match(r.stderr, /^cmdb: wrong-token: not authenticated/m);
        assert.deepEqual(
          [...r.stdout.matchAll(/^== device: (.+) ==$/gm)].map((m) => m[1]),
          ['branch-1', 'branch-2', 'hq'],
        );
      }
    }
  });

  test('a device whose certificate changed (pinned) among healthy ones: exit 3 for it alone', async () => {
    const tls = await startEmulator({ port: 0, seed: 'empty', tls: true });
    try {
      const pin = Array.from({ length: 32 }, () => 'AB').join(':');
      const env = profilesEnv([
        ['hq', emus.hq.url, emus.hq.token],
        ['pinned', tls.url, tls.token, `fingerprint: ${pin}`],
      ]);
      const r = await runInProcess(['list', BINDINGS, '-d', '*', '-o', 'json'], { env });
      assert.equal(r.code, 3, r.stderr);
      assert.deepEqual(Object.keys(json<Obj>(r)), ['hq']);
      const { error } = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: Obj };
      assert.equal(error.device, 'pinned');
      assert.match(String(error.message), /certificate/);
      assert.equal(tls.requests.length, 0, 'nothing sent over the unpinned connection');
    } finally {
      await tls.close();
    }
  });

  test('a device that refuses the table (403) among healthy ones: exit 5, its error named', async () => {
    const limited = await startEmulator({
      port: 0,
      seed: 'empty',
      tokens: [{ token: 'limitedaaaaaaaaaaaaaaaaaaaaaaa', groups: ['loggrp'] }],
    });
    try {
      const env = profilesEnv([
        ['hq', emus.hq.url, emus.hq.token],
        ['limited', limited.url, 'limitedaaaaaaaaaaaaaaaaaaaaaaa'],
      ]);
      const r = await runInProcess(['list', BINDINGS, '-d', 'hq,limited', '-o', 'table'], { env });
      assert.equal(r.code, 5, r.stderr);
      assert.deepEqual(
        [...r.stdout.matchAll(/^== device: (.+) ==$/gm)].map((m) => m[1]),
        ['hq'],
      );
      assert.match(r.stderr, /^cmdb: limited: /m);
    } finally {
      await limited.close();
    }
  });

  test('JSON error lines carry the device; a device that failed is left out of stdout', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'hq,wrong-token', '-o', 'ndjson'], { env: mixed });
    assert.equal(r.code, 4);
    const errors = r.stderr
      .trim()
      .split('\n')
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { error: Obj });
    assert.deepEqual(
      errors.map((e) => [e.error.device, e.error.exit, e.error.status]),
      [['wrong-token', 4, 401]],
    );
    assert.deepEqual(
      new Set(
        r.stdout
          .trim()
          .split('\n')
          .map((l) => (JSON.parse(l) as Obj).device),
      ),
      new Set(['hq']),
    );
  });

  test('every device failing: nothing on stdout', async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'down,wrong-token', '-o', 'json'], { env: mixed });
    assert.equal(r.code, 3);
    assert.equal(r.stdout, '');
  });
});

describe('selection errors: nothing sent', () => {
  test('a pattern that matches nothing names the saved profiles', async () => {
    const sent = requestCount();
    const r = await runInProcess(['list', BINDINGS, '-d', 'branch-1,store-*', '-o', 'json'], { env: healthy });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const { error } = JSON.parse(r.stderr) as { error: Obj };
    assert.equal(error.message, "no saved device matches 'store-*'");
    assert.equal(error.hint, "saved devices: branch-1, branch-2, hq ('cmdb device list')");
    assert.equal(requestCount(), sent);
  });

  test('an unknown name in a list, --host with several, a bad --parallel, login on several', async () => {
    const sent = requestCount();
    const unknown = await runInProcess(['list', BINDINGS, '-d', 'hq,nope'], { env: healthy });
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /no device named 'nope'\n {2}hint: saved devices: branch-1, branch-2, hq/);
    const host = await runInProcess(['list', BINDINGS, '-d', '*', '--host', emus.hq.url], { env: healthy });
    assert.equal(host.code, 2);
    assert.match(host.stderr, /names several devices, but --host/);
    const parallel = await runInProcess(['list', BINDINGS, '-d', '*', '--parallel', '0'], { env: healthy });
    assert.equal(parallel.code, 2);
    assert.match(parallel.stderr, /invalid --parallel '0'/);
    const login = await runInProcess(['login', '-d', 'branch-*', '--host', emus.hq.url, '--token-stdin'], {
      env: healthy,
      stdin: emus.hq.token,
    });
    assert.equal(login.code, 2);
    assert.match(login.stderr, /'cmdb login' works on one device/);
    assert.equal(requestCount(), sent);
  });

  test('input errors are the same on every device: said once, without a device', async () => {
    const r = await runInProcess(['get', BINDINGS, 'not-a-number', '-d', '*'], { env: healthy });
    assert.equal(r.code, 2);
    assert.equal(r.stderr.match(/^cmdb: /gm)?.length, 1, r.stderr);
    assert.doesNotMatch(r.stderr, /branch-1:/);
  });

  test('commands that do not use a device ignore a list in CMDB_DEVICE', async () => {
    const r = await runInProcess(['tables', '--area', 'log', '-o', 'json'], {
      env: { ...healthy, CMDB_DEVICE: 'nothing-*' },
    });
    ok(r);
  });
});

describe('device list and device set', () => {
  test('device list: every host whole, auth kind, the default marked', async () => {
    const r = await runInProcess(['device', 'list', '-o', 'table'], { env: mixed });
    ok(r);
    const lines = r.stdout.trimEnd().split('\n');
    assert.deepEqual(lines[0].split(/ {2,}/).slice(0, 4), ['name', 'host', 'auth', 'default']);
    const hq = lines.find((l) => l.startsWith('hq '))!.split(/ {2,}/);
    assert.deepEqual(hq.slice(0, 4), ['hq', emus.hq.url, 'token', '*']);
    assert.equal(lines.filter((l) => / \*( |$)/.test(l)).length, 1);
    const listed = json<Obj[]>(await runInProcess(['device', 'list', '-o', 'json'], { env: mixed }));
    assert.deepEqual(
      listed.map((d) => [d.name, d.default]),
      [
        ['branch-1', false],
        ['branch-2', false],
        ['hq', true],
        ['down', false],
        ['wrong-token', false],
      ],
    );
  });

  test('device set changes vdom, timeout, ca-file and prefix without a login; later runs use them', async () => {
    const env = profilesEnv([['solo', emus.hq.url, emus.hq.token]]);
    const sent = emus.hq.requests.length;
    const set = await runInProcess(['device', 'set', 'solo', 'vdom=dmz', 'timeout=7', '-o', 'json'], { env });
    ok(set);
    assert.deepEqual([json<Obj>(set).vdom, json<Obj>(set).timeout], ['dmz', 7]);
    assert.equal(emus.hq.requests.length, sent, 'nothing is sent to the device');
    const list = await runInProcess(['list', BINDINGS, '-d', 'solo', '-o', 'json'], { env });
    ok(list);
    assert.equal(new URLSearchParams(emus.hq.requests.at(-1)!.query).get('vdom'), 'dmz');
    const ca = join(env.HOME!, 'ca.pem');
    writeFileSync(ca, '-----BEGIN CERTIFICATE-----\n-----END CERTIFICATE-----\n');
    const table = await runInProcess(
      ['device', 'set', 'solo', 'vdom=', 'prefix=/api/v2/cmdb', `ca-file=${ca}`, '-o', 'table'],
      { env },
    );
    ok(table);
    assert.equal(table.stdout.trim(), `Device 'solo': vdom removed, prefix=/api/v2/cmdb, ca-file=${ca}`);
    const shown = json<Obj>(await runInProcess(['device', 'show', 'solo', '-o', 'json'], { env }));
    assert.deepEqual(
      [shown.vdom, shown.timeout, shown.prefix, shown['ca-file'], shown.host],
      [null, 7, '/api/v2/cmdb', ca, emus.hq.url],
    );
  });

  test('device set refuses a bad value, an unknown setting or device, changing nothing', async () => {
    const env = profilesEnv([['solo', emus.hq.url, emus.hq.token]]);
    const file = join(env.XDG_CONFIG_HOME!, 'cmdb', 'config.yaml');
    const before = readFileSync(file, 'utf8');
    for (const [args, message] of [
      [['solo', 'vdom=dmz', 'timeout=soon'], /invalid timeout 'soon'/],
      [['solo', 'host=https://elsewhere'], /'host' is not a setting 'device set' changes/],
      [['solo', 'vdom'], /'vdom' is not key=value/],
      [['solo', 'ca-file=/nonexistent/ca.pem'], /the CA file \/nonexistent\/ca.pem does not exist/],
      [['solo', 'prefix=api'], /invalid prefix 'api'/],
      [['nope', 'vdom=root'], /no device named 'nope'/],
    ] as [string[], RegExp][]) {
      const r = await runInProcess(['device', 'set', ...args], { env });
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, message);
    }
    assert.equal(readFileSync(file, 'utf8'), before);
  });
});

describe('configuration as code on several devices', () => {
  test('export --dir: one file per device, nothing on stdout', async () => {
    const dir = join(tempDir('cmdb-export-'), 'configs');
    const r = await runInProcess(['export', BINDINGS, '-d', '*', '--dir', dir], { env: healthy });
    ok(r);
    assert.equal(r.stdout, '');
    assert.deepEqual(readdirSync(dir).sort(), ['branch-1.yaml', 'branch-2.yaml', 'hq.yaml']);
    for (const name of NAMES) {
      const text = readFileSync(join(dir, `${name}.yaml`), 'utf8');
      assert.match(text, new RegExp(`name: ${name}-a\n`));
      assert.doesNotMatch(
        text,
        new RegExp(
          NAMES.filter((n) => n !== name)
            .map((n) => `${n}-a`)
            .join('|'),
        ),
      );
    }
    const keyed = await runInProcess(['export', BINDINGS, '-d', 'branch-*'], { env: healthy });
    ok(keyed);
    assert.match(
      keyed.stdout,
      /^branch-1:\n {2}device:\n(?: {4}\S.*\n)+ {2}vdoms:\n/,
      'yaml, the export default, keyed by device',
    );
  });

  test("diff --from a reference: each device's drift, the reference read once; exit 10", async () => {
    const gold = emus.hq.requests.length;
    const r = await runInProcess(['diff', '--from', 'hq', BINDINGS, '-d', 'branch-*', '-o', 'json'], { env: healthy });
    assert.equal(r.code, 10, r.stderr);
    const plans = json<Record<string, { create: Obj[]; update: { key: unknown; changes: Obj }[] }>>(r);
    assert.deepEqual(Object.keys(plans), ['branch-1', 'branch-2']);
    assert.deepEqual(
      plans['branch-1'].create.map((c) => c.key),
      [4],
    );
    assert.deepEqual(
      plans['branch-1'].update.map((u) => [u.key, u.changes.name]),
      [[1, { from: 'branch-1-a', to: 'hq-a' }]],
    );
    const reads = emus.hq.requests.slice(gold).filter((q) => q.method === 'GET' && q.path.endsWith(BINDINGS));
    assert.equal(reads.length, 1, 'the reference device is read once for both');
  });

  test('apply one document to several devices: each made to match, the report keyed by device; again: nothing to do', async () => {
    const dir = tempDir('cmdb-apply-');
    const file = join(dir, 'doc.yaml');
    writeFileSync(
      file,
      `vdoms:\n  root:\n    ${BINDINGS}:\n      - seq-num: 40\n        ip: 10.4.4.40\n        mac: 00:09:0f:00:04:40\n        name: from-apply\n`,
    );
    const apply = async (...extra: string[]) => {
      const r = await runInProcess(['apply', '-f', file, '-d', 'branch-*', '-o', 'json', ...extra], { env: healthy });
      ok(r);
      const report = json<Record<string, { applied: Obj[]; failed: unknown }>>(r);
      assert.deepEqual(Object.keys(report), ['branch-1', 'branch-2']);
      return Object.values(report).map((d) => d.applied.length);
    };
    assert.deepEqual(await apply(), [1, 1]);
    for (const name of ['branch-1', 'branch-2'])
      assert.ok(
        (emus[name].objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === 40 && o.name === 'from-apply'),
        name,
      );
    await runInProcess(['delete', BINDINGS, '40', '-d', 'branch-1'], { env: healthy });
    assert.deepEqual(await apply('--atomic'), [1, 0], 'only branch-1 was changed');
    assert.ok((emus['branch-1'].objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === 40));
    assert.deepEqual(await apply(), [0, 0]);
    await runInProcess(['delete', BINDINGS, '40', '-d', 'branch-*'], { env: healthy });
    assert.ok(!(emus.hq.objects(BINDINGS) as Obj[]).some((o) => o['seq-num'] === 40));
  });

  test('a write on several devices asks once on a terminal, naming them; no: nothing is sent', async () => {
    const sent = requestCount();
    const no = terminalIO([
      [/create firewall\.ipmacbinding\/table on 2 devices \(branch-1, branch-2\)\? \[y\/N\] $/, 'n\r'],
    ]);
    const args = [
      'create',
      BINDINGS,
      '-d',
      'branch-*',
      '--set',
      'seq-num=50',
      '--set',
      'ip=10.5.5.50',
      '--set',
      'mac=00:09:0f:00:05:50',
    ];
    assert.equal(await main(args, no, healthy), 2, 'declined: exit 2, as every other question');
    assert.match(no.err(), /cancelled: nothing was changed/);
    assert.deepEqual(no.unanswered(), []);
    assert.equal(requestCount(), sent);
    const yes = terminalIO([
      [/create firewall\.ipmacbinding\/table on 2 devices \(branch-1, branch-2\)\? \[y\/N\] $/, 'y\r'],
    ]);
    assert.equal(await main([...args, '-o', 'json'], yes, healthy), 0, yes.err());
    assert.deepEqual(Object.keys(JSON.parse(yes.out()) as Obj), ['branch-1', 'branch-2']);
    assert.match(yes.err(), /\r\x1b\[K\d\/2 devices/, 'a progress line on the terminal');
    assert.equal((yes.err().match(/\[y\/N\]/g) ?? []).length, 1, 'asked once');
    await runInProcess(['delete', BINDINGS, '50', '-d', 'branch-*'], { env: healthy });
  });
});
