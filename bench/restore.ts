// One restore, as `npm run bench` times it against another build: a build's emulator started empty,
// then that build's `cmdb apply -f` of a 10,000-object document (8,000 addresses, 1,000 groups of
// eight of them, 1,000 policies naming a group and an address), and `--delete` then deletes them
// all again (policies, groups, addresses: each delete checked for users). Usage:
//   node dist/bench/restore.js [BUILD_ROOT] [--delete]
// BUILD_ROOT (default this checkout) is a built checkout whose emulator and bin/cmdb.js are used.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv } from './home.js';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../../', import.meta.url)));
const deleting = args.includes('--delete');

const ADDRESSES = 8_000;
const GROUPS = 1_000;
const POLICIES = 1_000;

/** The document: tables in the order every build's apply writes them (addresses, groups, policies). */
function restoreDocument(): unknown {
  const address = (i: number) => `net-${i}`;
  return {
    vdoms: {
      root: {
        'firewall/address': Array.from({ length: ADDRESSES }, (_, i) => ({
          name: address(i),
          subnet: `10.${(i >> 8) & 255}.${i & 255}.0 255.255.255.0`,
        })),
        'firewall/addrgrp': Array.from({ length: GROUPS }, (_, g) => ({
          name: `group-${g}`,
          member: Array.from({ length: 8 }, (_, m) => ({ name: address(g * 8 + m) })),
        })),
        'firewall/policy': Array.from({ length: POLICIES }, (_, p) => ({
          policyid: p + 1,
          name: `rule-${p}`,
          srcintf: [{ name: 'any' }],
          dstintf: [{ name: 'any' }],
          srcaddr: [{ name: `group-${p}` }],
          dstaddr: [{ name: address(p) }],
          action: 'accept',
          schedule: 'always',
          service: [{ name: 'ALL' }],
        })),
      },
    },
  };
}

const { startEmulator } = (await import(
  pathToFileURL(join(root, 'dist/src/emulator/index.js')).href
)) as typeof import('../src/emulator/index.js');
const emulator = await startEmulator({ port: 0, seed: 'empty', recordRequests: false });
const dir = mkdtempSync(join(tmpdir(), 'cmdb-restore-'));
const home = join(dir, 'home');
const env = benchEnv(home, {
  CMDB_HOST: emulator.url,
  CMDB_TOKEN: emulator.token,
});
// Asynchronous: the emulator in this process answers while the CLI runs.
const cmdb = (...argv: string[]) =>
  new Promise<void>((done, failed) => {
    const child = spawn(process.execPath, [join(root, 'bin/cmdb.js'), ...argv], {
      env,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
    child.on('error', failed);
    child.on('close', (code) => (code === 0 ? done() : failed(new Error(`cmdb ${argv[0]} exited ${code}: ${stderr}`))));
  });
try {
  const document = join(dir, 'restore.json');
  writeFileSync(document, JSON.stringify(restoreDocument()));
  await cmdb('apply', '-f', document, '--yes', '-o', 'json');
  if (deleting) {
    const keys = (count: number, key: (i: number) => string) => Array.from({ length: count }, (_, i) => key(i));
    await cmdb('delete', 'firewall/policy', ...keys(POLICIES, (i) => String(i + 1)), '--yes', '-o', 'json');
    await cmdb('delete', 'firewall/addrgrp', ...keys(GROUPS, (i) => `group-${i}`), '--yes', '-o', 'json');
    await cmdb('delete', 'firewall/address', ...keys(ADDRESSES, (i) => `net-${i}`), '--yes', '-o', 'json');
  }
} finally {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
