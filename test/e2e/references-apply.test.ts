// apply and bulk create with references (CLI.md "References between tables"): a hand-made chain restored
// onto an empty device in one run and pruned in the reverse; plans that name what nobody has, or prune
// what a kept object names, refused before anything is sent; a device of another release read through
// its own schema's datasource; and writes that wait for nothing sent at once.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type ReceivedRequest, type RunningEmulator } from '../../src/emulator/index.js';
import { cmdb, isolatedEnv, json, ROOT, BIN, type Run } from '../helpers/cli.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

type Obj = Record<string, unknown>;

function expectCode(r: Run, code: number): void {
  assert.equal(r.code, code, `exit ${r.code}, expected ${code}\nstdout:\n${r.stdout}\nstderr:\n${r.stderr}`);
}

const writes = (requests: ReceivedRequest[]) => requests.filter((r) => r.method !== 'GET');
/** `POST firewall/address lab-net`: a write as the device received it. */
const said = (r: ReceivedRequest) => {
  const path = r.path.split('/cmdb/')[1];
  const body = r.body ? (JSON.parse(r.body) as Obj) : {};
  const key = body.policyid ?? body['seq-num'] ?? body.name;
  return `${r.method} ${path}${key === undefined ? '' : `/${key}`}`;
};

// Written in the reverse of the order references need: the policy and the route first, the interface last.
const CHAIN = `vdoms:
  root:
    firewall/policy:
      - policyid: 10
        name: lab-out
        srcintf: [{name: vlan100}]
        dstintf: [{name: port1}]
        srcaddr: [{name: all-labs}]
        dstaddr: [{name: all}]
        service: [{name: ALL}]
        schedule: always
        action: accept
    router/static:
      - seq-num: 5
        dst: 10.99.0.0 255.255.0.0
        gateway: 10.100.0.254
        device: vlan100
    firewall/addrgrp:
      - name: all-labs
        member: [{name: lab-grp}]
      - name: lab-grp
        member: [{name: lab-net}]
    firewall/address:
      - name: lab-net
        subnet: 10.100.0.0 255.255.255.0
        associated-interface: vlan100
    system/interface:
      - name: vlan100
        vdom: root
        interface: port1
        vlanid: 100
        ip: 10.100.0.1 255.255.255.0
        type: vlan
`;
const NONE = `vdoms:
  root:
    system/interface: []
    firewall/address: []
    firewall/addrgrp: []
    router/static: []
    firewall/policy: []
`;

describe('apply with references, onto a device that has only its factory objects', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const run = (...args: string[]) => runInProcess(args, { env });
  const file = (name: string, text: string) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  };
  before(async () => {
    dir = tempDir('cmdb-refs-');
    emu = await startEmulator({ port: 0, seed: 'empty' });
    env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  });
  after(() => emu.close());

  test('a chain (interface → address → group of groups → policy, route) is created in one run, and pruned in the reverse', async () => {
    const chain = file('chain.yaml', CHAIN);
    let mark = emu.requests.length;
    const dry = await run('apply', '-f', chain, '--dry-run', '-o', 'json');
    expectCode(dry, 10);
    assert.deepEqual(writes(emu.requests.slice(mark)), [], 'a dry run writes nothing');
    const order = ['system/interface', 'firewall/address', 'firewall/addrgrp', 'firewall/addrgrp', 'firewall/policy'];
    assert.deepEqual(
      json<{ requests: { path: string }[] }>(dry)
        .requests.map((r) => r.path.replace('/api/v2/cmdb/', ''))
        .filter((p) => p !== 'router/static'),
      order,
      'the dry run shows the order the writes are sent in',
    );

    mark = emu.requests.length;
    const applied = await run('apply', '-f', chain, '--yes', '-o', 'json');
    expectCode(applied, 0);
    const sent = writes(emu.requests.slice(mark)).map(said);
    const at = (write: string) => sent.indexOf(write);
    for (const [first, then] of [
      ['POST system/interface/vlan100', 'POST firewall/address/lab-net'],
      ['POST system/interface/vlan100', 'POST router/static/5'],
      ['POST firewall/address/lab-net', 'POST firewall/addrgrp/lab-grp'],
      ['POST firewall/addrgrp/lab-grp', 'POST firewall/addrgrp/all-labs'],
      ['POST firewall/addrgrp/all-labs', 'POST firewall/policy/10'],
    ])
      assert.ok(at(first) >= 0 && at(first) < at(then), `${first} before ${then}: ${sent.join(', ')}`);
    assert.equal(json<{ applied: Obj[] }>(applied).applied.length, 6);
    expectCode(await run('diff', '-f', chain), 0);

    mark = emu.requests.length;
    const pruned = await run('apply', '-f', file('none.yaml', NONE), '--prune', '--yes', '-o', 'json');
    expectCode(pruned, 0);
    const deleted = writes(emu.requests.slice(mark)).map((r) => `${r.method} ${r.path.split('/cmdb/')[1]}`);
    const gone = (write: string) => deleted.indexOf(write);
    for (const [first, then] of [
      ['DELETE firewall/policy/10', 'DELETE firewall/addrgrp/all-labs'],
      ['DELETE firewall/addrgrp/all-labs', 'DELETE firewall/addrgrp/lab-grp'],
      ['DELETE firewall/addrgrp/lab-grp', 'DELETE firewall/address/lab-net'],
      ['DELETE firewall/address/lab-net', 'DELETE system/interface/vlan100'],
      ['DELETE router/static/5', 'DELETE system/interface/vlan100'],
    ])
      assert.ok(gone(first) >= 0 && gone(first) < gone(then), `${first} before ${then}: ${deleted.join(', ')}`);
    assert.ok(!(emu.objects('system/interface', 'root') as Obj[]).some((o) => o.name === 'vlan100'));
  });

  test('a policy naming an address nobody has: exit 2, each problem listed, nothing sent; --force sends it', async () => {
    const bad = file('bad.yaml', CHAIN.replace('name: all-labs}]', 'name: nope}]'));
    const mark = emu.requests.length;
    const r = await run('apply', '-f', bad, '--yes');
    expectCode(r, 2);
    assert.match(r.stderr, /firewall\/policy 10 srcaddr names "nope": not in firewall\/address, firewall\/addrgrp/);
    assert.match(r.stderr, /nothing was sent/);
    assert.deepEqual(writes(emu.requests.slice(mark)), [], 'the device received no write');
    // diff says the same, as warnings; its exit code says only that the device differs.
    const diff = await run('diff', '-f', bad, '-o', 'json');
    expectCode(diff, 10);
    assert.deepEqual(
      json<{ problems: Obj[] }>(diff).problems.map((p) => [p.kind, p.table, p.key, p.field, p.value]),
      [['missing', 'firewall/policy', 10, 'srcaddr', 'nope']],
    );
    const dry = await run('apply', '-f', bad, '--dry-run');
    expectCode(dry, 2);
    assert.match(dry.stderr, /srcaddr names "nope"/);
    // --force sends the plan anyway: the device refuses the policy itself, explained as a single write's
    // refusal is (the field, the value, where it was looked for), exit 7.
    const forced = await run('apply', '-f', bad, '--yes', '--force', '-o', 'json');
    expectCode(forced, 7);
    assert.match(forced.stderr, /srcaddr names \\"nope\\", which is not in firewall\/address, firewall\/addrgrp/);
    assert.match(forced.stderr, /"code":-3,.*"cli_error":"node_check_object fail! for name nope/);
    assert.ok(writes(emu.requests.slice(mark)).length > 0);
  });

  test('a prune that would leave a kept policy naming a deleted address: exit 2, nothing sent', async () => {
    expectCode(await run('apply', '-f', file('chain2.yaml', CHAIN), '--yes'), 0);
    const mark = emu.requests.length;
    const orphan = file('orphan.yaml', 'vdoms:\n  root:\n    firewall/addrgrp: []\n');
    const r = await run('apply', '-f', orphan, '--prune', '--yes');
    expectCode(r, 2);
    assert.match(r.stderr, /firewall\/policy 10 srcaddr names firewall\/addrgrp "all-labs", which the plan deletes/);
    assert.deepEqual(writes(emu.requests.slice(mark)), [], 'the device received no write');
  });
});

describe('bulk create -f of objects that name each other', () => {
  let emu: RunningEmulator;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  before(async () => {
    dir = tempDir('cmdb-refs-bulk-');
    emu = await startEmulator({ port: 0, seed: 'empty' });
    env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  });
  after(() => emu.close());

  test('a group of groups written before its members is created after them; a member nobody has is exit 2, nothing sent', async () => {
    const addresses = join(dir, 'addresses.json');
    writeFileSync(addresses, JSON.stringify([{ name: 'n1', subnet: '10.1.0.0 255.255.0.0' }]));
    expectCode(await runInProcess(['create', 'firewall/address', '-f', addresses, '-o', 'json'], { env }), 0);
    const groups = (outer: string) => [
      { name: 'outer', member: [{ name: outer }] },
      { name: 'inner', member: [{ name: 'n1' }] },
    ];
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, JSON.stringify(groups('nope')));
    let mark = emu.requests.length;
    const refused = await runInProcess(['create', 'firewall/addrgrp', '-f', bad, '-o', 'json'], { env });
    expectCode(refused, 2);
    assert.match(refused.stderr, /firewall\/addrgrp outer member names "nope"/);
    assert.deepEqual(writes(emu.requests.slice(mark)), [], 'the device received no write');

    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify(groups('inner')));
    mark = emu.requests.length;
    const created = await runInProcess(['create', 'firewall/addrgrp', '-f', good, '-o', 'json'], { env });
    expectCode(created, 0);
    assert.deepEqual(writes(emu.requests.slice(mark)).map(said), [
      'POST firewall/addrgrp/inner',
      'POST firewall/addrgrp/outer',
    ]);
  });
});

describe('a device of another release: references from its schema', () => {
  let emulator: ChildProcess;
  let env: NodeJS.ProcessEnv;
  let dir: string;
  const run = (...args: string[]) => cmdb([...args, '-d', 'fw'], { env });
  before(async () => {
    dir = tempDir('cmdb-refs-schema-');
    // The 7.2.5 tree, its router/policy-x (a table 6.4.14 lacks) given a field naming a firewall/vip-x.
    const tree = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/schema-7.2.5.json'), 'utf8')) as {
      results: { name: string; schema: { children: Record<string, unknown> } }[];
    };
    tree.results.find((t) => t.name === 'policy-x')!.schema.children.vip = {
      name: 'vip',
      category: 'unitary',
      type: 'string',
      size: 79,
      datasource: ['firewall.vip-x.name'],
    };
    const schema = join(dir, 'schema.json');
    writeFileSync(schema, JSON.stringify(tree));
    env = isolatedEnv();
    emulator = spawn(process.execPath, [BIN, 'emulator', '--schema', schema, '--seed', 'empty', '-o', 'json'], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const start = await new Promise<{ url: string; token: string }>((resolve, reject) => {
      let out = '';
      emulator.stdout!.setEncoding('utf8').on('data', (d: string) => {
        out += d;
        if (out.includes('\n')) resolve(JSON.parse(out.split('\n')[0]) as { url: string; token: string });
      });
      emulator.on('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
    });
    const login = await cmdb(
      ['login', '--host', start.url, '-d', 'fw', '--token-stdin', '--insecure-storage', '-o', 'json'],
      { env, stdin: start.token },
    );
    expectCode(login, 0);
  });
  after(() => emulator.kill('SIGTERM'));

  test('a name nobody has is refused before sending; the object it names is created first', async () => {
    const doc = (vip: string) =>
      `vdoms:\n  root:\n    router/policy-x:\n      - seq-num: 1\n        vip: ${vip}\n` +
      '    firewall/vip-x:\n      - name: web-vip\n        extip: 192.0.2.10\n';
    const bad = join(dir, 'bad.yaml');
    writeFileSync(bad, doc('nope'));
    const refused = await run('apply', '-f', bad, '--yes');
    expectCode(refused, 2);
    assert.match(
      refused.stderr,
      /router\/policy-x 1 vip names firewall\/vip-x "nope": not on the device, not in the document/,
    );
    const good = join(dir, 'good.yaml');
    writeFileSync(good, doc('web-vip'));
    const dry = await run('apply', '-f', good, '--dry-run', '-o', 'json');
    expectCode(dry, 10);
    assert.deepEqual(
      json<{ requests: { method: string; path: string }[] }>(dry).requests.map((r) => `${r.method} ${r.path}`),
      ['POST /api/v2/cmdb/firewall/vip-x', 'POST /api/v2/cmdb/router/policy-x'],
    );
    expectCode(await run('apply', '-f', good, '--yes'), 0);
    expectCode(await run('diff', '-f', good), 0);
  });
});

describe('writes that wait for nothing are sent at once', () => {
  let emu: RunningEmulator;
  let dir: string;
  before(async () => {
    dir = tempDir('cmdb-refs-concurrency-');
    emu = await startEmulator({ port: 0, seed: 'empty' });
  });
  after(() => emu.close());

  /** A link that holds every write's answer a little: writes sent at once are then in flight together. */
  async function slowLink() {
    return startFaultProxy({ target: emu.url, seed: 1, rate: 0, hold: (head) => (head.startsWith('GET') ? 0 : 40) });
  }

  test('bulk create -f into an ordered table the device does not evaluate top-down: concurrent, then in file order', async () => {
    const proxy = await slowLink();
    try {
      const ids = Array.from({ length: 24 }, (_, i) => 200 + i);
      const path = join(dir, 'patterns.json');
      writeFileSync(path, JSON.stringify(ids.map((id) => ({ id, name: `p${id}` }))));
      const env = isolatedEnv({ CMDB_HOST: proxy.url, CMDB_TOKEN: emu.token });
      const r = await runInProcess(['create', 'dlp/filepattern', '-f', path, '--concurrency', '8', '-o', 'json'], {
        env,
      });
      expectCode(r, 0);
      assert.doesNotMatch(r.stderr, /one at a time/);
      assert.ok(proxy.mostInFlight > 1, `requests in flight at once: ${proxy.mostInFlight}`);
      assert.deepEqual(
        (emu.objects('dlp/filepattern', 'root') as Obj[]).map((o) => o.id),
        ids,
        "the device holds them in the file's order",
      );
    } finally {
      await proxy.close();
    }
  });

  test("apply: writes of unrelated tables overlap, a table's creates in the document's order; a top-down table one object at a time", async () => {
    const proxy = await slowLink();
    try {
      const env = isolatedEnv({ CMDB_HOST: proxy.url, CMDB_TOKEN: emu.token });
      const names = [5, 3, 11, 0, 8, 1];
      const addresses = names.map((i) => `      - name: a${i}\n        subnet: 10.7.${i}.0 255.255.255.0\n`);
      const services = names.map((i) => `      - name: s${i}\n        tcp-portrange: '${1000 + i}'\n`);
      const doc = join(dir, 'addresses.yaml');
      writeFileSync(
        doc,
        `vdoms:\n  root:\n    firewall/address:\n${addresses.join('')}    firewall.service/custom:\n${services.join('')}`,
      );
      expectCode(await runInProcess(['apply', '-f', doc, '--yes', '-o', 'json'], { env }), 0);
      assert.ok(proxy.mostInFlight > 1, `requests in flight at once: ${proxy.mostInFlight}`);
      // The device lists a table in the order its objects were made: as the document has them.
      assert.deepEqual(
        (emu.objects('firewall/address', 'root') as Obj[]).map((o) => o.name).filter((n) => /^a\d/.test(String(n))),
        names.map((i) => `a${i}`),
      );

      const policies = Array.from(
        { length: 4 },
        (_, i) =>
          `      - policyid: ${40 - i}\n        name: p${i}\n        srcintf: [{name: port1}]\n        dstintf: [{name: port2}]\n` +
          '        srcaddr: [{name: all}]\n        dstaddr: [{name: all}]\n        service: [{name: ALL}]\n' +
          '        schedule: always\n        action: accept\n',
      );
      const topDown = join(dir, 'policies.yaml');
      writeFileSync(topDown, `vdoms:\n  root:\n    firewall/policy:\n${policies.join('')}`);
      const other = await startFaultProxy({
        target: emu.url,
        seed: 2,
        rate: 0,
        hold: (h) => (h.startsWith('GET') ? 0 : 40),
      });
      try {
        const r = await runInProcess(['apply', '-f', topDown, '--yes', '-o', 'json'], {
          env: { ...env, CMDB_HOST: other.url },
        });
        expectCode(r, 0);
        assert.equal(other.mostInFlight, 1, 'one policy write at a time');
      } finally {
        await other.close();
      }
      assert.deepEqual(
        (emu.objects('firewall/policy', 'root') as Obj[]).map((o) => o.policyid),
        [40, 39, 38, 37],
        "the document's order",
      );
    } finally {
      await proxy.close();
    }
  });
});
