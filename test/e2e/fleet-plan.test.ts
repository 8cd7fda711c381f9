// Fleet writes show before they ask, and interruptions say what was done (issue #22, items 2 and 3): several
// emulators, each a saved device, through the program (in-process; a pseudo-terminal and Ctrl-C through the
// built CLI).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, isolatedEnv, json, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { cmdbOnTerminal } from '../helpers/pty.js';
import { startFaultProxy } from '../helpers/fault-proxy.js';

type Obj = Record<string, unknown>;
const BINDINGS = 'firewall.ipmacbinding/table';
const ACL = 'router/access-list';
const NAMES = ['fw-a', 'fw-b', 'gold'] as const;
const emus: Record<string, RunningEmulator> = {};
let env: NodeJS.ProcessEnv;
let dir: string;

const binding = (seq: number, name: string): Obj => ({
  'seq-num': seq,
  ip: `10.0.0.${seq}`,
  mac: `00:09:0f:00:00:${String(seq).padStart(2, '0')}`,
  name,
  status: 'enable',
});
const ok = (r: Run, code = 0) => assert.equal(r.code, code, `exit ${r.code}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
/** What each device's access lists say: `name=comments`. */
const acls = (device: string) => (emus[device].objects(ACL, 'root') as Obj[]).map((o) => `${o.name}=${o.comments}`);
const writes = () => Object.values(emus).reduce((n, e) => n + e.requests.filter((r) => r.method !== 'GET').length, 0);
const run = (...args: string[]) => runInProcess(args, { env });

const TOKEN = 'fleetplantoken0123456789abcdefg';

/** Every device afresh on its own port: two access lists, one shared, one whose comments name the device; gold has a third. */
async function reset(): Promise<void> {
  for (const name of NAMES) {
    const port = emus[name] ? Number(new URL(emus[name].url).port) : 0;
    await emus[name]?.close();
    emus[name] = await startEmulator({ port, seed: 'empty', tokens: [{ token: TOKEN }] });
    emus[name].populate(ACL, 'root', [
      { name: 'shared', comments: 'same' },
      { name: 'own', comments: name },
      ...(name === 'gold' ? [{ name: 'gold-only', comments: 'gold' }] : []),
    ]);
  }
}

before(async () => {
  await reset();
  env = isolatedEnv();
  const config = join(env.XDG_CONFIG_HOME!, 'cmdb');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  writeFileSync(
    join(config, 'config.yaml'),
    [
      'default: fw-a',
      'devices:',
      ...NAMES.flatMap((n) => [
        `  ${n}:`,
        `    host: ${emus[n].url}`,
        '    auth: token',
        '    secrets: file',
        '    plain-text-ok: true',
      ]),
    ].join('\n') + '\n',
    { mode: 0o600 },
  );
  writeFileSync(join(config, 'credentials.yaml'), NAMES.map((n) => `${n}: ${TOKEN}`).join('\n') + '\n', {
    mode: 0o600,
  });
  dir = mkdtempSync(join(tmpdir(), 'cmdb-fleet-dir-'));
});
after(async () => {
  for (const emu of Object.values(emus)) await emu.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

describe('--dir: each device against DIR/<device>.yaml', () => {
  test('export --dir, then diff --dir is in sync; a changed file is a plan for its device only; apply --dir makes it so', async () => {
    await reset();
    ok(await run('export', ACL, '-d', 'fw-a,fw-b', '--dir', dir));
    const same = await run('diff', '-d', 'fw-a,fw-b', '--dir', dir, '-o', 'json');
    ok(same);
    const file = join(dir, 'fw-a.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('comments: fw-a', 'comments: renamed'));
    const differ = await run('diff', '-d', 'fw-a,fw-b', '--dir', dir, '-o', 'json');
    ok(differ, 10);
    const plans = json<Record<string, { update: Obj[] }>>(differ);
    assert.deepEqual(Object.keys(plans), ['fw-a', 'fw-b']);
    assert.equal(plans['fw-a'].update.length, 1);
    assert.equal(plans['fw-b'].update.length, 0);
    ok(await run('apply', '-d', 'fw-a,fw-b', '--dir', dir, '--yes', '-o', 'json'));
    assert.deepEqual(acls('fw-a'), ['shared=same', 'own=renamed']);
    assert.deepEqual(acls('fw-b'), ['shared=same', 'own=fw-b']);
  });

  test('a device without a file is an error for that device; the others are still compared', async () => {
    await reset();
    ok(await run('export', ACL, '-d', 'fw-a', '--dir', dir));
    unlinkSync(join(dir, 'fw-b.yaml'));
    const r = await run('diff', '-d', 'fw-a,fw-b', '--dir', dir);
    ok(r, 2);
    assert.deepEqual(Object.keys(json<Obj>(r)), ['fw-a']);
    assert.match(r.stderr, /fw-b: no desired configuration for fw-b: .*fw-b\.yaml does not exist/);
  });

  test('a file that names no saved device is a usage error, and nothing is sent', async () => {
    const ghost = join(dir, 'fw-gone.yaml');
    writeFileSync(ghost, 'vdoms: {}\n');
    try {
      const since = Object.values(emus).reduce((n, e) => n + e.requests.length, 0);
      const r = await run('apply', '-d', 'fw-a,fw-b', '--dir', dir, '--yes');
      ok(r, 2);
      assert.match(r.stderr, /fw-gone\.yaml names no saved device/);
      assert.equal(
        Object.values(emus).reduce((n, e) => n + e.requests.length, 0),
        since,
      );
    } finally {
      unlinkSync(ghost);
    }
  });
});

test('apply --from makes devices match another device, as diff --from compares them', async () => {
  await reset();
  ok(await run('diff', ACL, '--from', 'gold', '-d', 'fw-a,fw-b', '-o', 'json'), 10);
  ok(await run('apply', ACL, '--from', 'gold', '-d', 'fw-a,fw-b', '--prune', '--yes', '-o', 'json'));
  assert.deepEqual(acls('fw-a'), ['shared=same', 'own=gold', 'gold-only=gold']);
  assert.deepEqual(acls('fw-b'), ['shared=same', 'own=gold', 'gold-only=gold']);
  ok(await run('diff', ACL, '--from', 'gold', '-d', 'fw-a,fw-b', '--prune', '-o', 'json'));
  const both = await run('apply', ACL, '--from', 'gold', '-f', 'x.yaml');
  assert.equal(both.code, 2, '--from and -f together');
  assert.match(both.stderr, /give the desired configuration one way: -f or --from, not both/);
});

describe('on a terminal', () => {
  test('apply on several devices prints every plan, then asks once; devices in sync are named, not counted', async () => {
    await reset();
    const since = writes();
    const r = await cmdbOnTerminal(['apply', ACL, '--from', 'gold', '-d', 'fw-a,fw-b,gold'], 'y\r', env);
    ok(r);
    const out = r.stdout;
    const question = out.indexOf('apply 4 changes on 2 devices (fw-a, fw-b)? [y/N]');
    assert.ok(question > 0, out);
    for (const device of ['fw-a', 'fw-b']) {
      const heading = out.indexOf(`== device: ${device} ==`);
      assert.ok(heading >= 0 && heading < question, `${device}'s plan comes before the question:\n${out}`);
      const plan = out.indexOf('~ router/access-list own', heading);
      assert.ok(plan > heading && plan < question, out);
      assert.ok(out.indexOf('+ router/access-list gold-only', heading) < question, out);
    }
    assert.match(out.slice(0, question), /in sync, nothing to apply: gold/);
    assert.equal((out.match(/\[y\/N\]/g) ?? []).length, 1, out);
    assert.equal(writes() - since, 4);
    assert.deepEqual(acls('fw-b'), ['shared=same', 'own=gold', 'gold-only=gold']);
    // The progress line is taken away before anything else is written: each one is followed by its clearing.
    assert.match(out, /\d\/3 devices/);
    assert.doesNotMatch(out, /\d\/3 devices(?!\r\x1b\[K)/);
  });

  test('declined: nothing is written on any device', async () => {
    await reset();
    const since = writes();
    const r = await cmdbOnTerminal(['apply', ACL, '--from', 'gold', '-d', 'fw-a,fw-b'], 'n\r', env);
    assert.match(r.stdout, /apply 4 changes on 2 devices \(fw-a, fw-b\)\? \[y\/N\]/);
    assert.equal(writes(), since);
  });

  test('Ctrl-C at the question: nothing is written, exit 130', async () => {
    await reset();
    const since = writes();
    const r = await cmdbOnTerminal(['apply', ACL, '--from', 'gold', '-d', 'fw-a,fw-b'], '', env, {
      when: [[/\[y\/N\] $/, '\x03']],
    });
    assert.equal(r.code, 130, r.stdout);
    assert.equal(writes(), since);
  });

  test('delete on several devices names the table and keys in its question', async () => {
    await reset();
    const r = await cmdbOnTerminal(['delete', BINDINGS, '1', '2', '-d', 'fw-a,fw-b'], 'n\r', env);
    assert.match(r.stdout, /delete firewall\.ipmacbinding\/table 1 2 on 2 devices \(fw-a, fw-b\)\? \[y\/N\]/);
  });

  test('Ctrl-C: the progress line is cleared, one line says what was done, exit 130', async () => {
    emus['fw-a'].populate(
      BINDINGS,
      'root',
      Array.from({ length: 3000 }, (_, i) => binding(100 + i, `many-${i}`)),
    );
    try {
      const r = await cmdbOnTerminal(
        ['list', BINDINGS, '-d', 'fw-a', '--all', '--page-size', '1', '-o', 'ndjson'],
        '',
        env,
        { when: [[/fetched [\d,]+ objects?…/, '\x03']] },
      );
      assert.equal(r.code, 130, r.stdout.slice(-500));
      const line = /"message":"interrupted after ([\d,]+) rows?; the output is incomplete"/.exec(r.stdout);
      assert.ok(line, r.stdout.slice(-500));
      assert.ok(Number(line[1].replace(/,/g, '')) < 3002);
      // The terminal echoes Ctrl-C as ^C where the cursor is; the line is cleared after it.
      assert.doesNotMatch(
        r.stdout,
        /fetched [\d,]+ objects?…(?!(\^C)?\r\x1b\[K)/,
        'every progress line is cleared before the next output',
      );
    } finally {
      await reset();
    }
  });
});

test('Ctrl-C on a json stream: the array begun is closed, so what was printed parses', async () => {
  emus['fw-b'].populate(
    BINDINGS,
    'root',
    Array.from({ length: 3000 }, (_, i) => binding(100 + i, `many-${i}`)),
  );
  const child = spawn(process.execPath, [BIN, 'list', BINDINGS, '-d', 'fw-b', '--all', '--page-size', '1'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  child.stdout.setEncoding('utf8').on('data', (d: string) => {
    stdout += d;
    if (stdout.length > 500 && !child.killed) child.kill('SIGINT');
  });
  try {
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    assert.equal(code, 130, stderr);
    const rows = JSON.parse(stdout) as Obj[];
    assert.ok(rows.length > 0 && rows.length < 3000);
    assert.equal(
      stderr,
      `cmdb: interrupted after ${rows.length.toLocaleString('en-US')} rows; the output is incomplete (the JSON array printed is closed, so it still parses)\n`,
    );
  } finally {
    await reset();
  }
});

test('a device lost mid-stream: the same kind of line, the JSON closed, and no hint about HTTPS spoken in plain HTTP', async () => {
  emus['fw-b'].populate(
    BINDINGS,
    'root',
    Array.from({ length: 40 }, (_, i) => binding(100 + i, `many-${i}`)),
  );
  const proxy = await startFaultProxy({
    target: emus['fw-b'].url,
    seed: 1,
    choose: (head) => (/[?&]start=20\b/.test(head) ? 'before' : 'pass'),
  });
  try {
    const r = await runInProcess(['list', BINDINGS, '--all', '--page-size', '10'], {
      env: { ...isolatedEnv({ CMDB_HOST: proxy.url, CMDB_TOKEN: TOKEN }) },
    });
    assert.equal(r.code, 3, r.stderr);
    assert.equal(json<Obj[]>(r).length, 20);
    assert.match(
      r.stderr,
      /^cmdb: the connection to .* was closed while the device was answering, after 20 rows; the output is incomplete \(the JSON array printed is closed, so it still parses\)$/m,
    );
    assert.doesNotMatch(r.stderr, /plain HTTP/);
  } finally {
    await proxy.close();
    await reset();
  }
});
