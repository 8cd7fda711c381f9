// Ctrl-C says what the run had done, in words that fit the command (CLI.md "Exit codes", 130): a read
// what it printed, an export --dir which files it wrote, a write what it sent and how that ended as far
// as known. The built CLI in its own process, SIGINT sent once the device holds a request unanswered
// (a stalling device of its own, or the emulator behind a proxy that holds one request).
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { BIN, isolatedEnv } from '../helpers/cli.js';
import { startMeddler, type Meddler } from '../helpers/meddler.js';

const TOKEN = 'interruptedtoken0123456789abcde';
const ADDRESSES = 'firewall/address';

/** A device that takes requests and never answers them; `arrived` is called with each. */
let stalling: Server;
let stallingUrl: string;
let arrived: (req: IncomingMessage) => void = () => undefined;
let emu: RunningEmulator;
let dir: string;
let env: NodeJS.ProcessEnv;

before(async () => {
  stalling = createServer((req) => arrived(req));
  await new Promise<void>((resolve) => stalling.listen(0, '127.0.0.1', resolve));
  stallingUrl = `http://127.0.0.1:${(stalling.address() as AddressInfo).port}`;
  emu = await startEmulator({ port: 0, seed: 'demo', tokens: [{ token: TOKEN }] });
  dir = mkdtempSync(join(tmpdir(), 'cmdb-interrupted-'));
  env = isolatedEnv();
  // Two saved devices: fw-a answers, fw-b never does.
  const config = join(env.XDG_CONFIG_HOME!, 'cmdb');
  mkdirSync(config, { recursive: true, mode: 0o700 });
  const profile = (name: string, host: string) =>
    [`  ${name}:`, `    host: ${host}`, '    auth: token', '    secrets: file', '    plain-text-ok: true'].join('\n');
  writeFileSync(
    join(config, 'config.yaml'),
    `devices:\n${profile('fw-a', emu.url)}\n${profile('fw-b', stallingUrl)}\n`,
    { mode: 0o600 },
  );
  writeFileSync(join(config, 'credentials.yaml'), `fw-a: ${TOKEN}\nfw-b: ${TOKEN}\n`, { mode: 0o600 });
});
after(async () => {
  stalling.closeAllConnections();
  await new Promise((resolve) => stalling.close(resolve));
  await emu.close();
  rmSync(dir, { recursive: true, force: true });
  rmSync(env.HOME!, { recursive: true, force: true });
});

/** Runs the CLI and sends it SIGINT once `ready(stdout)` holds (checked every 20 ms); returns what it said. */
async function interrupt(
  args: string[],
  ready: (stdout: string) => boolean,
  extra: NodeJS.ProcessEnv = {},
): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const child = spawn(process.execPath, [BIN, ...args], {
    env: { ...env, ...extra },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const poll = setInterval(() => {
    if (!child.killed && ready(stdout)) child.kill('SIGINT');
  }, 20);
  // A watchdog, not a timing assertion: a run that never gets there fails by its exit.
  const watchdog = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
  clearInterval(poll);
  clearTimeout(watchdog);
  return { code, stderr, stdout };
}

describe('Ctrl-C says what was done', () => {
  test('a read: what was printed, after a colon', async () => {
    let asked = false;
    arrived = () => void (asked = true);
    const r = await interrupt(['list', ADDRESSES, '-d', 'fw-b'], () => asked);
    assert.equal(r.code, 130, r.stderr);
    assert.equal(r.stderr, 'cmdb: interrupted: nothing was printed\n');
    assert.equal(r.stdout, '');
  });

  test('export --dir: the files written, and that no other was', async () => {
    let asked = false;
    arrived = () => void (asked = true);
    const out = join(dir, 'configs');
    const fleet = await interrupt(
      ['export', ADDRESSES, '-d', 'fw-a,fw-b', '--dir', out],
      () => asked && existsSync(join(out, 'fw-a.yaml')),
    );
    assert.equal(fleet.code, 130, fleet.stderr);
    assert.match(
      fleet.stderr,
      new RegExp(`cmdb: interrupted: wrote ${join(out, 'fw-a.yaml')}; no other file was written\n$`),
    );
    asked = false;
    const none = await interrupt(['export', ADDRESSES, '-d', 'fw-b', '--dir', join(dir, 'none')], () => asked);
    assert.equal(none.code, 130, none.stderr);
    assert.equal(none.stderr, 'cmdb: interrupted: no file was written\n');
  });

  test('a write: what was sent, and its outcome as far as known', async () => {
    let asked = false;
    arrived = () => void (asked = true);
    const one = await interrupt(['create', ADDRESSES, '--set', 'name=new', '-d', 'fw-b'], () => asked);
    assert.equal(one.code, 130, one.stderr);
    assert.equal(
      one.stderr,
      'cmdb: interrupted: 1 write sent, not answered yet: the device may still apply it; read the objects back to see\n',
    );

    // Through a proxy that holds the create of `held`: the others are answered.
    let held = false;
    const meddler: Meddler = await startMeddler(emu.url, async (req, body) => {
      if (req.method === 'POST' && body.toString().includes('"held"')) {
        held = true;
        await new Promise(() => undefined);
      }
    });
    try {
      const file = join(dir, 'addresses.yaml');
      writeFileSync(file, ['a', 'b', 'held'].map((n) => `- {name: ${n}, subnet: 10.9.0.0/24}`).join('\n'));
      const bulk = await interrupt(
        ['create', ADDRESSES, '-f', file, '-o', 'ndjson'],
        // The two answered writes are printed as they end.
        (stdout) => held && stdout.split('\n').length === 3,
        { CMDB_HOST: meddler.url, CMDB_TOKEN: TOKEN },
      );
      assert.equal(bulk.code, 130, bulk.stderr);
      assert.equal(
        (JSON.parse(bulk.stderr) as { error: { message: string } }).error.message,
        'interrupted after 2 rows; the output is incomplete; 3 writes sent: 2 applied, 1 not answered yet: ' +
          'the device may still apply it; read the objects back to see',
      );
    } finally {
      await meddler.close();
    }
  });
});
