// Output a person can read (CLI.md, "Output" and the diff bullet of "References between tables"):
// tables that fit the terminal (a pseudo-terminal of 80, 120 and 200 columns), --wide and --columns,
// lists as names, and plans that show what changed inside a list and name numbered objects.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { cmdbOnTerminal } from '../helpers/pty.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

const POLICY_SET = 'policyid name srcintf dstintf srcaddr dstaddr service schedule action nat status'.split(' ');

/** Columns a line takes on a terminal (the demo's data is ASCII, plus "…"). */
const width = (line: string) => Array.from(line).length;
const headerOf = (line: string) => line.trim().split(/ {2,}/);

function ok(r: Run, code = 0): void {
  assert.equal(r.code, code, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

describe('cmdb --demo list firewall/policy on a terminal', () => {
  for (const columns of [80, 120, 200]) {
    test(`${columns} columns: the key always, as many of the chosen set as fit, no line wider`, async () => {
      const r = await cmdbOnTerminal(['--demo', 'list', 'firewall/policy'], '', isolatedEnv(), { columns });
      ok(r);
      // stdout and stderr are one terminal: the table, then the note when columns were left out.
      const lines = r.stdout.split('\n').filter(Boolean);
      for (const line of lines) assert.ok(width(line) <= columns, `${width(line)} > ${columns}: ${line}`);
      const shown = headerOf(lines[0]!);
      assert.deepEqual(shown, POLICY_SET.slice(0, shown.length), 'from the left, in the chosen order');
      const notes = lines.filter((l) => l.startsWith('cmdb: '));
      if (columns >= 120) {
        for (const name of ['policyid', 'name', 'srcintf', 'dstintf', 'srcaddr', 'dstaddr', 'service', 'action'])
          assert.ok(shown.includes(name), `${name} at ${columns} columns:\n${r.stdout}`);
      }
      if (shown.length < POLICY_SET.length) {
        assert.equal(notes.length, 1, r.stdout);
        assert.match(notes[0]!, new RegExp(`^cmdb: ${POLICY_SET.length - shown.length} more columns \\(--wide or`));
      } else assert.deepEqual(notes, []);
      assert.equal(lines.filter((l) => /^\d+ /.test(l)).length, 5, 'five policies');
      assert.match(r.stdout, /^1 +lan-to-\S* +port1 +port2 +lan-net /m, 'the key is never cut');
    });
  }

  test('not a terminal: the same columns, uncut, nothing on stderr', async () => {
    const r = await runInProcess(['--demo', 'list', 'firewall/policy', '-o', 'table'], { env: isolatedEnv() });
    ok(r);
    assert.deepEqual(headerOf(r.stdout.split('\n')[0]!), POLICY_SET);
    assert.ok(!r.stdout.includes('…'));
    assert.match(r.stdout, /^4 +server-updates +port4 +port2 +servers-net +update\.example\.com +"Web Access" /m);
    assert.equal(r.stderr, '');
  });
});

describe('--wide and --columns', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  const run = (...args: string[]) => runInProcess(args, { env });
  before(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo' });
    env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  });
  after(() => emu.close());

  test('--wide: every field the device sent, in table', async () => {
    const wide = await run('list', 'firewall/policy', '--wide', '-o', 'table');
    ok(wide);
    const shown = headerOf(wide.stdout.split('\n')[0]!);
    const sent = Object.keys(json<Obj[]>(await run('list', 'firewall/policy', '-o', 'json'))[0]!);
    assert.deepEqual(shown, sent);
  });

  test('--columns: exactly those, in table and csv; member lists as names joined by spaces', async () => {
    const table = await run('list', 'firewall/policy', '--columns', 'name,srcaddr,policyid', '-o', 'table');
    ok(table);
    assert.deepEqual(headerOf(table.stdout.split('\n')[0]!), ['name', 'srcaddr', 'policyid']);
    const csv = await run('list', 'firewall/addrgrp', '--columns', 'name,member', '-o', 'csv');
    ok(csv);
    assert.match(csv.stdout, /^name,member\n(.*\n)*internal-nets,lan-net servers-net\n/);
    const got = await run('get', 'firewall/policy', '4', '--columns', 'policyid,srcaddr,service', '-o', 'table');
    ok(got);
    assert.deepEqual(got.stdout.split('\n').filter(Boolean), [
      'policyid  4',
      'srcaddr   servers-net',
      'service   "Web Access"',
    ]);
  });

  test('csv without --columns: every field, lists of references as names', async () => {
    const csv = await run('list', 'firewall/policy', '-o', 'csv');
    ok(csv);
    const [header, first] = csv.stdout.split('\n');
    const cells = first!.split(',');
    const at = (name: string) => cells[header!.split(',').indexOf(name)];
    assert.equal(at('srcaddr'), 'lan-net');
    assert.equal(at('srcaddr6'), '');
    assert.doesNotMatch(csv.stdout, /""name""/);
  });

  test('an unknown column: a usage error with "did you mean", exit 2, nothing sent', async () => {
    for (const args of [
      ['list', 'firewall/policy', '--columns', 'policyid,srcadr'],
      ['get', 'firewall/policy', '1', '--columns', 'srcadr', '-o', 'csv'],
    ]) {
      const mark = emu.requests.length;
      const r = await run(...args);
      ok(r, 2);
      assert.match(r.stderr, /'srcadr' is not a field of firewall\/policy \(did you mean 'srcaddr'\?\)/);
      assert.deepEqual(emu.requests.slice(mark), []);
    }
    const both = await run('list', 'firewall/policy', '--wide', '--columns', 'name');
    ok(both, 2);
    assert.match(both.stderr, /--wide and --columns/);
  });

  test('what the device says about a table (its defaults) is not an object of it: every field shows', async () => {
    const table = await run('defaults', 'firewall/address', '-o', 'table');
    ok(table);
    const fields = Object.keys(json<Obj>(await run('defaults', 'firewall/address', '-o', 'json')));
    assert.ok(fields.includes('subnet') && fields.includes('type'), fields.join(' '));
    assert.deepEqual(
      table.stdout
        .split('\n')
        .filter(Boolean)
        .map((l) => l.split(/ +/)[0]),
      fields.filter((f) => !f.startsWith('q_')),
    );
  });

  test('export -o table: a preview, each table under its heading with the columns a list shows', async () => {
    const r = await run('export', 'firewall/addrgrp', 'firewall/vip', 'log.disk/setting', '-o', 'table');
    ok(r);
    const list = await run('list', 'firewall/addrgrp', '-o', 'table');
    assert.ok(
      r.stdout.startsWith(
        `== firewall/addrgrp (vdom root) ==\n${list.stdout}\n== firewall/vip (vdom root) ==\n(no objects)\n\n`,
      ),
      r.stdout,
    );
    assert.match(r.stdout, /\n== log\.disk\/setting \(vdom root\) ==\nstatus +\S+\n/);
    const columns = await run('export', 'firewall/addrgrp', '-o', 'table', '--columns', 'member,name');
    ok(columns);
    assert.match(
      columns.stdout,
      /^== firewall\/addrgrp \(vdom root\) ==\nmember +name\nlan-net servers-net +internal-nets\n/,
    );
  });

  test('export: --columns naming no field of the tables, or -o table into --dir, is refused before any read', async () => {
    for (const [args, message] of [
      [
        ['export', 'firewall/addrgrp', 'firewall/address', '--columns', 'membr', '-o', 'table'],
        /did you mean 'member'/,
      ],
      [
        ['export', 'firewall/addrgrp', '--dir', tempDir('cmdb-preview-'), '-o', 'table'],
        /--dir writes the document itself: a table \(a preview for people\) does not fit a file/,
      ],
    ] as const) {
      const mark = emu.requests.length;
      const r = await run(...args);
      ok(r, 2);
      assert.match(r.stderr, message);
      assert.deepEqual(emu.requests.slice(mark), []);
    }
  });
});

describe('plans that show what changed', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const run = (...args: string[]) => runInProcess(args, { env });
  const MEMBERS = Array.from({ length: 50 }, (_, i) => `net-${i + 1}`);
  before(async () => {
    emu = await startEmulator({ port: 0, seed: 'demo' });
    env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    dir = tempDir('cmdb-plans-');
    emu.populate('firewall/address', 'root', [
      ...[...MEMBERS, 'net-51'].map((name, i) => ({ name, subnet: `10.50.${i}.0 255.255.255.0` })),
    ]);
    emu.populate('firewall/addrgrp', 'root', [{ name: 'big', member: MEMBERS.map((name) => ({ name })) }]);
  });
  after(() => emu.close());

  const doc = (text: string) => {
    const path = join(dir, `doc-${Math.random().toString(36).slice(2)}.yaml`);
    writeFileSync(path, text);
    return path;
  };

  test('a group that gains one of 50 members: one `+` line; JSON keeps from/to and adds added/removed', async () => {
    const members = [...MEMBERS.slice(1), 'net-51'].map((name) => `{name: ${name}}`).join(', ');
    const file = doc(`vdoms:\n  root:\n    firewall/addrgrp:\n      - name: big\n        member: [${members}]\n`);
    const table = await run('diff', '-f', file, '-o', 'table');
    ok(table, 10);
    assert.equal(table.stdout, '~ firewall/addrgrp big (vdom root)\n    member:\n      + net-51\n      - net-1\n');
    assert.match(table.stderr, /^cmdb: 0 to create, 1 to update, 0 to delete$/m);
    const plan = json<{ update: { changes: Record<string, Obj> }[] }>(await run('diff', '-f', file, '-o', 'json'));
    const change = plan.update[0]!.changes.member!;
    assert.deepEqual(Object.keys(change), ['from', 'to', 'added', 'removed']);
    assert.deepEqual([change.added, change.removed], [['net-51'], ['net-1']]);
    assert.equal((change.to as Obj[]).length, 50);
  });

  test('a policy is named by its id and its name; a multi-value field shows its members added', async () => {
    const file = doc(
      'vdoms:\n  root:\n    firewall/policy:\n      - policyid: 4\n        status: enable\n' +
        '    system/interface:\n      - name: port1\n        allowaccess: ping https ssh telnet\n',
    );
    const r = await run('diff', '-f', file, '-o', 'table');
    ok(r, 10);
    assert.match(r.stdout, /^~ firewall\/policy 4 \(server-updates\) \(vdom root\)\n {4}status: disable → enable$/m);
    const port1 = json<Obj>(await run('get', 'system/interface', 'port1', '-o', 'json'));
    const added = 'ping https ssh telnet'.split(' ').filter((w) => !String(port1.allowaccess).split(' ').includes(w));
    assert.ok(added.length > 0, String(port1.allowaccess));
    assert.match(
      r.stdout,
      new RegExp(
        `^~ system/interface port1 \\(vdom root\\)\\n {4}allowaccess:\\n${added.map((w) => ` {6}\\+ ${w}\\n`).join('')}`,
        'm',
      ),
    );
  });

  test('a create shows the fields that differ from their defaults (the whole object in json)', async () => {
    const file = doc(
      'vdoms:\n  root:\n    firewall/address:\n      - name: two-fields\n        type: ipmask\n' +
        '        subnet: 10.60.0.0/24\n        comment: made by the test\n        color: 0\n',
    );
    const r = await run('diff', '-f', file, '-o', 'table');
    ok(r, 10);
    assert.equal(
      r.stdout,
      '+ firewall/address two-fields (vdom root)\n    subnet: 10.60.0.0/24\n    comment: made by the test\n',
    );
    const plan = json<{ create: { object: Obj }[] }>(await run('diff', '-f', file, '-o', 'json'));
    assert.deepEqual(plan.create[0]!.object, {
      name: 'two-fields',
      type: 'ipmask',
      subnet: '10.60.0.0/24',
      comment: 'made by the test',
      color: 0,
    });
  });

  test('one object per block, a blank line between blocks of several lines; the dry run prints the same', async () => {
    const file = doc(
      'vdoms:\n  root:\n    firewall/address:\n      - {name: a-1, subnet: 10.61.0.0/24}\n' +
        '      - {name: a-2, subnet: 10.62.0.0/24}\n    firewall/policy:\n      - {policyid: 4, status: enable}\n',
    );
    const diff = await run('diff', '-f', file, '-o', 'table');
    ok(diff, 10);
    assert.equal(
      diff.stdout,
      '+ firewall/address a-1 (vdom root)\n    subnet: 10.61.0.0/24\n\n' +
        '+ firewall/address a-2 (vdom root)\n    subnet: 10.62.0.0/24\n\n' +
        '~ firewall/policy 4 (server-updates) (vdom root)\n    status: disable → enable\n',
    );
    const dry = await run('apply', '-f', file, '--dry-run', '-o', 'table');
    ok(dry, 10);
    assert.ok(dry.stdout.startsWith(diff.stdout), dry.stdout);
  });
});
