// -o cli through the program (in-process) against the emulator: list, get and export in the device's own
// syntax (PROTOCOL.md, "The device's configuration syntax"; CLI.md, "The device's own syntax"), compared
// with hand-written text; page by page, several VDOMs, several devices, and refused where it does not belong.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { findTable } from '../../src/catalogue/index.js';
import { readConf } from '../../src/syntax/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

const SECRET = 'plain-Secret-1';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
const run = (...args: string[]) => runInProcess(args, { env });
/** `list` of the objects whose name matches, only the fields off their default, as `show` prints them. */
const shown = (table: string, filter: string) =>
  run('list', table, '--filter', filter, '--exclude-default-values', '-o', 'cli');

async function device(method: string, path: string, body: unknown, vdom = 'root'): Promise<void> {
  const res = await fetch(`${emu.url}/api/v2/cmdb/${path}?vdom=${vdom}`, {
    method,
    headers: { Authorization: `Bearer ${emu.token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  assert.equal(res.status, 200, `${method} ${path}: ${await res.text()}`);
}

function ok(r: Run & { code: number }): string {
  assert.equal(r.code, 0, `exit ${r.code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
  return r.stdout;
}

/** Without `set uuid` lines: a new object's UUID is the device's to choose. */
const withoutUuid = (text: string) => text.replace(/^ *set uuid \S+\n/gm, '');

/** The lines that open and close blocks, and the `set`/`unset` lines of these fields only. */
function only(text: string, fields: string[]): string {
  return text
    .split('\n')
    .filter((line) => {
      const statement = /^\s*(?:set|unset) (\S+)/.exec(line);
      return statement ? fields.includes(statement[1]) : line !== '';
    })
    .map((line) => `${line}\n`)
    .join('');
}

const lines = (...text: string[]) => text.map((line) => `${line}\n`).join('');

/** The access list the tests create, as `show` prints it: a sub-table as a nested block, integer keys bare. */
const ACL = lines(
  'config router access-list',
  '    edit "cli-acl"',
  '        set comments "acl"',
  '        config rule',
  '            edit 1',
  '                set prefix 10.0.0.0 255.0.0.0',
  '                set exact-match enable',
  '            next',
  '            edit 2',
  '                set action deny',
  '                set prefix any',
  '            next',
  '        end',
  '    next',
  'end',
);

/**
 * The binding the tests create: a table path with a sub-area, an integer key, an address and a MAC bare, an
 * option off its default (a binding is disabled unless enabled).
 */
const BINDING = lines(
  'config firewall ipmacbinding table',
  '    edit 7',
  '        set ip 10.0.0.7',
  '        set mac 00:09:0f:00:00:07',
  '        set name "cli-host"',
  '        set status enable',
  '    next',
  'end',
);

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  await device('POST', 'firewall/address', {
    name: 'cli-lan',
    subnet: '10.1.0.0 255.255.255.0',
    comment: 'say "hi" \\ here',
    'associated-interface': 'port1',
    color: 5,
  });
  await device('POST', 'firewall/address', { name: 'cli-web', type: 'fqdn', fqdn: 'www.example.com' });
  await device('POST', 'firewall/address', { name: 'cli-dmz', subnet: '10.2.0.0 255.255.0.0' }, 'dmz');
  await device('POST', 'firewall/addrgrp', { name: 'cli-group', member: [{ name: 'cli-lan' }, { name: 'cli-web' }] });
  await device('POST', 'firewall.schedule/recurring', {
    name: 'cli-hours',
    day: 'monday friday',
    start: '08:00',
    end: '18:00',
  });
  await device('POST', 'user/local', { name: 'cli-user', type: 'password', passwd: SECRET });
  await device('POST', 'router/access-list', {
    name: 'cli-acl',
    comments: 'acl',
    rule: [
      { id: 1, prefix: '10.0.0.0 255.0.0.0', 'exact-match': 'enable' },
      { id: 2, action: 'deny', prefix: 'any' },
    ],
  });
  await device('POST', 'firewall.ipmacbinding/table', {
    'seq-num': 7,
    ip: '10.0.0.7',
    mac: '00:09:0f:00:00:07',
    name: 'cli-host',
    status: 'enable',
  });
  await device('PUT', 'system/dns', { primary: '10.0.0.53', domain: [{ domain: 'example.com' }] });
});
after(() => emu.close());

describe('-o cli prints objects as the device shows them', () => {
  test('list: strings quoted and escaped, references, integers, addresses with masks, options bare', async () => {
    const r = await shown('firewall/address', 'name=@cli-');
    assert.equal(
      withoutUuid(ok(r)),
      lines(
        'config firewall address',
        '    edit "cli-lan"',
        '        set subnet 10.1.0.0 255.255.255.0',
        '        set comment "say \\"hi\\" \\\\ here"',
        '        set associated-interface "port1"',
        '        set color 5',
        '    next',
        '    edit "cli-web"',
        '        set type fqdn',
        '        set fqdn "www.example.com"',
        '    next',
        'end',
      ),
    );
  });

  test('list: a member list on one set, each name quoted', async () => {
    const r = await shown('firewall/addrgrp', 'name==cli-group');
    assert.equal(
      withoutUuid(ok(r)),
      lines(
        'config firewall addrgrp',
        '    edit "cli-group"',
        '        set member "cli-lan" "cli-web"',
        '    next',
        'end',
      ),
    );
  });

  test('list: a sub-table as a nested config block; integer keys bare; a table path with a sub-area', async () => {
    const acl = await shown('router/access-list', 'name==cli-acl');
    assert.equal(ok(acl), ACL);
    const bindings = await run('list', 'firewall.ipmacbinding/table', '--exclude-default-values', '-o', 'cli');
    assert.equal(ok(bindings), BINDING);
  });

  test('get: every field, a multi-value option bare on one set, a secret as ENC, a singleton without edit', async () => {
    const schedule = ok(await run('get', 'firewall.schedule/recurring', 'cli-hours', '-o', 'cli'));
    assert.equal(
      only(schedule, ['start', 'end', 'day']),
      lines(
        'config firewall schedule recurring',
        '    edit "cli-hours"',
        '        set start 08:00',
        '        set end 18:00',
        '        set day monday friday',
        '    next',
        'end',
      ),
    );
    // Every field: those at their default too (`show full-configuration`).
    assert.match(schedule, /^ {8}set color 0$/m);
    const user = ok(await run('get', 'user/local', 'cli-user', '-o', 'cli'));
    assert.match(user, /^ {8}set passwd ENC [A-Za-z0-9+/=]+$/m);
    assert.ok(!user.includes(SECRET), 'the password as sent never comes out');
    const dns = ok(await run('get', 'system/dns', '-o', 'cli'));
    assert.equal(
      only(dns, ['primary', 'domain']),
      lines('config system dns', '    set primary 10.0.0.53', '    set domain "example.com"', 'end'),
    );
  });

  test('an empty table is config ... / end, with and without --all', async () => {
    const expected = lines('config firewall addrgrp', 'end');
    assert.equal(ok(await run('list', 'firewall/addrgrp', '--filter', 'name==none', '-o', 'cli')), expected);
    assert.equal(ok(await run('list', 'firewall/addrgrp', '--filter', 'name==none', '--all', '-o', 'cli')), expected);
  });

  test('list --all: page by page, the same text as one read', async () => {
    const args = ['list', 'firewall/address', '--filter', 'name=@cli-', '-o', 'cli'];
    const whole = ok(await run(...args));
    const mark = emu.requests.length;
    const paged = ok(await run(...args, '--all', '--page-size', '1'));
    assert.equal(paged, whole);
    const pages = emu.requests.slice(mark).filter((r) => r.method === 'GET' && r.path.endsWith('/firewall/address'));
    assert.ok(pages.length >= 2, `read in ${pages.length} pages`);
  });

  test('several VDOMs: one config vdom block each, as a backup holds them', async () => {
    const r = await run(
      'list',
      'firewall/address',
      '--vdom',
      'root,dmz',
      '--filter',
      'name=@cli-',
      '--filter',
      'type==ipmask',
      '--fields',
      'name,subnet',
      '-o',
      'cli',
    );
    assert.equal(
      ok(r),
      lines(
        'config vdom',
        'edit root',
        'config firewall address',
        '    edit "cli-lan"',
        '        set subnet 10.1.0.0 255.255.255.0',
        '    next',
        'end',
        'next',
        'end',
        'config vdom',
        'edit dmz',
        'config firewall address',
        '    edit "cli-dmz"',
        '        set subnet 10.2.0.0 255.255.0.0',
        '    next',
        'end',
        'next',
        'end',
      ),
    );
  });

  test('the demo: get firewall/policy 1 and list firewall/addrgrp', async () => {
    const demo = { env: isolatedEnv() };
    const policy = ok(await runInProcess(['--demo', 'get', 'firewall/policy', '1', '-o', 'cli'], demo));
    assert.equal(
      only(policy, ['name', 'srcintf', 'dstintf', 'srcaddr', 'dstaddr', 'schedule', 'service', 'nat']),
      lines(
        'config firewall policy',
        '    edit 1',
        '        set name "lan-to-internet"',
        '        set srcintf "port1"',
        '        set dstintf "port2"',
        '        set srcaddr "lan-net"',
        '        set dstaddr "all"',
        '        set schedule "always"',
        '        set service "ALL"',
        '        set nat enable',
        '    next',
        'end',
      ),
    );
    const groups = ok(await runInProcess(['--demo', 'list', 'firewall/addrgrp', '-o', 'cli'], demo));
    assert.equal(
      only(withoutUuid(groups), ['member', 'comment', 'exclude', 'exclude-member', 'color']),
      lines(
        'config firewall addrgrp',
        '    edit "internal-nets"',
        '        set member "lan-net" "servers-net"',
        '        set comment "every internal network"',
        '        set exclude disable',
        '        unset exclude-member',
        '        set color 0',
        '        config tagging',
        '        end',
        '    next',
        '    edit "published"',
        '        set member "web-server"',
        "        set comment ''",
        '        set exclude disable',
        '        unset exclude-member',
        '        set color 0',
        '        config tagging',
        '        end',
        '    next',
        'end',
      ),
    );
  });
});

describe('export -o cli', () => {
  test('--exclude-default-values: the defaults mark first, then only the fields off their default', async () => {
    const r = await run(
      'export',
      'router/access-list',
      'firewall.ipmacbinding/table',
      '--exclude-default-values',
      '-o',
      'cli',
    );
    // The tables in the catalogue's order, as the YAML document holds them.
    assert.equal(ok(r), `#cmdb:defaults=excluded\n${BINDING}${ACL}`);
  });

  test('without it every field, no mark; a secret as the device returns it', async () => {
    const all = ok(await run('export', 'router/access-list', 'user/local', '-o', 'cli'));
    assert.match(all, /^config router access-list\n/);
    // Rule 2 did not set exact-match: its default is written too.
    assert.match(all, /edit 2\n(?: {16}.*\n)* {16}set exact-match disable\n/);
    assert.match(all, /^ {8}set passwd ENC [A-Za-z0-9+/=]+$/m);
    assert.ok(!all.includes(SECRET));
  });

  test('a table the device holds once: the layout of a backup, config global before the VDOM', async () => {
    const r = await run('export', 'firewall/addrgrp', 'system/dns', '--exclude-default-values', '-o', 'cli');
    assert.equal(
      only(withoutUuid(ok(r)), ['primary', 'domain', 'member']),
      lines(
        '#cmdb:defaults=excluded',
        'config vdom',
        'edit root',
        'next',
        'end',
        'config global',
        'config system dns',
        '    set primary 10.0.0.53',
        '    set domain "example.com"',
        'end',
        'end',
        'config vdom',
        'edit root',
        'config firewall addrgrp',
        '    edit "cli-group"',
        '        set member "cli-lan" "cli-web"',
        '    next',
        'end',
        'next',
        'end',
      ),
    );
  });

  test("the demo's every VDOM in a backup's layout: VDOMs listed, global tables once, each VDOM's tables", async () => {
    const demo = { env: isolatedEnv() };
    const text = ok(await runInProcess(['--demo', 'export', '--vdom', '*', '-o', 'cli'], demo));
    const document = json<{ vdoms: Record<string, Record<string, Obj[] | Obj>> }>(
      await runInProcess(['--demo', 'export', '--vdom', '*', '-o', 'json'], demo),
    );
    assert.match(text, /^config vdom\nedit root\n(?:.*\n)*?edit dmz\n(?:.*\n)*?end\nconfig global\n/);
    const read = readConf(text, 'export.conf', { lookup: findTable });
    assert.deepEqual(read.vdoms, ['root', 'dmz']);
    assert.deepEqual(read.unknown, []);
    const where = (vdom: string | null, path: string) =>
      read.tables.filter((t) => t.vdom === vdom && t.table.path === path);
    for (const [vdom, tables] of Object.entries(document.vdoms))
      for (const [path, content] of Object.entries(tables)) {
        const table = findTable(path)!;
        const global = table.scope === 'global';
        const found = where(global ? null : vdom, path);
        // system/vdom is the backup's leading list of VDOMs, not a table of config global.
        if (path === 'system/vdom') continue;
        assert.equal(found.length, 1, `${path} of ${global ? 'the device' : `vdom ${vdom}`} written once`);
        if (!global || vdom === 'root') {
          const keys = Array.isArray(content) ? content.map((o) => o[table.key!]) : [];
          assert.deepEqual(
            found[0].objects.map((o) => o.key).filter((k) => k !== null),
            keys,
            `${path} (${vdom}) in the device's order`,
          );
        }
      }
    assert.ok(read.tables.some((t) => t.vdom === null));
    assert.ok(!text.startsWith('#cmdb:defaults'));
  });
});

describe('-o cli on several devices', () => {
  const names = ['fw-a', 'fw-b'];
  const emus: RunningEmulator[] = [];
  let fleet: NodeJS.ProcessEnv;
  const BINDINGS = 'firewall.ipmacbinding/table';

  before(async () => {
    fleet = isolatedEnv();
    const dir = join(fleet.XDG_CONFIG_HOME!, 'cmdb');
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    for (const [i, name] of names.entries()) {
      const e = await startEmulator({ port: 0, seed: 'empty' });
      e.populate(BINDINGS, 'root', [
        { 'seq-num': i + 1, ip: `10.0.0.${i + 1}`, mac: `00:09:0f:00:00:0${i + 1}`, name: `${name}-host` },
      ]);
      emus.push(e);
    }
    const config = ['default: fw-a', 'devices:'];
    for (const [i, name] of names.entries())
      config.push(`  ${name}:`, `    host: ${emus[i].url}`, '    auth: token', '    secrets: file');
    writeFileSync(join(dir, 'config.yaml'), config.join('\n') + '\n', { mode: 0o600 });
    writeFileSync(join(dir, 'credentials.yaml'), names.map((n, i) => `${n}: ${emus[i].token}\n`).join(''), {
      mode: 0o600,
    });
  });
  after(async () => {
    for (const e of emus) await e.close();
  });

  const binding = (i: number, name: string) =>
    lines(
      'config firewall ipmacbinding table',
      `    edit ${i}`,
      `        set ip 10.0.0.${i}`,
      `        set mac 00:09:0f:00:00:0${i}`,
      `        set name "${name}-host"`,
      '    next',
      'end',
    );

  test("each device's text after a #device line", async () => {
    const r = await runInProcess(['list', BINDINGS, '-d', 'fw-a,fw-b', '--exclude-default-values', '-o', 'cli'], {
      env: fleet,
    });
    assert.equal(ok(r), `#device: fw-a\n${binding(1, 'fw-a')}#device: fw-b\n${binding(2, 'fw-b')}`);
  });

  test('export --dir writes DIR/<device>.conf, each what the device alone prints, nothing on stdout', async () => {
    const out = join(tempDir('cmdb-conf-'), 'configs');
    const args = ['export', BINDINGS, '--exclude-default-values', '-o', 'cli'];
    const r = await runInProcess([...args, '-d', '*', '--dir', out], { env: fleet });
    assert.equal(ok(r), '');
    assert.deepEqual(readdirSync(out).sort(), ['fw-a.conf', 'fw-b.conf']);
    for (const [i, name] of names.entries()) {
      const file = join(out, `${name}.conf`);
      assert.equal(readFileSync(file, 'utf8'), `#cmdb:defaults=excluded\n${binding(i + 1, name)}`);
      assert.equal(statSync(file).mode & 0o777, 0o600);
      assert.equal(readFileSync(file, 'utf8'), ok(await runInProcess([...args, '-d', name], { env: fleet })));
    }
  });
});

describe('-o cli is for list, get and export only', () => {
  test('elsewhere a usage error before anything is sent', async () => {
    for (const args of [
      ['create', 'firewall/address', '--set', 'name=cli-refused', '--set', 'subnet=10.9.0.0/16'],
      ['delete', 'firewall/address', 'cli-web'],
      ['tables', '--area', 'firewall'],
    ]) {
      const mark = emu.requests.length;
      const r = await run(...args, '-o', 'cli');
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, /^cmdb: -o cli is only for list, get and export\n/);
      assert.match(r.stderr, /hint: use -o table, json, yaml, ndjson or csv/);
      assert.equal(r.stdout, '');
      assert.equal(emu.requests.length, mark, 'nothing sent');
    }
    const file = join(tempDir('cmdb-doc-'), 'doc.yaml');
    writeFileSync(file, 'vdoms:\n  root:\n    firewall/addrgrp: []\n');
    const mark = emu.requests.length;
    const diff = await run('diff', '-f', file, '-o', 'cli');
    assert.equal(diff.code, 2);
    assert.match(diff.stderr, /^cmdb: -o cli does not fit a plan\n/);
    assert.equal(emu.requests.length, mark, 'nothing sent');
  });

  test('CMDB_OUTPUT=cli: list, get and export print it, other commands their default format', async () => {
    const withCli = { env: { ...env, CMDB_OUTPUT: 'cli' } };
    assert.match(
      ok(await runInProcess(['get', 'firewall/addrgrp', 'cli-group'], withCli)),
      /^config firewall addrgrp\n/,
    );
    assert.match(ok(await runInProcess(['export', 'firewall/addrgrp'], withCli)), /^config firewall addrgrp\n/);
    const created = await runInProcess(
      ['create', 'firewall/address', '--set', 'name=cli-env', '--set', 'subnet=10.8.0.0/16'],
      withCli,
    );
    assert.equal(json<Obj>({ ...created, stdout: ok(created) }).status, 'success');
    const tables = await runInProcess(['tables', '--area', 'router'], withCli);
    assert.ok(Array.isArray(json(tables)), 'json, the default when piped');
    ok(await run('delete', 'firewall/address', 'cli-env'));
  });

  test('errors stay plain cmdb: lines', async () => {
    const r = await run('get', 'firewall/address', 'no-such-address', '-o', 'cli');
    assert.equal(r.code, 6, r.stderr);
    assert.match(r.stderr, /^cmdb: /);
    assert.equal(r.stdout, '');
  });
});
