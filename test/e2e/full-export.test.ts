// `export` is a full backup of the CMDB (CLI.md "Every table the device has"): every table the device
// has that can be read as a whole, in every VDOM asked; restored with `apply --prune` onto a fresh
// device and exported again, byte for byte, the order of firewall policies included. Tables refused by
// the access profile and tables the device lacks are summarised once; SPEC.md's renamed tables are
// asked under the device's name when SPEC.md's answers 404, and written under it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, request, type Server } from 'node:http';
import { rmSync } from 'node:fs';
import { allTables, type TableDef } from '../../src/catalogue/index.js';
import { SHIPPED_CATALOGUE } from '../../src/catalogue/provider.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';

type Obj = Record<string, unknown>;

const homes: string[] = [];
function env(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const e = isolatedEnv(extra);
  homes.push(e.HOME!);
  return e;
}
after(() => {
  for (const home of homes) rmSync(home, { recursive: true, force: true });
});

function ok(r: Run, what: string): void {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}${r.stdout.slice(0, 2000)}`);
}

const run = (e: NodeJS.ProcessEnv, ...args: string[]) => runInProcess(args, { env: e, timeoutMs: 120_000 });

/** The keys of a keyed table in a YAML document of one VDOM, in the document's order. */
function policyIds(yamlText: string, vdom: string): number[] {
  const section = yamlText.split(/^ {2}(?=\S)/m).find((s) => s.startsWith(`${vdom}:`)) ?? '';
  const table = section.split(/^ {4}(?=\S)/m).find((s) => s.startsWith('firewall/policy:')) ?? '';
  return [...table.matchAll(/^ {6}- policyid: (\d+)$/gm)].map((m) => Number(m[1]));
}

describe('a full export restored onto a fresh device', () => {
  let fresh: RunningEmulator;
  before(async () => {
    fresh = await startEmulator({ port: 0, seed: 'demo' });
  });
  after(() => fresh.close());

  test('export, apply --prune, export again: byte-identical, policies in their order, not their ids', async () => {
    const demo = env({ CMDB_DEMO: '1' });
    // Policies created through the API in an order that is not their ids', one with the key the device picks.
    for (const id of [30, 10, 20])
      ok(
        await run(
          demo,
          'create',
          'firewall/policy',
          '--set',
          `policyid=${id}`,
          '--set',
          `name=p${id}`,
          '--set',
          'action=accept',
          '--set',
          'srcintf=port1',
          '--set',
          'dstintf=port2',
          '--set',
          'srcaddr=all',
          '--set',
          'dstaddr=all',
          '--set',
          'service=ALL',
          '--set',
          'schedule=always',
        ),
        `create policy ${id}`,
      );
    ok(
      await run(
        demo,
        'create',
        'firewall/policy',
        '--set',
        'policyid=0',
        '--set',
        'name=picked',
        ...['srcintf=port5', 'dstintf=port6', 'srcaddr=all', 'dstaddr=all', 'service=ALL', 'schedule=always'].flatMap(
          (set) => ['--set', set],
        ),
        '--vdom',
        'dmz',
      ),
      'create a policy whose id the device picks',
    );
    ok(
      await run(
        demo,
        'create',
        'router/static',
        '--set',
        'seq-num=5',
        '--set',
        'dst=10.5.0.0/16',
        '--set',
        'gateway=192.0.2.1',
        '--vdom',
        'dmz',
      ),
      'create a route',
    );
    const first = await run(demo, 'export', '--vdom', '*');
    ok(first, 'export');
    assert.equal(first.stderr, '', 'a full export of a device with every table says nothing');
    const ids = policyIds(first.stdout, 'root');
    assert.deepEqual(ids.slice(-3), [30, 10, 20]);
    // Every table that can be read as a whole: the global ones once, the others in both VDOMs; an empty
    // keyed table is an empty list.
    const readable = allTables().filter((t) => t.operations.includes('L') || t.operations.includes('G'));
    const [head, vdomsPart] = first.stdout.split(/^vdoms:$/m);
    const global = new Set([...head.matchAll(/^ {2}(\S+):/gm)].map((m) => m[1]));
    for (const t of readable.filter((t) => t.scope === 'global'))
      assert.ok(global.has(t.path), `${t.path} (global) is in the export`);
    for (const vdom of ['root', 'dmz']) {
      const section = vdomsPart.split(/^ {2}(?=\S)/m).find((s) => s.startsWith(`${vdom}:`)) ?? '';
      const named = new Set([...section.matchAll(/^ {4}(\S+):/gm)].map((m) => m[1]));
      for (const t of readable.filter((t) => t.scope !== 'global'))
        assert.ok(named.has(t.path), `${t.path} (vdom ${vdom}) is in the export`);
      for (const t of global) assert.ok(!named.has(t), `${t}, a global table, is not under vdom ${vdom}`);
    }
    assert.match(first.stdout, /^ {4}firewall\/DoS-policy: \[\]$/m);

    // The fresh device differs: an object more, a singleton changed, a policy fewer.
    const target = env({ CMDB_HOST: fresh.url, CMDB_TOKEN: fresh.token });
    ok(
      await run(target, 'create', 'firewall/address', '--set', 'name=extra', '--set', 'subnet=10.77.0.0/16'),
      'create extra',
    );
    ok(
      await run(target, 'update', 'log.disk/setting', '--set', 'status=disable', '--vdom', 'dmz'),
      'change a singleton',
    );
    const restore = await runInProcess(['apply', '-f', '-', '--prune', '--yes', '-o', 'json'], {
      env: target,
      stdin: first.stdout,
      timeoutMs: 120_000,
    });
    ok(restore, 'apply --prune');
    const report = JSON.parse(restore.stdout) as { applied: Obj[] };
    assert.ok(
      report.applied.some((s) => s.action === 'delete' && s.key === 'extra'),
      'the extra object is pruned',
    );
    const second = await run(target, 'export', '--vdom', '*');
    ok(second, 'export again');
    assert.ok(second.stdout === first.stdout, 'the second export is byte-identical to the first');
    assert.deepEqual(policyIds(second.stdout, 'root'), ids);
    const again = await runInProcess(['diff', '-f', '-', '--prune', '-o', 'json'], {
      env: target,
      stdin: first.stdout,
      timeoutMs: 120_000,
    });
    assert.equal(again.code, 0, `in sync after the restore:\n${again.stdout}`);

    // The policies put in another order by a document: moved into it, the fewest moves.
    const policies = JSON.parse((await run(target, 'export', 'firewall/policy', '-o', 'json')).stdout) as {
      vdoms: { root: { 'firewall/policy': Obj[] } };
    };
    const list = policies.vdoms.root['firewall/policy'];
    const reordered = [list.at(-1)!, ...list.slice(0, -1)];
    const moved = await runInProcess(['apply', '-f', '-', '--yes', '-o', 'json'], {
      env: target,
      stdin: JSON.stringify({ vdoms: { root: { 'firewall/policy': reordered } } }),
    });
    ok(moved, 'apply the new order');
    assert.deepEqual(
      (JSON.parse(moved.stdout) as { applied: Obj[] }).applied.map((s) => [s.action, s.key, s.before]),
      [['move', 20, list[0].policyid]],
    );
    assert.deepEqual(
      (fresh.objects('firewall/policy', 'root') as Obj[]).map((p) => p.policyid),
      reordered.map((p) => p.policyid),
    );
  });
});

describe('the demo export restored onto a device that has only its factory objects', () => {
  test('apply --prune of a full export onto --seed empty succeeds in one run, and the device is then in sync', async () => {
    const [demo, empty] = await Promise.all([
      startEmulator({ port: 0, seed: 'demo' }),
      startEmulator({ port: 0, seed: 'empty' }),
    ]);
    try {
      const backup = await run(env({ CMDB_HOST: demo.url, CMDB_TOKEN: demo.token }), 'export', '--vdom', '*');
      ok(backup, 'export');
      const target = env({ CMDB_HOST: empty.url, CMDB_TOKEN: empty.token });
      const restore = await runInProcess(['apply', '-f', '-', '--prune', '--yes', '-o', 'json'], {
        env: target,
        stdin: backup.stdout,
        timeoutMs: 120_000,
      });
      ok(restore, 'apply --prune onto an empty device');
      const again = await runInProcess(['diff', '-f', '-', '--prune', '-o', 'json'], {
        env: target,
        stdin: backup.stdout,
        timeoutMs: 120_000,
      });
      assert.equal(again.code, 0, `in sync after one run:\n${again.stdout.slice(0, 2000)}`);
    } finally {
      await Promise.all([demo.close(), empty.close()]);
    }
  });
});

describe('what a full export leaves out', () => {
  let emu: RunningEmulator;
  let proxy: Server;
  let proxyUrl: string;
  // A device without SPEC.md's names of the renamed tables (it has only its own) and without one table.
  const missing =
    /^\/api\/v2\/cmdb\/(log\.vendoranalyzer2\/|log\.vendoranalyzer-cloud\/|vpn\.ipsec\/vendorclient|firewall\/DoS-policy6)/;
  const asked: string[] = [];
  before(async () => {
    emu = await startEmulator({
      port: 0,
      seed: 'demo',
      tokens: [
        { token: 'all'.padEnd(30, 'a') },
        {
          token: 'limited'.padEnd(30, 'l'),
          groups: [
            'loggrp',
            'netgrp',
            'authgrp',
            'utmgrp',
            'vpngrp',
            'secfabgrp',
            'wanoptgrp',
            'wifi',
            'admingrp',
            'mntgrp',
            'sysgrp',
          ].filter((g) => g !== 'sysgrp'),
        },
      ],
    });
    const to = new URL(emu.url);
    proxy = createServer((req, res) => {
      asked.push(req.url!);
      const path = missing.test(req.url!)
        ? req.url!.replace(missing, '/api/v2/cmdb/no-such-area/no-such-table')
        : req.url!;
      const upstream = request(
        { host: to.hostname, port: to.port, method: req.method, path, headers: req.headers },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  });
  after(async () => {
    proxy.closeAllConnections();
    await new Promise((resolve) => proxy.close(resolve));
    await emu.close();
  });

  test("renamed tables are asked again under the device's name, written under it, and the name is remembered", async () => {
    const e = env({ CMDB_HOST: proxyUrl, CMDB_TOKEN: 'all'.padEnd(30, 'a') });
    const r = await run(e, 'export');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^cmdb: warning: 1 table left out: one is not on this device\n$/);
    assert.match(r.stdout, /^ {2}log\.fortianalyzer2\/filter:$/m);
    assert.match(r.stdout, /^ {4}vpn\.ipsec\/forticlient:( \[\])?$/m);
    assert.doesNotMatch(r.stdout, /vendoranalyzer|vendorclient|DoS-policy6/);
    asked.length = 0;
    ok(await run(e, 'export'), 'export again');
    assert.ok(
      !asked.some((p) => p.includes('vendoranalyzer') || p.includes('vendorclient')),
      `the device's names are asked first: ${asked.filter((p) => /vendor|forti/.test(p)).join(', ')}`,
    );
    // A document naming them either way is the same table to diff.
    const doc = r.stdout;
    const specNames = doc.replace(/log\.fortianalyzer2\//g, 'log.vendoranalyzer2/');
    const d = await runInProcess(['diff', '-f', '-', '-o', 'json'], { env: e, stdin: specNames, timeoutMs: 120_000 });
    assert.equal(d.code, 0, d.stdout + d.stderr);
  });

  test('a table named on the line that the device lacks is exit 6; --spec exports the 42 only', async () => {
    const e = env({ CMDB_HOST: proxyUrl, CMDB_TOKEN: 'all'.padEnd(30, 'a') });
    const named = await run(e, 'export', 'firewall/DoS-policy6', 'router/static');
    assert.equal(named.code, 6, named.stderr);
    assert.match(named.stderr, /firewall\/DoS-policy6 is left out/);
    const spec = await run(e, 'export', '--spec', '-o', 'json');
    ok(spec, 'export --spec');
    const document = JSON.parse(spec.stdout) as { global: Obj; vdoms: Record<string, Obj> };
    const tables = [...Object.keys(document.global), ...Object.keys(document.vdoms.root)];
    assert.equal(
      tables.length,
      allTables().filter((t) => t.spec && (t.operations.includes('L') || t.operations.includes('G'))).length,
    );
  });

  test('tables the access profile refuses are summarised once, naming their groups, with exit 5', async () => {
    const e = env({ CMDB_HOST: proxyUrl, CMDB_TOKEN: 'limited'.padEnd(30, 'l') });
    const r = await run(e, 'export', '--concurrency', '16');
    assert.equal(r.code, 5, r.stderr);
    // firewall/DoS-policy6 (fwgrp) is not on this device: counted as missing, not refused.
    const refused =
      allTables().filter(
        (t) => ['fwgrp', 'sysgrp'].includes(t.group) && (t.operations.includes('L') || t.operations.includes('G')),
      ).length - 1;
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.match(
      lines[0],
      new RegExp(
        `^cmdb: warning: ${refused + 1} tables left out: permission denied for ${refused} \\(groups: fwgrp, sysgrp\\); one is not on this device$`,
      ),
    );
    assert.match(r.stdout, /log\.disk\/setting:/);
  });
});

describe('a table the device will not list (405: its model or mode lacks it)', () => {
  // An emulated device whose own catalogue has no list for firewall/decrypted-traffic-mirror: it
  // answers 405 there, as devices do, while the shipped catalogue documents the list.
  const REFUSED = 'firewall/decrypted-traffic-mirror';
  let emu: RunningEmulator;
  before(async () => {
    const unlisted = (table: TableDef | undefined) =>
      table?.path === REFUSED ? { ...table, operations: table.operations.filter((op) => op !== 'L') } : table;
    emu = await startEmulator({
      port: 0,
      seed: 'demo',
      catalogue: { ...SHIPPED_CATALOGUE, find: (path) => unlisted(SHIPPED_CATALOGUE.find(path)) },
    });
  });
  after(() => emu.close());

  test('a full export leaves it out, counts it in the one summary line, and exits 0', async () => {
    const e = env({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    const r = await run(e, 'export');
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^cmdb: warning: 1 table left out: one is not listed by this device \(HTTP 405\)\n$/);
    assert.ok(!/^ {4}firewall\/decrypted-traffic-mirror:/m.test(r.stdout), 'the table is left out');
    assert.ok(/^ {4}firewall\/address:$/m.test(r.stdout), 'the others are written');
  });

  test('named on the line, its refusal keeps its exit code (7)', async () => {
    const e = env({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
    const r = await run(e, 'export', REFUSED, 'firewall/address');
    assert.equal(r.code, 7, r.stderr);
    assert.match(r.stderr, /firewall\/decrypted-traffic-mirror is left out/);
  });
});
