// Files in the device's own syntax read wherever a document or body is read (CLI.md "The device's own
// syntax"): diff, apply, create -f, stdin, --dir; every verb as a plan step; a snippet and a backup; errors
// naming the file and line with nothing sent. In-process against the emulator, asserting on what it received.
import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type ReceivedRequest, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
let dir: string;
const run = (args: string[], stdin?: string) => runInProcess(args, { env, stdin, timeoutMs: 60_000 });
const writesSince = (mark: number): ReceivedRequest[] => emu.requests.slice(mark).filter((r) => r.method !== 'GET');
const file = (name: string, ...lines: string[]) => {
  const path = join(dir, name);
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
};
const objects = (table: string, vdom = 'root') => emu.objects(table, vdom) as Obj[];
const keys = (table: string, key: string, vdom = 'root') => objects(table, vdom).map((o) => o[key]);
const find = (table: string, key: string, value: unknown, vdom = 'root') =>
  objects(table, vdom).find((o) => o[key] === value);

function expectCode(r: Run, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout.slice(0, 3000)}\nstderr:\n${r.stderr}`);
}

async function device(method: string, path: string, body?: unknown): Promise<void> {
  const res = await fetch(`${emu.url}/api/v2/cmdb/${path}`, {
    method,
    headers: { Authorization: `Bearer ${emu.token}`, 'Content-Type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${method} ${path}: ${await res.text()}`);
}

beforeEach(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  dir = tempDir('cmdb-conf-');
});
afterEach(async () => {
  await emu.close();
});

/** A snippet as the vendor's documentation writes one: addresses, a group, a policy under key 0 with a name. */
const SNIPPET = [
  'config firewall address',
  '    edit "doc-net"',
  '        set subnet 10.0.0.0 255.255.255.0',
  '    next',
  '    edit "doc-host"',
  '        set subnet 10.0.0.5/32',
  '        set comment "the documentation\'s host"',
  '    next',
  'end',
  'config firewall addrgrp',
  '    edit "doc-grp"',
  '        set member "doc-net" "doc-host"',
  '    next',
  'end',
  'config firewall policy',
  '    edit 0',
  '        set name "doc-policy"',
  '        set srcintf "port1"',
  '        set dstintf "port2"',
  '        set srcaddr "doc-grp"',
  '        set dstaddr "all"',
  '        set action accept',
  '        set schedule "always"',
  '        set service "HTTPS" "SSH"',
  '    next',
  'end',
];

describe('a snippet from the documentation', () => {
  test('applies as it is (key 0: the device picks the number); diff then says in sync, the policy found by its name', async () => {
    const path = file('snippet.conf', ...SNIPPET);
    const before = keys('firewall/policy', 'policyid');
    const mark = emu.requests.length;
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.deepEqual(
      writesSince(mark).map((r) => `${r.method} ${r.path}`),
      [
        'POST /api/v2/cmdb/firewall/address',
        'POST /api/v2/cmdb/firewall/address',
        'POST /api/v2/cmdb/firewall/addrgrp',
        'POST /api/v2/cmdb/firewall/policy',
      ],
    );
    assert.equal(find('firewall/address', 'name', 'doc-net')?.subnet, '10.0.0.0 255.255.255.0');
    assert.equal(find('firewall/address', 'name', 'doc-host')?.comment, "the documentation's host");
    const policy = find('firewall/policy', 'name', 'doc-policy')!;
    assert.ok(!before.includes(policy.policyid) && policy.policyid !== 0, 'a key the device picked');
    assert.deepEqual(policy.service, [{ name: 'HTTPS' }, { name: 'SSH' }]);
    const again = await run(['diff', '-f', path, '-o', 'json']);
    expectCode(again, 0);
    assert.deepEqual(json(again), { create: [], update: [], move: [], delete: [] });
  });

  test('from standard input (-f -), the same plan', async () => {
    const r = await run(['diff', '-f', '-', '-o', 'json'], `${SNIPPET.join('\n')}\n`);
    expectCode(r, 10);
    const plan = json<{ create: Obj[] }>(r);
    assert.deepEqual(
      plan.create.map((c) => `${c.table} ${c.key}`),
      ['firewall/address doc-net', 'firewall/address doc-host', 'firewall/addrgrp doc-grp', 'firewall/policy 0'],
    );
  });

  test('outside any config vdom block the tables go to the --vdom VDOM; global tables to the device', async () => {
    const path = file(
      'dmz.conf',
      'config firewall address',
      '    edit "dmz-only"',
      '        set subnet 172.16.9.0 255.255.255.0',
      '    next',
      'end',
      'config system dns',
      '    set primary 9.9.9.9',
      'end',
    );
    const r = await run(['diff', '-f', path, '--vdom', 'dmz', '-o', 'json']);
    expectCode(r, 10);
    const plan = json<{ create: Obj[]; update: Obj[] }>(r);
    assert.deepEqual(
      plan.create.map((c) => [c.vdom, c.key]),
      [['dmz', 'dmz-only']],
    );
    assert.deepEqual(
      plan.update.map((u) => [u.vdom, u.table]),
      [[null, 'system/dns']],
    );
    const several = await run(['diff', '-f', path, '--vdom', 'root,dmz']);
    expectCode(several, 2);
    assert.match(several.stderr, /has no config vdom blocks/);
  });

  test("a backup's layout: config vdom / edit <vdom> blocks and config global", async () => {
    const path = file(
      'layout.conf',
      'config vdom',
      'edit root',
      'next',
      'edit dmz',
      'next',
      'end',
      'config global',
      'config system dns',
      '    set secondary 8.8.4.4',
      'end',
      'end',
      'config vdom',
      'edit dmz',
      'config firewall address',
      '    edit "in-dmz"',
      '        set subnet 172.16.8.0 255.255.255.0',
      '    next',
      'end',
      'next',
      'end',
    );
    const r = await run(['apply', '-f', path, '--yes', '-o', 'json']);
    expectCode(r, 0);
    assert.ok(find('firewall/address', 'name', 'in-dmz', 'dmz'));
    assert.ok(!find('firewall/address', 'name', 'in-dmz', 'root'));
    assert.equal((emu.objects('system/dns', 'root') as Obj).secondary, '8.8.4.4');
  });
});

describe('the verbs, each a step of the plan', () => {
  test("append and unselect change the device's list; unset returns a field to its default; a second run finds nothing to do", async () => {
    await device('PUT', 'firewall/address/lan-net?vdom=root', { comment: 'to clear' });
    const members = () => (find('firewall/addrgrp', 'name', 'internal-nets')!.member as Obj[]).map((m) => m.name);
    const had = members();
    assert.ok(had.length >= 2, `internal-nets has members: ${had}`);
    const path = file(
      'verbs.conf',
      'config firewall addrgrp',
      '    edit "internal-nets"',
      '        append member "web-server"',
      `        unselect member "${had[0]}"`,
      '    next',
      'end',
      'config firewall address',
      '    edit "lan-net"',
      '        unset comment',
      '    next',
      'end',
    );
    const dry = await run(['apply', '-f', path, '--dry-run', '-o', 'json']);
    expectCode(dry, 10);
    const requests = json<{ requests: { method: string; path: string; body: Obj }[] }>(dry).requests;
    assert.deepEqual(
      requests.map((q) => [q.method, q.path, q.body]),
      [
        [
          'PUT',
          '/api/v2/cmdb/firewall/addrgrp/internal-nets',
          { member: [...had.slice(1), 'web-server'].map((name) => ({ name })) },
        ],
        ['PUT', '/api/v2/cmdb/firewall/address/lan-net', { comment: '' }],
      ],
    );
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.deepEqual(members(), [...had.slice(1), 'web-server']);
    assert.equal(find('firewall/address', 'name', 'lan-net')!.comment, '');
    expectCode(await run(['diff', '-f', path]), 0);
  });

  test("unset takes the device's default where the catalogue gives none (?action=default)", async () => {
    assert.equal(find('firewall.service/custom', 'name', 'PING')!.icmptype, 8);
    const path = file(
      'unset.conf',
      'config firewall service custom',
      '    edit "PING"',
      '        unset icmptype',
      '    next',
      'end',
    );
    const plan = await run(['diff', '-f', path, '-o', 'json']);
    expectCode(plan, 10);
    assert.deepEqual(json<{ update: Obj[] }>(plan).update, [
      { vdom: 'root', table: 'firewall.service/custom', key: 'PING', changes: { icmptype: { from: 8, to: 0 } } },
    ]);
  });

  test('append and unselect on a multi-value option (one string of words on the device)', async () => {
    await device('PUT', 'system/interface/port1?vdom=root', { allowaccess: 'ping https' });
    const path = file(
      'access.conf',
      'config system interface',
      '    edit "port1"',
      '        append allowaccess ssh https',
      '        unselect allowaccess ping',
      '    next',
      'end',
    );
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.equal(find('system/interface', 'name', 'port1')!.allowaccess, 'https ssh');
    expectCode(await run(['diff', '-f', path]), 0);
  });

  test("a snippet's sub-table entries merge by key into the device's; a backup's replace them whole", async () => {
    const rules = () =>
      (find('router/access-list', 'name', 'mgmt nets')!.rule as Obj[]).map((r) => [r.id, r.prefix, r['exact-match']]);
    const had = rules();
    assert.ok(had.length === 3, JSON.stringify(had));
    const block = [
      'config router access-list',
      '    edit "mgmt nets"',
      '        config rule',
      '            edit 1',
      '                set exact-match enable',
      '            next',
      '        end',
      '    next',
      'end',
    ];
    const path = file('rule.conf', ...block);
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.deepEqual(rules(), [[1, had[0][1], 'enable'], ...had.slice(1)], 'rules 2 and 3 stay');
    expectCode(await run(['diff', '-f', path]), 0);
    const whole = file(
      'whole.conf',
      '#config-version=FGVM64-6.4.14-FW-build2093-230912:opmode=0:vdom=0:user=admin',
      ...block,
    );
    const plan = await run(['diff', '-f', whole, 'router/access-list', '-o', 'json']);
    expectCode(plan, 10);
    const update = json<{ update: { key: string; changes: Record<string, { to: Obj[] }> }[] }>(plan).update;
    assert.deepEqual(
      update.find((u) => u.key === 'mgmt nets')?.changes.rule.to.map((r) => r.id),
      [1],
      'a backup states the whole list',
    );
  });

  test('rename is an update of the key; the lines after it name the new key; done once', async () => {
    await device('POST', 'firewall/address?vdom=root', { name: 'old-name', subnet: '10.9.9.0 255.255.255.0' });
    const path = file(
      'rename.conf',
      'config firewall address',
      '    rename "old-name" to "new-name"',
      '    edit "new-name"',
      '        set comment "renamed"',
      '    next',
      'end',
    );
    const dry = await run(['apply', '-f', path, '--dry-run', '-o', 'json']);
    expectCode(dry, 10);
    assert.deepEqual(
      json<{ requests: { method: string; path: string; body: Obj }[] }>(dry).requests.map((q) => [q.path, q.body]),
      [
        ['/api/v2/cmdb/firewall/address/old-name', { name: 'new-name' }],
        ['/api/v2/cmdb/firewall/address/new-name', { comment: 'renamed' }],
      ],
    );
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.equal(find('firewall/address', 'name', 'new-name')?.comment, 'renamed');
    assert.ok(!find('firewall/address', 'name', 'old-name'));
    expectCode(await run(['diff', '-f', path]), 0);
    const missing = file('missing.conf', 'config firewall address', '    rename "nowhere" to "x"', 'end');
    const r = await run(['diff', '-f', missing]);
    expectCode(r, 2);
    assert.match(r.stderr, /missing\.conf:2: rename: there is no firewall\/address "nowhere"/);
  });

  test('delete is a delete step (one already gone is nothing to do); purge deletes what the block does not list, factory objects kept', async () => {
    await device('POST', 'firewall/address?vdom=root', { name: 'gone-soon', subnet: '10.8.8.0 255.255.255.0' });
    const path = file(
      'delete.conf',
      'config firewall address',
      '    delete "gone-soon"',
      '    delete "never-there"',
      'end',
    );
    const mark = emu.requests.length;
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.deepEqual(
      writesSince(mark).map((r) => `${r.method} ${r.path}`),
      ['DELETE /api/v2/cmdb/firewall/address/gone-soon'],
    );
    expectCode(await run(['diff', '-f', path]), 0);

    const groups = keys('firewall.service/group', 'name');
    assert.ok(groups.length > 1);
    const purge = file(
      'purge.conf',
      'config firewall service group',
      '    purge',
      `    edit "${String(groups[0])}"`,
      '    next',
      'end',
    );
    const plan = await run(['diff', '-f', purge, '-o', 'json']);
    expectCode(plan, 10);
    const deleted = json<{ delete: Obj[] }>(plan).delete.map((d) => d.key);
    assert.ok(deleted.length > 0);
    assert.ok(!deleted.includes(groups[0]), 'the object the block lists stays');
    const gone = await run([
      'diff',
      '-f',
      file('all.conf', 'config firewall address', '    purge', 'end'),
      '-o',
      'json',
    ]);
    expectCode(gone, 10);
    const addresses = json<{ delete: Obj[] }>(gone).delete.map((d) => d.key);
    assert.ok(addresses.includes('lan-net'));
    assert.ok(!addresses.includes('all') && !addresses.includes('none'), 'factory objects are kept');
  });

  test('move is a move step; one the order already shows is nothing to do', async () => {
    const order = keys('firewall/policy', 'policyid');
    const [first, second] = order;
    const path = file('move.conf', 'config firewall policy', `    move ${first} after ${second}`, 'end');
    const dry = await run(['apply', '-f', path, '--dry-run', '-o', 'json']);
    expectCode(dry, 10);
    const q = json<{ requests: { method: string; path: string; query: string }[] }>(dry).requests;
    assert.deepEqual(
      q.map((r) => [r.method, r.path, r.query]),
      [['PUT', `/api/v2/cmdb/firewall/policy/${first}`, `vdom=root&action=move&after=${second}`]],
    );
    expectCode(await run(['apply', '-f', path, '--yes', '-o', 'json']), 0);
    assert.deepEqual(keys('firewall/policy', 'policyid').slice(0, 2), [second, first]);
    expectCode(await run(['diff', '-f', path]), 0);
  });
});

describe('a backup restores', () => {
  test('backup --file, changes, apply --prune: every catalogued table back, a table the backup leaves out emptied; a snippet with --prune touches only its tables', async () => {
    const saved = join(dir, 'fw.conf');
    expectCode(await run(['backup', '--file', saved]), 0);
    const before = await run([
      'export',
      'firewall/address',
      'firewall/addrgrp',
      'firewall/policy',
      '--vdom',
      '*',
      '-o',
      'cli',
    ]);
    expectCode(before, 0);
    await device('POST', 'firewall/address?vdom=root', { name: 'added-later', subnet: '10.7.7.0 255.255.255.0' });
    await device('PUT', 'firewall/address/lan-net?vdom=root', { comment: 'changed later' });
    await device('POST', 'firewall/ippool?vdom=dmz', { name: 'pool-later', startip: '10.6.6.1', endip: '10.6.6.9' });
    const snippet = file('one.conf', 'config firewall address', '    edit "lan-net"', '    next', 'end');
    const narrow = await run(['diff', '-f', snippet, '--prune', '-o', 'json']);
    expectCode(narrow, 10);
    assert.deepEqual(
      [...new Set(json<{ delete: Obj[] }>(narrow).delete.map((d) => d.table))],
      ['firewall/address'],
      'a snippet prunes only its tables',
    );
    const restore = await run(['apply', '-f', saved, '--prune', '--yes', '-o', 'json']);
    expectCode(restore, 0);
    assert.ok(!find('firewall/address', 'name', 'added-later'));
    assert.ok(!find('firewall/ippool', 'name', 'pool-later', 'dmz'), 'a table the backup leaves out is empty');
    assert.notEqual(
      find('firewall/address', 'name', 'lan-net')!.comment,
      'changed later',
      'a field the backup leaves out is at its default',
    );
    const after = await run([
      'export',
      'firewall/address',
      'firewall/addrgrp',
      'firewall/policy',
      '--vdom',
      '*',
      '-o',
      'cli',
    ]);
    assert.equal(after.stdout, before.stdout);
    expectCode(await run(['diff', '-f', saved, '--prune']), 0);
  });

  test('round trip: export -o cli, apply --prune onto an empty device, export -o cli again: the same text', async () => {
    const tables = ['firewall/address', 'firewall/addrgrp', 'firewall.service/custom', 'firewall/policy'];
    const exported = await run(['export', ...tables, '--vdom', 'root', '-o', 'cli']);
    expectCode(exported, 0);
    const empty = await startEmulator({ port: 0, seed: 'empty' });
    try {
      const target = isolatedEnv({ CMDB_HOST: empty.url, CMDB_TOKEN: empty.token });
      const restore = await runInProcess(['apply', '-f', '-', '--prune', '--yes', '-o', 'json'], {
        env: target,
        stdin: exported.stdout,
      });
      expectCode(restore, 0);
      const again = await runInProcess(['export', ...tables, '--vdom', 'root', '-o', 'cli'], { env: target });
      assert.equal(again.stdout, exported.stdout);
    } finally {
      await empty.close();
    }
  });

  test('cmdb backup of the whole demo, apply --prune onto --seed empty: in sync after one run', async () => {
    const saved = join(dir, 'demo.conf');
    expectCode(await run(['backup', '--file', saved]), 0);
    const empty = await startEmulator({ port: 0, seed: 'empty' });
    try {
      const target = isolatedEnv({ CMDB_HOST: empty.url, CMDB_TOKEN: empty.token });
      expectCode(
        await runInProcess(['apply', '-f', saved, '--prune', '--yes', '-o', 'json'], {
          env: target,
          timeoutMs: 120_000,
        }),
        0,
      );
      expectCode(await runInProcess(['diff', '-f', saved, '--prune'], { env: target, timeoutMs: 120_000 }), 0);
    } finally {
      await empty.close();
    }
  });
});

describe('create -f and --dir', () => {
  test("create <table> -f takes that table's blocks and says which blocks it left out; a verb is refused", async () => {
    const path = file('snippet.conf', ...SNIPPET);
    const r = await run(['create', 'firewall/address', '-f', path, '-o', 'json']);
    expectCode(r, 0);
    assert.match(r.stderr, /left out of .*snippet\.conf, blocks of other tables: firewall\/addrgrp, firewall\/policy/);
    assert.ok(find('firewall/address', 'name', 'doc-net') && find('firewall/address', 'name', 'doc-host'));
    assert.ok(!find('firewall/addrgrp', 'name', 'doc-grp'));
    const piped = await run(
      ['create', 'firewall/address', '-f', '-', '-o', 'json'],
      'config firewall address\n    edit "from-stdin"\n        set subnet 10.4.4.0/24\n    next\nend\n',
    );
    expectCode(piped, 0);
    assert.equal(find('firewall/address', 'name', 'from-stdin')?.subnet, '10.4.4.0 255.255.255.0');
    const verb = file('verb.conf', 'config firewall address', '    delete "doc-net"', 'end');
    const refused = await run(['create', 'firewall/address', '-f', verb]);
    expectCode(refused, 2);
    assert.match(refused.stderr, /verb\.conf:2: delete in a file given to create/);
  });

  test('export --dir -o cli writes DIR/<device>.conf; diff and apply --dir read it', async () => {
    const out = join(dir, 'configs');
    mkdirSync(out);
    expectCode(await run(['export', 'firewall/address', '--dir', out, '-o', 'cli']), 0);
    const name = `${new URL(emu.url).host.replace(':', '_')}.conf`;
    const path = join(out, name);
    expectCode(await run(['diff', '--dir', out]), 0);
    // A second block of the same table and key merges into the first: its line wins.
    writeFileSync(
      path,
      `${readFileSync(path, 'utf8')}config firewall address\n    edit "lan-net"\n        set comment "from the dir"\n    next\nend\n`,
    );
    expectCode(await run(['apply', '--dir', out, '--yes', '-o', 'json']), 0);
    assert.equal(find('firewall/address', 'name', 'lan-net')!.comment, 'from the dir');
  });
});

describe('errors name the file and line; nothing is sent', () => {
  const cases: [string, string[], RegExp][] = [
    [
      'an unclosed block',
      ['config firewall address', '    edit "a"', '    next'],
      /bad\.conf:1: config firewall address is not closed: end missing/,
    ],
    [
      'set outside edit',
      ['config firewall address', '    set subnet 1.2.3.4 255.255.255.255', 'end'],
      /bad\.conf:2: set outside an edit block/,
    ],
    [
      'an unknown verb',
      ['config firewall address', '    edit "a"', '        sett comment x', '    next', 'end'],
      /bad\.conf:3: unknown command 'sett'/,
    ],
    [
      'a quote left open',
      ['config firewall address', '    edit "a', 'end'],
      /bad\.conf:2: a value opened with " here is not closed/,
    ],
    [
      'a value its field refuses',
      ['config firewall address', '    edit "a"', '        set color 99', '    next', 'end'],
      /bad\.conf:3: firewall\/address \(vdom root, object 1\): 'color' must be between 0 and 32/,
    ],
    [
      'a word for a number',
      ['config firewall policy', '    edit 1', '        set vlan-cos-fwd high', '    next', 'end'],
      /bad\.conf:3: 'vlan-cos-fwd' is a number/,
    ],
    [
      'a field the table lacks',
      ['config firewall address', '    edit "a"', '        set colour 3', '    next', 'end'],
      /bad\.conf:3: firewall\/address "a" has no field 'colour' \(did you mean 'color'\?\)/,
    ],
    [
      'blocks nested 100,000 deep',
      [...Array.from({ length: 100_000 }, () => 'config a'), 'end'],
      /bad\.conf:\d+: blocks nested more than 64 deep/,
    ],
  ];
  for (const [what, lines, message] of cases)
    test(`${what}: exit 2`, async () => {
      const path = file('bad.conf', ...lines);
      for (const command of ['diff', 'apply']) {
        const mark = emu.requests.length;
        const r = await run([command, '-f', path, ...(command === 'apply' ? ['--yes'] : [])]);
        expectCode(r, 2);
        assert.match(r.stderr, message);
        assert.deepEqual(writesSince(mark), [], 'nothing sent');
      }
    });

  test('blocks for tables the device does not know: said once and left out; --strict: exit 2', async () => {
    const path = file(
      'unknown.conf',
      'config firewall nonsense',
      '    edit "x"',
      '    next',
      'end',
      'config firewall nonsense',
      'end',
      'config firewall address',
      '    edit "known"',
      '        set subnet 10.5.5.0 255.255.255.0',
      '    next',
      'end',
    );
    const r = await run(['diff', '-f', path, '-o', 'json']);
    expectCode(r, 10);
    assert.equal(r.stderr.match(/firewall\/nonsense/g)?.length, 1, r.stderr);
    assert.match(r.stderr, /tables this device does not know: firewall\/nonsense \(line 1, 2 blocks\)/);
    assert.deepEqual(
      json<{ create: Obj[] }>(r).create.map((c) => c.key),
      ['known'],
    );
    const mark = emu.requests.length;
    const strict = await run(['apply', '-f', path, '--strict', '--yes']);
    expectCode(strict, 2);
    assert.match(strict.stderr, /unknown\.conf:1: firewall\/nonsense is not a table of this device/);
    assert.deepEqual(writesSince(mark), []);
  });
});
