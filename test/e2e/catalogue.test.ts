// Every table of SPEC.md with every operation the device documents for it, through the program (in-process),
// against the emulator over real HTTP; asserts stdout, exit code and the emulator's resulting state.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { allTables, type TableDef } from '../../src/catalogue/index.js';
import { withoutMeta } from '../../src/catalogue/validate.js';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, json } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { newKey, setArg, settableField } from '../helpers/samples.js';

type Obj = Record<string, unknown>;

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'demo' });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
});
after(() => emu.close());

const rows = (t: TableDef, vdom = 'root') => emu.objects(t.path, vdom) as Obj[];
const single = (t: TableDef, vdom = 'root') => emu.objects(t.path, vdom) as Obj;
const keysOf = (t: TableDef) => rows(t).map((o) => o[t.key!]);
const run = (...args: string[]) => runInProcess(args, { env });

function ok(r: { code: number | null; stderr: string; stdout: string }, what: string) {
  assert.equal(r.code, 0, `${what} failed (exit ${r.code}):\n${r.stderr}${r.stdout}`);
}

// SPEC.md's 42 here; the device's other tables are sampled per area in test/e2e/device-tables.test.ts.
for (const table of allTables().filter((t) => t.spec)) {
  describe(table.path, () => {
    const has = (op: string) => table.operations.includes(op as never);

    if (has('L')) {
      test('list (L)', async () => {
        const r = await run('list', table.path, '--vdom', 'root', '-o', 'json');
        ok(r, 'list');
        const out = json(r);
        if (table.singleton) assert.equal(typeof out, 'object');
        else {
          assert.ok(Array.isArray(out));
          assert.deepEqual(
            (out as Obj[]).map((o) => o[table.key!]),
            keysOf(table),
          );
        }
        assert.match(emu.requests.at(-1)!.path, new RegExp(`/api/v2/cmdb/${table.path.replace('.', '\\.')}$`));
      });
    }

    if (has('G')) {
      test('read the singleton (G)', async () => {
        const r = await run('get', table.path, '-o', 'json');
        ok(r, 'get');
        const out = json<Obj>(r);
        assert.ok(!Array.isArray(out));
        for (const [k, v] of Object.entries(single(table))) assert.deepEqual(withoutMeta(out[k]), withoutMeta(v), k);
      });
    }

    if (has('P')) {
      test('update the singleton (P)', async () => {
        const field = settableField(table, single(table));
        assert.ok(field, 'no settable field');
        const r = await run('update', table.path, '--set', setArg(field), '-o', 'json');
        ok(r, 'update');
        assert.equal(json<Obj>(r).status, 'success');
        assert.deepEqual(single(table)[field.name], field.value);
        assert.equal(emu.requests.at(-1)!.method, 'PUT');
      });
    }

    if (has('C')) {
      test('create (C)', async () => {
        const key = newKey(table, keysOf(table));
        const r = await run('create', table.path, '--data', JSON.stringify({ [table.key!]: key }), '-o', 'json');
        ok(r, 'create');
        assert.equal(json<Obj>(r).status, 'success');
        assert.ok(keysOf(table).includes(key), `${key} not in ${JSON.stringify(keysOf(table))}`);
      });
    }

    if (has('R')) {
      test('read one object (R)', async () => {
        const key = keysOf(table)[0];
        assert.notEqual(key, undefined, 'the demo seed has no object here');
        const r = await run('get', table.path, String(key), '-o', 'json');
        ok(r, 'get');
        assert.equal(json<Obj>(r)[table.key!], key);
      });
    }

    if (has('U')) {
      test('update one object (U)', async () => {
        const current = rows(table)[0];
        assert.ok(current, 'the demo seed has no object here');
        const key = current[table.key!];
        const field = settableField(table, current);
        assert.ok(field, 'no settable field');
        const r = await run('update', table.path, String(key), '--set', setArg(field));
        ok(r, 'update');
        assert.deepEqual(rows(table).find((o) => o[table.key!] === key)?.[field.name], field.value);
      });
    }

    if (has('D')) {
      test('delete (D)', async () => {
        const key = keysOf(table).at(-1);
        assert.notEqual(key, undefined);
        const r = await run('delete', table.path, String(key), '-o', 'json');
        ok(r, 'delete');
        assert.ok(!keysOf(table).includes(key));
        assert.equal(emu.requests.at(-1)!.method, 'DELETE');
      });
    }

    // A singleton is read by list or get alike (the same GET), so L and G stand for each other there.
    const reads = (op: string) => table.singleton && (op === 'L' || op === 'G') && (has('L') || has('G'));
    const missing = (['L', 'C', 'R', 'U', 'D', 'G', 'P'] as const).filter(
      (op) => !has(op) && !reads(op) && !(table.singleton ? ['C', 'R', 'U', 'D'] : ['G', 'P']).includes(op),
    );
    if (missing.length) {
      test(`operations the catalogue does not list (${missing.join(',')}) are refused before sending`, async () => {
        const before = emu.requests.length;
        const op = missing[0];
        const key = table.singleton ? [] : [String(keysOf(table)[0] ?? (table.keyType === 'integer' ? 1 : 'x'))];
        const args: Record<string, string[]> = {
          L: ['list', table.path],
          C: [
            'create',
            table.path,
            '--data',
            JSON.stringify({ [table.key ?? 'name']: table.keyType === 'integer' ? 999 : 'zz' }),
          ],
          R: ['get', table.path, ...key],
          U: ['update', table.path, ...key, '--data', '{}'],
          D: ['delete', table.path, ...key],
          G: ['get', table.path],
          P: ['update', table.path, '--data', '{}'],
        };
        const r = await run(...args[op]);
        assert.equal(r.code, 2, r.stderr);
        assert.match(r.stderr, /does not support/);
        assert.equal(emu.requests.length, before, 'something was sent');
      });
    }
  });
}
