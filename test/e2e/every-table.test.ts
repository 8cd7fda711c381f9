// Every table the device has is first-class (CLI.md "Every table the device has"): a sample of every
// area of the 6.4.14 catalogue, one table with a string key, one with an integer key and one singleton
// per area where it has them, through the program (in-process, test/helpers/inprocess.ts) against the
// emulator over HTTP. Operations as the
// catalogue allows; bad values refused with exit 2 and nothing sent (the emulator's request log).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { allTables, areaOf, type FieldSchema, type TableDef } from '../../src/catalogue/index.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { newKey, sampleValue } from '../helpers/samples.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(async () => {
  await emu.close();
  rmSync(env.HOME!, { recursive: true, force: true });
});

const NOTICE = /sending it as a keyed table/;

async function run(...args: string[]): Promise<Run> {
  const r = await runInProcess(args, { env, timeoutMs: 60_000 });
  assert.doesNotMatch(r.stderr, NOTICE, `${args.join(' ')}: ${r.stderr}`);
  return r;
}

function ok(r: Run, what: string): void {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}${r.stdout}`);
}

/** A run refused before anything was sent: exit 2, the device's request log unchanged. */
async function refused(args: string[], message: RegExp): Promise<void> {
  const sent = emu.requests.length;
  const r = await run(...args);
  assert.equal(r.code, 2, `${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  assert.match(r.stderr, message);
  assert.equal(
    emu.requests.length,
    sent,
    `${args.join(' ')} sent ${emu.requests
      .slice(sent)
      .map((q) => `${q.method} ${q.path}`)
      .join(', ')}`,
  );
}

const full = (t: TableDef, ...ops: string[]) => ops.every((op) => t.operations.includes(op as never));

/** What a create of a table needs beyond its key, as a device refuses it without (a policy's interfaces...). */
const NEEDS: Record<string, string[]> = {
  'firewall/policy': ['srcintf=port1', 'dstintf=port2', 'srcaddr=all', 'dstaddr=all', 'schedule=always', 'service=ALL'],
};

/** A plain field `--set` can give a valid new value: an option with several values, else short text. */
function plainField(table: TableDef): [string, FieldSchema, unknown] | undefined {
  const fields = Object.entries(table.fields).filter(
    ([name, f]) => name !== table.key && f.type !== 'array' && !f.multiple,
  );
  const pick =
    fields.find(([, f]) => f.enum && f.enum.length > 1) ??
    fields.find(([, f]) => f.type === 'string' && !f.enum && !f.format && (f.maxLength ?? 10) >= 3);
  return pick && [pick[0], pick[1], sampleValue(pick[1])];
}

// The sample: per area, the first keyed table with a string key and one with an integer key that take
// every keyed operation, and the first singleton that can be read and updated; plus the tables whose
// names need care in a URL.
const sample = new Map<string, TableDef>();
for (const kind of ['string', 'integer', 'singleton'] as const) {
  const seen = new Set<string>();
  for (const t of allTables()) {
    const area = areaOf(t.path);
    if (seen.has(area) || !plainField(t)) continue;
    const fits =
      kind === 'singleton'
        ? t.singleton && full(t, 'G', 'P')
        : !t.singleton && t.keyType === kind && full(t, 'L', 'C', 'R', 'U', 'D');
    if (!fits) continue;
    seen.add(area);
    sample.set(t.path, t);
  }
}
for (const path of ['user/tacacs+', 'firewall/DoS-policy', 'firewall/policy', 'router/static', 'firewall/address'])
  sample.set(path, allTables().find((t) => t.path === path)!);

test('the sample covers every area, both key types and singletons', () => {
  const areas = new Set(allTables().map((t) => areaOf(t.path)));
  const sampled = [...sample.values()];
  for (const area of areas) {
    const has = (kind: (t: TableDef) => boolean) =>
      allTables().some(
        (t) =>
          areaOf(t.path) === area &&
          kind(t) &&
          plainField(t) &&
          (t.singleton ? full(t, 'G', 'P') : full(t, 'L', 'C', 'R', 'U', 'D')),
      );
    for (const kind of [
      (t: TableDef) => !t.singleton && t.keyType === 'string',
      (t: TableDef) => !t.singleton && t.keyType === 'integer',
      (t: TableDef) => t.singleton,
    ]) {
      if (has(kind))
        assert.ok(
          sampled.some((t) => areaOf(t.path) === area && kind(t)),
          `${area}: ${kind}`,
        );
    }
  }
  assert.ok(sampled.length > 60, String(sampled.length));
});

for (const table of sample.values()) {
  describe(table.path, { concurrency: false }, () => {
    const [field, schema, value] = plainField(table)!;
    const wrong = schema.enum ? 'no-such-value' : 'x'.repeat((schema.maxLength ?? 0) + 1);
    const wrongMessage = schema.enum ? /must be one of|is not one of/ : /maximum is/;

    if (table.singleton) {
      test('read and update the singleton; a bad value or an unknown field is refused before sending', async () => {
        ok(await run('get', table.path, '-o', 'json'), 'get');
        const r = await run('update', table.path, '--set', `${field}=${String(value)}`, '-o', 'json');
        ok(r, 'update');
        assert.deepEqual((emu.objects(table.path, 'root') as Obj)[field], value);
        if (schema.enum || schema.maxLength)
          await refused(['update', table.path, '--set', `${field}=${wrong}`], wrongMessage);
        await refused(['update', table.path, '--set', `${field}x=1`], /is not a field of/);
      });
      return;
    }

    test(`create, get, update, list, delete by its ${table.keyType} key ${table.key}`, async () => {
      const key = newKey(
        table,
        (emu.objects(table.path, 'root') as Obj[]).map((o) => o[table.key!]),
      );
      const keyArg = String(key);
      if (table.keyType === 'integer') await refused(['get', table.path, 'seven'], /integer keys/);
      const created = await run(
        'create',
        table.path,
        '--set',
        `${table.key}=${keyArg}`,
        '--set',
        `${field}=${String(value)}`,
        ...(NEEDS[table.path] ?? []).flatMap((set) => ['--set', set]),
        '-o',
        'json',
      );
      ok(created, 'create');
      const object = json<Obj>(await run('get', table.path, keyArg, '-o', 'json'));
      assert.deepEqual(object[table.key!], key, 'the key keeps its type');
      assert.deepEqual(object[field], value);
      if (schema.enum || schema.maxLength)
        await refused(['update', table.path, keyArg, '--set', `${field}=${wrong}`], wrongMessage);
      await refused(
        ['create', table.path, '--data', JSON.stringify({ [table.key!]: key, [`${field}x`]: value })],
        /is not a field of/,
      );
      const other = sampleValue(schema, value);
      ok(await run('update', table.path, keyArg, '--set', `${field}=${String(other)}`, '-o', 'json'), 'update');
      const listed = json<Obj[]>(await run('list', table.path, '-o', 'json'));
      assert.deepEqual(listed.find((o) => o[table.key!] === key)?.[field], other);
      ok(await run('delete', table.path, keyArg, '-o', 'json'), 'delete');
      assert.ok(!(emu.objects(table.path, 'root') as Obj[]).some((o) => String(o[table.key!]) === keyArg));
      const sent = emu.requests.map((q) => q.path).filter((p) => p.includes('/cmdb/'));
      assert.ok(
        sent.some((p) => p.startsWith(`/api/v2/cmdb/${table.path}/`)),
        `${table.path} as the device spells it, in ${sent.at(-1)}`,
      );
    });
  });
}

describe('device tables beyond SPEC.md', () => {
  test('an IPv4 field takes a prefix or a mask, refuses what is not an address; integer keys from --set are numbers', async () => {
    ok(await run('create', 'firewall/address', '--set', 'name=e2e-lan', '--set', 'subnet=10.9.0.0/24'), 'create');
    await refused(
      ['create', 'firewall/address', '--set', 'name=e2e-bad', '--set', 'subnet=10.9.0.0/33'],
      /'subnet' must be an IPv4 address/,
    );
    await refused(
      ['create', 'router/static', '--set', 'seq-num=77', '--set', 'gateway=gw.example'],
      /'gateway' must be an IPv4 address/,
    );
    ok(
      await run(
        'create',
        'router/static',
        '--set',
        'seq-num=77',
        '--set',
        'dst=10.8.0.0 255.255.0.0',
        '--set',
        'gateway=192.0.2.1',
      ),
      'create route',
    );
    assert.ok((emu.objects('router/static', 'root') as Obj[]).some((o) => o['seq-num'] === 77));
  });

  test('members of a device table: += and -= on a list of named entries and on a multi-value address field', async () => {
    ok(await run('create', 'firewall/addrgrp', '--set', 'name=e2e-grp', '--set', 'member=all'), 'create group');
    ok(await run('update', 'firewall/addrgrp', 'e2e-grp', '--set', 'member+=e2e-lan'), 'add member');
    assert.deepEqual(
      ((emu.objects('firewall/addrgrp', 'root') as Obj[]).find((o) => o.name === 'e2e-grp')!.member as Obj[]).map(
        (m) => m.name,
      ),
      ['all', 'e2e-lan'],
    );
    ok(await run('update', 'firewall/addrgrp', 'e2e-grp', '--set', 'member-=all'), 'remove member');
    assert.deepEqual(
      ((emu.objects('firewall/addrgrp', 'root') as Obj[]).find((o) => o.name === 'e2e-grp')!.member as Obj[]).map(
        (m) => m.name,
      ),
      ['e2e-lan'],
    );
    ok(
      await run('create', 'system.snmp/user', '--set', 'name=e2e-snmp', '--set', 'notify-hosts=192.0.2.1'),
      'create snmp user',
    );
    ok(await run('update', 'system.snmp/user', 'e2e-snmp', '--set', 'notify-hosts+=192.0.2.2,192.0.2.1'), 'add host');
    assert.equal(
      (emu.objects('system.snmp/user', 'root') as Obj[]).find((o) => o.name === 'e2e-snmp')!['notify-hosts'],
      '192.0.2.1 192.0.2.2',
    );
  });

  test('every operation the device documents is allowed; one it does not is exit 2 unless --force', async () => {
    ok(
      await run('create', 'firewall.ipmacbinding/table', '--set', 'seq-num=91', '--set', 'ip=192.0.2.91'),
      'create binding',
    );
    ok(await run('update', 'firewall.ipmacbinding/table', '91', '--set', 'ip=192.0.2.92'), 'update binding');
    await refused(['update', 'certificate/ca', 'Device_CA', '--set', 'range=vdom'], /does not support update/);
  });
});
