// The commands' options, output formats and errors through the program (in-process,
// test/helpers/inprocess.ts) against the emulator over HTTP; a pipe closed early through the built CLI.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
/** An emulator with no seed and 25 known bindings in dmz, for exact list assertions. */
let plain: RunningEmulator;
let plainEnv: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
const runPlain = (...args: string[]) => runInProcess(args, { env: plainEnv });
const lastQuery = (device = plain) => new URLSearchParams(device.requests.at(-1)!.query);
const BINDINGS = 'firewall.ipmacbinding/table';

function bindings(n: number, from = 1): Obj[] {
  return Array.from({ length: n }, (_, i) => ({
    'seq-num': from + i,
    ip: `10.9.${Math.floor((from + i) / 250)}.${(from + i) % 250}`,
    mac: `00:09:00:00:${((from + i) >> 8).toString(16).padStart(2, '0')}:${((from + i) & 255).toString(16).padStart(2, '0')}`,
    name: `host-${from + i}`,
    status: i % 2 ? 'disable' : 'enable',
  }));
}

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  plain = await startEmulator({ port: 0, seed: 'empty' });
  plainEnv = isolatedEnv({ CMDB_HOST: plain.url, CMDB_TOKEN: plain.token });
  plain.populate(BINDINGS, 'dmz', bindings(25, 100));
});
after(async () => {
  await emu.close();
  await plain.close();
});

describe('list parameters reach the device and shape the answer', () => {
  test('filters: every operator, OR inside one, AND across several', async () => {
    const cases: [string[], (o: Obj) => boolean][] = [
      [['name==HOST-101'], (o) => o.name === 'host-101'],
      [['name!=host-101'], (o) => o.name !== 'host-101'],
      [['name=@-10'], (o) => String(o.name).includes('-10')],
      [['name!@-10'], (o) => !String(o.name).includes('-10')],
      [['seq-num<=103'], (o) => Number(o['seq-num']) <= 103],
      [['seq-num<103'], (o) => Number(o['seq-num']) < 103],
      [['seq-num>=120'], (o) => Number(o['seq-num']) >= 120],
      [['seq-num>120'], (o) => Number(o['seq-num']) > 120],
      [['name==host-101,name==host-102'], (o) => ['host-101', 'host-102'].includes(String(o.name))],
      [['status==enable', 'seq-num<110'], (o) => o.status === 'enable' && Number(o['seq-num']) < 110],
    ];
    const all = plain.objects(BINDINGS, 'dmz') as Obj[];
    for (const [filters, keep] of cases) {
      const r = await runPlain(
        'list',
        BINDINGS,
        '--vdom',
        'dmz',
        ...filters.flatMap((f) => ['--filter', f]),
        '-o',
        'json',
      );
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(lastQuery().getAll('filter'), filters);
      const expected = all.filter(keep).map((o) => o['seq-num']);
      assert.ok(expected.length > 0 && expected.length < all.length, `case ${filters} does not discriminate`);
      assert.deepEqual(
        json<Obj[]>(r).map((o) => o['seq-num']),
        expected,
        filters.join(' AND '),
      );
    }
  });

  test('--fields, --start, --count', async () => {
    const r = await runPlain(
      'list',
      BINDINGS,
      '--vdom',
      'dmz',
      '--fields',
      'seq-num,ip',
      '--start',
      '3',
      '--count',
      '4',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastQuery().get('format'), 'seq-num|ip');
    const out = json<Obj[]>(r);
    assert.deepEqual(
      out.map((o) => o['seq-num']),
      [103, 104, 105, 106],
    );
    for (const o of out)
      assert.deepEqual(
        Object.keys(o)
          .filter((k) => !k.startsWith('q_'))
          .sort(),
        ['ip', 'seq-num'],
      );
  });

  test('--all pages through everything, --count caps the total, ndjson streams one object a line', async () => {
    const r = await runPlain('list', BINDINGS, '--vdom', 'dmz', '--all', '--page-size', '7', '-o', 'ndjson');
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    assert.equal(lines.length, 25);
    const pages = plain.requests.slice(-4).map((q) => new URLSearchParams(q.query));
    assert.deepEqual(
      pages.map((p) => [p.get('start'), p.get('count')]),
      [
        ['0', '7'],
        ['7', '7'],
        ['14', '7'],
        ['21', '7'],
      ],
    );
    const capped = await runPlain(
      'list',
      BINDINGS,
      '--vdom',
      'dmz',
      '--all',
      '--page-size',
      '10',
      '--count',
      '15',
      '-o',
      'json',
    );
    assert.deepEqual(
      json<Obj[]>(capped).map((o) => o['seq-num']),
      bindings(15, 100).map((o) => o['seq-num']),
    );
  });

  test('boolean parameters are sent as 1 and change the answer', async () => {
    const meta = await runPlain('list', BINDINGS, '--vdom', 'dmz', '--with-meta', '--count', '1', '-o', 'json');
    assert.equal(lastQuery().get('with_meta'), '1');
    assert.ok('q_type' in json<Obj[]>(meta)[0] || 'q_ref' in json<Obj[]>(meta)[0]);
    const hash = await runPlain(
      'list',
      BINDINGS,
      '--vdom',
      'dmz',
      '--with-contents-hash',
      '--count',
      '1',
      '-o',
      'json',
    );
    assert.equal(lastQuery().get('with_contents_hash'), '1');
    assert.ok(Object.keys(json<Obj[]>(hash)[0]).some((k) => /hash/.test(k)));
    for (const flag of ['--datasource', '--skip', '--exclude-default-values']) {
      const r = await runPlain('list', BINDINGS, '--vdom', 'dmz', flag, '--count', '1', '-o', 'json');
      assert.equal(r.code, 0, r.stderr);
      assert.equal(
        lastQuery().get(flag.slice(2).replace(/-/g, flag === '--exclude-default-values' ? '-' : '_')),
        '1',
        flag,
      );
    }
  });

  test('--key/--pattern and --scope', async () => {
    const r = await runPlain(
      'list',
      BINDINGS,
      '--vdom',
      'dmz',
      '--key',
      'name',
      '--pattern',
      'host-104',
      '--scope',
      'vdom',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastQuery().get('key'), 'name');
    assert.equal(lastQuery().get('scope'), 'vdom');
    assert.deepEqual(
      json<Obj[]>(r).map((o) => o.name),
      ['host-104'],
    );
  });
});

describe('several VDOMs', () => {
  const ACL = 'router/access-list';
  const names = (vdom: string) => (emu.objects(ACL, vdom) as Obj[]).map((o) => o.name);

  test('json is keyed by VDOM; vdom=* asks every VDOM', async () => {
    const r = await run('list', ACL, '--vdom', 'root,dmz', '-o', 'json');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(lastQuery(emu).get('vdom'), 'root,dmz');
    const out = json<Record<string, Obj[]>>(r);
    assert.deepEqual(Object.keys(out), ['root', 'dmz']);
    assert.deepEqual(
      out.dmz.map((o) => o.name),
      names('dmz'),
    );
    const star = await run('list', ACL, '--vdom', '*', '-o', 'json');
    assert.deepEqual(Object.keys(json(star) as Obj).sort(), [...emu.vdoms].sort());
  });

  test('yaml, ndjson, csv and table carry the VDOM of every object', async () => {
    const yaml = await run('list', ACL, '--vdom', 'root,dmz', '-o', 'yaml');
    assert.match(yaml.stdout, /^root:\n/m);
    assert.match(yaml.stdout, /^dmz:\n/m);
    const nd = await run('list', ACL, '--vdom', 'root,dmz', '-o', 'ndjson');
    const lines = nd.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Obj);
    assert.equal(lines.length, names('root').length + names('dmz').length);
    assert.ok(lines.every((l) => l.vdom === 'root' || l.vdom === 'dmz'));
    const csv = await run('list', ACL, '--vdom', 'root,dmz', '-o', 'csv');
    const [header, ...body] = csv.stdout.trim().split('\n');
    assert.match(header, /^vdom,name/);
    assert.equal(body.length, lines.length);
    const table = await run('list', ACL, '--vdom', 'root,dmz', '-o', 'table');
    assert.match(table.stdout, /root/);
    assert.match(table.stdout, /dmz/);
    assert.ok(!/\x1b\[/.test(table.stdout), 'colour in a pipe');
  });
});

describe('writes', () => {
  test('clone copies under the new key; the path names the source', async () => {
    const source = (emu.objects('router/access-list', 'root') as Obj[])[0];
    const r = await run(
      'clone',
      'router/access-list',
      String(source.name),
      'acl-clone',
      '--vdom',
      'root',
      '-o',
      'json',
    );
    assert.equal(r.code, 0, r.stderr);
    const req = emu.requests.at(-1)!;
    assert.equal(req.method, 'POST');
    assert.equal(req.path, `/api/v2/cmdb/router/access-list/${encodeURIComponent(String(source.name))}`);
    assert.equal(new URLSearchParams(req.query).get('action'), 'clone');
    assert.equal(new URLSearchParams(req.query).get('nkey'), 'acl-clone');
    const clone = (emu.objects('router/access-list', 'root') as Obj[]).find((o) => o.name === 'acl-clone');
    assert.deepEqual(clone?.rule, source.rule);
  });

  test('move changes the order the list shows', async () => {
    const T = 'system.3g-modem/custom';
    emu.populate(
      T,
      'root',
      [31, 32, 33].map((id) => ({ id, vendor: `vendor-${id}`, model: 'm1' })),
    );
    const ids = () => (emu.objects(T, 'root') as Obj[]).map((o) => o.id);
    const before = ids();
    assert.ok(before.length >= 2);
    const last = before.at(-1)!;
    const r = await run('move', T, String(last), '--before', String(before[0]), '--vdom', 'root');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(ids(), [last, ...before.slice(0, -1)]);
    const listed = await run('list', T, '--vdom', 'root', '-o', 'json');
    assert.deepEqual(
      json<Obj[]>(listed).map((o) => o.id),
      ids(),
    );
    const both = await run('move', T, String(last), '--before', '1', '--after', '2');
    assert.equal(both.code, 2);
  });

  test('keys with awkward characters travel percent-encoded and come back literal', async () => {
    for (const name of ['172.16.0.0/12', 'e2e a b', 'e2e x?y', 'e2e 50%', '#e2e', 'e2e café']) {
      const c = await run('create', 'router/access-list', '--set', `name=${name}`, '--vdom', 'root', '-o', 'json');
      assert.equal(c.code, 0, c.stderr);
      const g = await run('get', 'router/access-list', name, '--vdom', 'root', '-o', 'json');
      assert.equal(g.code, 0, g.stderr);
      assert.equal(emu.requests.at(-1)!.path, `/api/v2/cmdb/router/access-list/${encodeURIComponent(name)}`);
      assert.equal(json<Obj>(g).name, name);
      const d = await run('delete', 'router/access-list', name, '--vdom', 'root');
      assert.equal(d.code, 0, d.stderr);
    }
  });

  test('create -f with a list creates each element and reports each; the worst exit code wins', async () => {
    const dir = tempDir('cmdb-bulk-');
    const file = join(dir, 'patterns.yaml');
    writeFileSync(file, '- {id: 201, name: one}\n- {id: 202, name: two}\n- {id: 201, name: dup}\n');
    const r = await run('create', 'dlp/filepattern', '-f', file, '--vdom', 'root', '-o', 'json');
    assert.equal(r.code, 7, r.stderr);
    const out = json<Obj[]>(r);
    assert.deepEqual(
      out.map((o) => o.status),
      ['success', 'success', 'error'],
    );
    assert.equal((out[2].error as Obj).exit, 7);
    const ids = (emu.objects('dlp/filepattern', 'root') as Obj[]).map((o) => o.id);
    assert.ok(ids.includes(201) && ids.includes(202));
  });

  test('create -f of an NDJSON file streams: results in file order; a bad element refuses the file before anything is sent', async () => {
    const dir = tempDir('cmdb-bulk-');
    const file = join(dir, 'patterns.ndjson');
    const ids = Array.from({ length: 60 }, (_, i) => 3000 + i);
    writeFileSync(
      file,
      ids.map((id) => JSON.stringify({ id, name: `nd-${id}`, q_origin_key: id })).join('\n') +
        `\n\n${JSON.stringify({ id: 3000, name: 'dup' })}\n`,
    );
    const r = await run('create', 'dlp/filepattern', '-f', file, '--vdom', 'root', '-o', 'json', '--concurrency', '8');
    assert.equal(r.code, 7, r.stderr);
    const out = json<Obj[]>(r);
    assert.deepEqual(
      out.map((o) => o.mkey),
      [...ids, 3000],
    );
    assert.deepEqual(
      out.map((o) => o.status),
      [...ids.map(() => 'success'), 'error'],
    );
    assert.match(r.stderr, /1 of 61 failed/);
    const table = await run(
      'create',
      'dlp/filepattern',
      '-f',
      file,
      '--vdom',
      'root',
      '--concurrency',
      '3',
      '-o',
      'table',
    );
    // Run again: what is there with the same content is unchanged; only the different 3000 is a duplicate.
    assert.equal(table.code, 7);
    assert.equal(
      (table.stdout.match(/\(already there with the same content: unchanged\)/g) ?? []).length,
      60,
      table.stdout,
    );
    assert.match(table.stderr, /dlp\/filepattern "3000" already exists/);
    assert.match(table.stderr, /1 of 61 failed/);
    for (const id of ids)
      assert.ok((emu.objects('dlp/filepattern', 'root') as Obj[]).some((o) => o.id === id && o.name === `nd-${id}`));
    const bad = join(dir, 'bad.ndjson');
    writeFileSync(bad, '{"id":3100,"name":"fine"}\n{"id":3101,"nmae":"typo"}\n');
    const before = emu.requests.length;
    const refused = await run('create', 'dlp/filepattern', '-f', bad, '--vdom', 'root');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /'nmae' is not a field of dlp\/filepattern/);
    assert.equal(emu.requests.length, before, 'nothing sent');
  });

  test('delete several keys: every result printed, missing ones exit 6', async () => {
    const r = await run('delete', 'dlp/filepattern', '201', '202', '9999', '--vdom', 'root', '-o', 'json');
    assert.equal(r.code, 6, r.stderr);
    assert.deepEqual(
      json<Obj[]>(r).map((o) => o.status),
      ['success', 'success', 'error'],
    );
  });
});

describe('errors reach the user with the right exit code', () => {
  test('404 not found: exit 6, the key and VDOM in the message', async () => {
    const r = await run('get', 'dlp/filepattern', '4242', '--vdom', 'root');
    assert.equal(r.code, 6);
    assert.match(r.stderr, /dlp\/filepattern "4242" not found in vdom root/);
    assert.match(r.stderr, /hint:/);
    assert.equal(r.stdout, '');
  });

  test("duplicate (HTTP 500, -5, as 6.4 answers it): exit 7 with the device's words; JSON error line when -o json", async () => {
    const existing = (emu.objects('dlp/filepattern', 'root') as Obj[])[0].id;
    const r = await run(
      'create',
      'dlp/filepattern',
      '--set',
      `id=${existing}`,
      '--set',
      'name=x',
      '--vdom',
      'root',
      '-o',
      'json',
    );
    assert.equal(r.code, 7);
    const line = JSON.parse(r.stderr.trim().split('\n').at(-1)!) as { error: Obj };
    assert.equal(line.error.exit, 7);
    assert.deepEqual([line.error.status, line.error.code], [500, -5]);
    assert.match(String(line.error.message), /already exists/);
  });

  test('405 for an operation sent with --force that the table does not have: exit 7', async () => {
    const r = await run('--force', 'update', 'certificate/ca', 'Device_CA', '--set', 'range=global');
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /--force/);
    assert.equal(emu.requests.at(-1)!.method, 'PUT');
  });

  test('401 with a wrong token: exit 4', async () => {
    const r = await runInProcess(['list', 'dlp/filepattern'], { env: { ...env, CMDB_TOKEN: 'wrong' } });
    assert.equal(r.code, 4);
    assert.match(r.stderr, /not authenticated/);
    assert.ok(!r.stderr.includes('wrong'), 'the token was echoed');
  });

  test('403 for a token without the access group: exit 5 naming the group', async () => {
    const limited = await startEmulator({ port: 0, tokens: [{ token: 'limited-token-1', groups: ['fwgrp'] }] });
    try {
      const r = await runInProcess(['get', 'log.disk/setting'], {
        env: { ...env, CMDB_HOST: limited.url, CMDB_TOKEN: 'limited-token-1' },
      });
      assert.equal(r.code, 5, r.stderr);
      assert.match(r.stderr, /loggrp/);
      const vdom = await runInProcess(['list', BINDINGS, '--vdom', 'nosuchvdom'], {
        env: { ...env, CMDB_HOST: limited.url, CMDB_TOKEN: 'limited-token-1' },
      });
      assert.ok([5, 6].includes(vdom.code!), vdom.stderr);
    } finally {
      await limited.close();
    }
  });

  test('413 for a body over the device limit: exit 7', async () => {
    const small = await startEmulator({ port: 0, maxBodyBytes: 100 });
    try {
      const r = await runInProcess(
        [
          'create',
          'router/access-list',
          '--set',
          'name=big',
          '--set',
          `comments=${'x'.repeat(120)}`,
          '--set',
          'rule=[{"id":1},{"id":2},{"id":3}]',
        ],
        { env: { ...env, CMDB_HOST: small.url, CMDB_TOKEN: small.token } },
      );
      assert.equal(r.code, 7, r.stderr);
      assert.match(r.stderr, /too large/);
    } finally {
      await small.close();
    }
  });

  test('unreachable device: exit 3, no stack trace', async () => {
    const r = await runInProcess(['list', BINDINGS], { env: { ...env, CMDB_HOST: 'http://127.0.0.1:9' } });
    assert.equal(r.code, 3);
    assert.match(r.stderr, /refused/);
    assert.ok(!/\n\s+at /.test(r.stderr), 'stack trace printed');
  });

  test('usage errors send nothing: exit 2', async () => {
    const before = emu.requests.length;
    const bad = [
      ['get', 'dlp/filepattern', 'seven'],
      ['list', BINDINGS, '--filter', 'name~x'],
      ['list', BINDINGS, '--fields', 'nope'],
      ['create', 'dlp/filepattern', '--set', 'id=1', '--set', 'bogus=1'],
      ['create', 'dlp/filepattern', '--data', '{broken'],
      ['update', 'log.disk/setting', '--set', 'status=maybe'],
      ['delete', 'log.disk/setting', 'x'],
      ['list', BINDINGS, '--vdom', 'a,*'],
      ['list', BINDINGS, '-o', 'xml'],
      ['list', BINDINGS, '--bogus'],
    ];
    for (const args of bad) {
      const r = await run(...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^cmdb: /m);
    }
    assert.equal(emu.requests.length, before);
  });
});

describe('output for people and for scripts', () => {
  test('a singleton in table format is field/value rows; json is the object', async () => {
    const t = await run('get', 'log.disk/setting', '-o', 'table');
    assert.equal(t.code, 0, t.stderr);
    const setting = emu.objects('log.disk/setting', 'root') as Obj;
    const firstField = Object.keys(setting)[0];
    assert.match(t.stdout, new RegExp(`^${firstField}\\s+`, 'm'));
    const y = await run('get', 'log.disk/setting', '-o', 'yaml');
    assert.match(y.stdout, new RegExp(`^${firstField}:`, 'm'));
  });

  test('piped output defaults to compact JSON; --raw prints the envelope', async () => {
    const r = await run('list', 'router/access-list');
    assert.equal(r.stdout.trim().split('\n').length, 1);
    assert.ok(Array.isArray(JSON.parse(r.stdout)));
    const raw = await run('list', 'router/access-list', '--raw');
    const body = JSON.parse(raw.stdout) as Obj;
    assert.equal(body.http_method, 'GET');
    assert.equal(body.version, 'v6.4.14');
  });

  test('--verbose shows each exchange on stderr without the token', async () => {
    const r = await run('get', 'log.disk/setting', '--verbose');
    assert.equal(r.code, 0);
    assert.match(r.stderr, /> GET http:\/\/127\.0\.0\.1:\d+\/api\/v2\/cmdb\/log\.disk\/setting/);
    assert.match(r.stderr, /< 200/);
    assert.ok(!r.stderr.includes(emu.token));
    assert.ok(!r.stdout.includes(emu.token));
  });

  test('the token travels only in the Authorization header, never in a URL', () => {
    for (const device of [emu, plain]) {
      assert.ok(device.requests.length > 10);
      for (const req of device.requests) {
        assert.ok(!`${req.path}?${req.query}`.includes(device.token), `${req.method} ${req.path}?${req.query}`);
        assert.ok(!/access_token/.test(req.query));
      }
      assert.ok(device.requests.filter((r) => r.headers.authorization === `Bearer ${device.token}`).length > 10);
    }
  });
});

describe('pipes', () => {
  test('a reader that stops early (| head -1) ends the run quietly with exit 0', async () => {
    plain.populate(BINDINGS, 'root', bindings(5000, 10_000));
    const { spawn } = await import('node:child_process');
    const { BIN } = await import('../helpers/cli.js');
    const child = spawn(
      process.execPath,
      [BIN, 'list', BINDINGS, '--vdom', 'root', '--all', '--page-size', '500', '-o', 'ndjson'],
      { env: plainEnv },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const first = await new Promise<string>((resolve) =>
      child.stdout.setEncoding('utf8').once('data', (d: string) => resolve(d)),
    );
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.match(first, /^\{"seq-num":10000/);
    assert.equal(code, 0);
    assert.equal(stderr, '');
  });
});
