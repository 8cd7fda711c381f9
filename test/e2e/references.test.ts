// References between tables as a user meets them (CLI.md "References between tables"): refs, unused,
// rename, deletes of several keys ordered and checked, and the device's refusals explained with exit 7,
// against the emulator (which refuses dangling writes and deletes in use as a device does), with its
// usage query answering and, through a proxy, answering 404 (the tables that can name an object read).
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { main } from '../../src/cli/main.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { startMeddler, type Meddler } from '../helpers/meddler.js';
import { tempDir } from '../helpers/temp.js';
import { terminalIO } from '../helpers/tty.js';

type Obj = Record<string, unknown>;
const USAGE = '/api/v2/monitor/system/object/usage';

/** A demo device, and the same device behind a proxy whose usage query answers 404 (an older release). */
interface Device {
  emu: RunningEmulator;
  env: NodeJS.ProcessEnv;
  proxy: Meddler;
  /** Requests the proxy answered itself (the usage query). */
  refused: string[];
  noUsage: NodeJS.ProcessEnv;
}

const started: Device[] = [];

async function device(seed: 'demo' | 'empty' = 'demo'): Promise<Device> {
  const emu = await startEmulator({ port: 0, seed });
  const refused: string[] = [];
  const proxy = await startMeddler(emu.url, async (req) => {
    if (!req.url?.startsWith(USAGE)) return;
    refused.push(req.url);
    return {
      status: 404,
      body: JSON.stringify({ http_method: 'GET', status: 'error', http_status: 404, error: -3, vdom: 'root' }),
    };
  });
  const d = {
    emu,
    env: isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token }),
    proxy,
    refused,
    noUsage: isolatedEnv({ CMDB_HOST: proxy.url, CMDB_TOKEN: emu.token }),
  };
  started.push(d);
  return d;
}

after(async () => {
  for (const d of started) {
    await d.proxy.close();
    await d.emu.close();
  }
});

const ok = (r: Run & { code: number }) => assert.equal(r.code, 0, r.stderr);
const writes = (emu: RunningEmulator) =>
  emu.requests.filter((r) => r.method !== 'GET' && r.path.startsWith('/api/v2/cmdb/'));
const run = (args: string[], env: NodeJS.ProcessEnv) => runInProcess(args, { env });

let shared: Device;
before(async () => {
  shared = await device();
});

for (const usage of ['the usage query', 'reading the tables (no usage query)'] as const) {
  const envOf = (d: Device) => (usage === 'the usage query' ? d.env : d.noUsage);

  describe(`cmdb refs, from ${usage}`, () => {
    test('one row per object and field naming the object, in JSON and as a table', async () => {
      const r = await run(['refs', 'firewall/address', 'lan-net', '-o', 'json'], envOf(shared));
      ok(r);
      const rows = json<Obj[]>(r);
      const has = (row: Obj) => rows.some((x) => JSON.stringify(x) === JSON.stringify(row));
      assert.ok(has({ vdom: 'root', table: 'firewall/addrgrp', key: 'internal-nets', field: 'member' }), r.stdout);
      assert.ok(has({ vdom: 'root', table: 'firewall/policy', key: 1, field: 'srcaddr' }), r.stdout);
      assert.ok(has({ vdom: 'root', table: 'firewall/policy', key: 3, field: 'srcaddr' }), r.stdout);
      assert.equal(rows.length, 3, r.stdout);
      if (usage !== 'the usage query') assert.ok(shared.refused.length > 0, 'the usage query was asked first');
      const table = await run(['refs', 'firewall/address', 'lan-net', '-o', 'table'], envOf(shared));
      ok(table);
      assert.match(table.stdout, /^vdom +table +key +field\n/);
      assert.match(table.stdout, /root +firewall\/addrgrp +internal-nets +member/);
    });

    test('an object nothing uses prints nothing, exit 0; a key the table lacks exits 6; a singleton 2', async () => {
      const none = await run(['refs', 'firewall/address', 'dhcp-pool', '-o', 'table'], envOf(shared));
      ok(none);
      assert.equal(none.stdout, '');
      const empty = await run(['refs', 'firewall/address', 'dhcp-pool', '-o', 'json'], envOf(shared));
      assert.deepEqual(json(empty), []);
      const missing = await run(['refs', 'firewall/address', 'no-such'], envOf(shared));
      assert.equal(missing.code, 6, missing.stderr);
      assert.match(missing.stderr, /firewall\/address "no-such" not found/);
      const singleton = await run(['refs', 'system/dns', 'x'], envOf(shared));
      assert.equal(singleton.code, 2, singleton.stderr);
    });

    test('every VDOM of --vdom', async () => {
      const r = await run(
        ['refs', 'firewall.schedule/recurring', 'always', '--vdom', '*', '-o', 'json'],
        envOf(shared),
      );
      ok(r);
      const vdoms = new Set(json<Obj[]>(r).map((row) => row.vdom));
      assert.deepEqual([...vdoms].sort(), ['dmz', 'root']);
    });
  });

  describe(`cmdb unused, from ${usage}`, () => {
    test('the objects nothing names; factory objects never', async () => {
      const r = await run(['unused', 'firewall/address', '-o', 'json'], envOf(shared));
      ok(r);
      assert.deepEqual(json(r), [{ vdom: 'root', table: 'firewall/address', key: 'dhcp-pool' }]);
    });
  });

  describe(`a delete refused as in use, explained from ${usage}`, () => {
    test('names every user, exit 7, with a hint that runs', async () => {
      const r = await run(['delete', 'firewall/address', 'lan-net'], envOf(shared));
      assert.equal(r.code, 7, r.stderr);
      assert.match(
        r.stderr,
        /lan-net is used by firewall\/addrgrp internal-nets \(member\), firewall\/policy 1 \(srcaddr\) and firewall\/policy 3 \(srcaddr\)/,
      );
      assert.match(r.stderr, /device said: .*-23/s);
      const hint = /'(cmdb refs [^']+)'/.exec(r.stderr)?.[1];
      assert.equal(hint, 'cmdb refs firewall/address lan-net');
      ok(await run(hint!.split(' ').slice(1), envOf(shared)));
    });
  });
}

describe('cmdb unused: an object named only by unused objects, and --delete', () => {
  test('a group nothing uses and its member are listed, deleted group first', async () => {
    const d = await device();
    ok(await run(['create', 'firewall/addrgrp', '--set', 'name=g1', '--set', 'member=dhcp-pool'], d.env));
    ok(await run(['create', 'firewall/addrgrp', '--set', 'name=g2', '--set', 'member=g1'], d.env));
    const list = await run(['unused', 'firewall/address', 'firewall/addrgrp', '-o', 'json'], d.env);
    ok(list);
    const keys = json<Obj[]>(list).map((row) => row.key);
    assert.deepEqual([...keys].sort(), ['dhcp-pool', 'g1', 'g2']);
    const before = writes(d.emu).length;
    const dry = await run(
      ['unused', 'firewall/address', 'firewall/addrgrp', '--delete', '--dry-run', '-o', 'json'],
      d.env,
    );
    ok(dry);
    assert.deepEqual(
      json<{ method: string; path: string }[]>(dry).map((q) => `${q.method} ${q.path}`),
      [
        'DELETE /api/v2/cmdb/firewall/addrgrp/g2',
        'DELETE /api/v2/cmdb/firewall/addrgrp/g1',
        'DELETE /api/v2/cmdb/firewall/address/dhcp-pool',
      ],
    );
    assert.equal(writes(d.emu).length, before, 'a dry run sends no write');
    ok(await run(['unused', 'firewall/address', 'firewall/addrgrp', '--delete', '--yes'], d.env));
    const after = await run(['unused', 'firewall/address', 'firewall/addrgrp', '-o', 'json'], d.env);
    assert.deepEqual(json(after), []);
  });

  test('a table nothing can name is a usage error; --dry-run without --delete too', async () => {
    const r = await run(['unused', 'firewall/policy'], shared.env);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /nothing can name an object of firewall\/policy/);
    assert.equal((await run(['unused', '--dry-run'], shared.env)).code, 2);
  });

  test('the default tables', async () => {
    const r = await run(['unused', '-o', 'json'], shared.env);
    ok(r);
    const tables = new Set(json<Obj[]>(r).map((row) => row.table));
    assert.ok(tables.has('firewall/address'), r.stdout);
    assert.ok(![...tables].some((t) => t === 'firewall/policy'), r.stdout);
  });
});

describe('cmdb rename', () => {
  test('a PUT of the new key; the objects naming it follow; the result has the new mkey', async () => {
    const d = await device();
    const r = await run(['rename', 'firewall/address', 'dmz-net', 'dmz-lan', '-o', 'json'], d.env);
    ok(r);
    assert.equal(json<Obj>(r).mkey, 'dmz-lan');
    const sent = writes(d.emu);
    assert.deepEqual(
      sent.map((q) => [q.method, q.path, q.body]),
      [['PUT', '/api/v2/cmdb/firewall/address/dmz-net', '{"name":"dmz-lan"}']],
    );
    const refs = await run(['refs', 'firewall/address', 'dmz-lan', '-o', 'json'], d.env);
    assert.ok(json<Obj[]>(refs).some((row) => row.table === 'firewall/policy' && row.field === 'dstaddr'));
  });

  test('--dry-run sends nothing; integer keys and singletons exit 2', async () => {
    const d = await device();
    const dry = await run(['rename', 'firewall/address', 'dmz-net', 'dmz-lan', '--dry-run', '-o', 'json'], d.env);
    ok(dry);
    assert.deepEqual(json(dry), [
      { method: 'PUT', path: '/api/v2/cmdb/firewall/address/dmz-net', query: '', body: { name: 'dmz-lan' } },
    ]);
    const integer = await run(['rename', 'firewall/policy', '1', '7'], d.env);
    assert.equal(integer.code, 2, integer.stderr);
    const singleton = await run(['rename', 'system/dns', 'a', 'b'], d.env);
    assert.equal(singleton.code, 2, singleton.stderr);
    assert.deepEqual(writes(d.emu), []);
  });
});

describe('writes refused for a reference: the field, the value and where, exit 7', () => {
  const policy = ['--set', 'name=p', '--set', 'dstaddr=all', '--set', 'service=ALL', '--set', 'schedule=always'];

  test('-3: an address the device does not have', async () => {
    const r = await run(
      [
        'create',
        'firewall/policy',
        ...policy,
        '--set',
        'srcintf=port1',
        '--set',
        'dstintf=port2',
        '--set',
        'srcaddr=nope',
      ],
      shared.env,
    );
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /srcaddr names "nope", which is not in firewall\/address, firewall\/addrgrp/);
    assert.match(r.stderr, /device said: /);
    const update = await run(['update', 'firewall/policy', '1', '--set', 'dstaddr=nope', '-o', 'json'], shared.env);
    assert.equal(update.code, 7, update.stderr);
    assert.match(
      json<{ error: { message: string } }>({ ...update, stdout: update.stderr }).error.message,
      /dstaddr names "nope"/,
    );
  });

  test('-651: an interface the device does not have', async () => {
    const r = await run(
      [
        'create',
        'firewall/policy',
        ...policy,
        '--set',
        'srcintf=portX',
        '--set',
        'dstintf=port2',
        '--set',
        'srcaddr=all',
      ],
      shared.env,
    );
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /srcintf names "portX", which is not in system\/interface/);
  });

  test('a bulk create: checked before sending (exit 2); with --force the item refused exits 7 after every item', async () => {
    const dir = tempDir('cmdb-refs-');
    const file = join(dir, 'routes.json');
    writeFileSync(
      file,
      JSON.stringify([
        { 'seq-num': 71, dst: '10.71.0.0/16', device: 'port1' },
        { 'seq-num': 72, dst: '10.72.0.0/16', device: 'no-such-port' },
      ]),
    );
    const d = await device();
    const checked = await run(['create', 'router/static', '-f', file, '-o', 'json'], d.env);
    assert.equal(checked.code, 2, checked.stderr);
    assert.match(checked.stderr, /router\/static 72 device names system\/interface "no-such-port"/);
    const r = await run(['create', 'router/static', '-f', file, '--force', '-o', 'json'], d.env);
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stdout + r.stderr, /device names \\?"no-such-port\\?"/);
    assert.match(r.stdout, /"seq-num":71|"mkey":71/, 'the other item was created');
  });

  test('a create missing an attribute names the required fields the body lacks', async () => {
    const r = await run(['create', 'firewall/policy', '--set', 'name=p'], shared.env);
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /marks as required: srcintf, dstintf/);
  });
});

describe('delete of several keys: ordered by references, checked before sending', () => {
  test('a group before the group it is a member of', async () => {
    const d = await device();
    ok(await run(['create', 'firewall/addrgrp', '--set', 'name=g1', '--set', 'member=dhcp-pool'], d.env));
    ok(await run(['create', 'firewall/addrgrp', '--set', 'name=g2', '--set', 'member=g1'], d.env));
    const r = await run(['delete', 'firewall/addrgrp', 'g1', 'g2', '--yes'], d.env);
    ok(r);
    assert.deepEqual(
      writes(d.emu)
        .filter((q) => q.method === 'DELETE')
        .map((q) => q.path),
      ['/api/v2/cmdb/firewall/addrgrp/g2', '/api/v2/cmdb/firewall/addrgrp/g1'],
    );
  });

  test('an object still named by one not deleted: exit 2, listed, nothing sent; --force sends', async () => {
    const d = await device();
    const r = await run(['delete', 'firewall/address', 'lan-net', 'dhcp-pool'], d.noUsage);
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /firewall\/policy 1 srcaddr names firewall\/address "lan-net"/);
    assert.match(r.stderr, /firewall\/addrgrp internal-nets member names firewall\/address "lan-net"/);
    assert.deepEqual(writes(d.emu), []);
    const forced = await run(['delete', 'firewall/address', 'lan-net', 'dhcp-pool', '--force', '-o', 'json'], d.env);
    assert.equal(forced.code, 7, forced.stderr);
    assert.equal(writes(d.emu).filter((q) => q.method === 'DELETE').length, 2);
  });

  test("on a terminal, an object's users before the question", async () => {
    const d = await device();
    const io = terminalIO([[/delete firewall\/address lan-net\?.*\[y\/N\] $/s, 'n\r']]);
    const code = await main(['delete', 'firewall/address', 'lan-net', '--no-color'], io, d.env);
    assert.equal(code, 2, io.err());
    assert.match(io.err(), /lan-net is used by firewall\/addrgrp internal-nets \(member\)[^\n]*\n(.*\n)*.*\[y\/N\]/);
    assert.deepEqual(writes(d.emu), []);
  });
});

describe('many devices: -d a,b', () => {
  let env: NodeJS.ProcessEnv;
  let a: Device;
  let b: Device;
  before(async () => {
    a = await device();
    b = await device();
    env = isolatedEnv();
    const dir = join(env.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const profile = (name: string, d: Device) => [
      `  ${name}:`,
      `    host: ${d.emu.url}`,
      '    auth: token',
      '    secrets: file',
    ];
    writeFileSync(
      join(dir, 'config.yaml'),
      ['default: a', 'devices:', ...profile('a', a), ...profile('b', b)].join('\n') + '\n',
      { mode: 0o600 },
    );
    writeFileSync(join(dir, 'credentials.yaml'), `a: ${a.emu.token}\nb: ${b.emu.token}\n`, { mode: 0o600 });
  });

  test('refs and unused keyed by device', async () => {
    const refs = await run(['refs', 'firewall/address', 'lan-net', '-d', 'a,b', '-o', 'json'], env);
    ok(refs);
    const byDevice = json<Record<string, Obj[]>>(refs);
    assert.deepEqual(Object.keys(byDevice), ['a', 'b']);
    assert.equal(byDevice.b.length, 3);
    const unused = await run(['unused', 'firewall/address', '-d', 'a,b', '-o', 'json'], env);
    ok(unused);
    assert.deepEqual(json<Record<string, Obj[]>>(unused).a, [
      { vdom: 'root', table: 'firewall/address', key: 'dhcp-pool' },
    ]);
  });

  test('a delete in use on every device exits 7; a rename dry run sends nothing', async () => {
    const r = await run(['delete', 'firewall/address', 'lan-net', '-d', 'a,b', '--yes'], env);
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /a: .*lan-net is used by/);
    assert.match(r.stderr, /b: .*lan-net is used by/);
    const dry = await run(
      ['rename', 'firewall/address', 'dmz-net', 'dmz-lan', '-d', 'a,b', '--dry-run', '-o', 'json'],
      env,
    );
    ok(dry);
    assert.deepEqual(Object.keys(json<Obj>(dry)), ['a', 'b']);
    assert.deepEqual(
      [...writes(a.emu), ...writes(b.emu)].filter((q) => q.method !== 'DELETE'),
      [],
    );
  });
});
