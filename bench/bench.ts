// `npm run bench`: the project's own measurements (startup, one request, paging, bulk writes).
// Prints medians of repeated runs; nothing here asserts on time.
import { spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/cmdb.js');
const runs = Number(process.env.BENCH_RUNS ?? 15);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/** One process run to its end (asynchronously: the emulator in this process must keep answering). */
function once(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) reject(new Error(`${args.join(' ')} exited ${code}: ${stderr}`));
      else resolve(Number(process.hrtime.bigint() - started) / 1e6);
    });
  });
}

/** Median wall time of a whole process, as a script calling the tool pays it. */
async function time(args: string[], env: NodeJS.ProcessEnv, n = runs): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) samples.push(await once(args, env));
  return median(samples);
}

const rows: [string, string][] = [];
const record = (what: string, ms: number, note = '') => {
  rows.push([what, `${ms.toFixed(1)} ms${note ? `  ${note}` : ''}`]);
  process.stderr.write(`${what}: ${ms.toFixed(1)} ms ${note}\n`);
};

const home = mkdtempSync(join(tmpdir(), 'cmdb-bench-'));
const baseEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: home, XDG_CONFIG_HOME: join(home, 'c'), XDG_STATE_HOME: join(home, 's'), XDG_CACHE_HOME: join(home, 'k') };

record('node -e 0', await time(['-e', '0'], baseEnv));
record('cmdb --version', await time([bin, '--version'], baseEnv));
record('cmdb --help', await time([bin, '--help'], baseEnv));
record('cmdb tables -o json', await time([bin, 'tables', '-o', 'json'], baseEnv));

const emu = await startEmulator({ port: 0, seed: 'demo' });
const env = { ...baseEnv, CMDB_HOST: emu.url, CMDB_TOKEN: emu.token };
record('cmdb get log.disk/setting (one request)', await time([bin, 'get', 'log.disk/setting'], env));
record('cmdb list router/access-list -o table', await time([bin, 'list', 'router/access-list', '-o', 'table'], env));
const tab = [bin, '__complete', 'bash', '--', 'cmdb get router/access-list '];
record('Tab: key completion, cache warm', await time(tab, env));
const cold: number[] = [];
for (let i = 0; i < runs; i++) cold.push(await once(tab, { ...env, XDG_CACHE_HOME: mkdtempSync(join(home, 'cache-')) }));
record('Tab: key completion, cache cold (one GET ?format=name)', median(cold));
record('cmdb --demo list firewall.ipmacbinding/table', await time([bin, '--demo', 'list', 'firewall.ipmacbinding/table'], baseEnv));

const BIG = 50_000;
emu.populate('firewall.ipmacbinding/table', 'dmz', Array.from({ length: BIG }, (_, i) => ({
  'seq-num': 1000 + i,
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  mac: `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
  name: `h${i}`,
  status: 'enable',
})));

async function page(start: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = process.hrtime.bigint();
    const res = await fetch(`${emu.url}/api/v2/cmdb/firewall.ipmacbinding/table?vdom=dmz&start=${start}&count=1000`, { headers: { authorization: `Bearer ${emu.token}` } });
    await res.arrayBuffer();
    samples.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return median(samples);
}
record(`emulator: first page of ${BIG} (count=1000)`, await page(0));
record(`emulator: deep page of ${BIG} (start=49000, count=1000)`, await page(49_000));
record(`cmdb list --all of ${BIG} objects, pages of 1000, -o ndjson`, await time([bin, 'list', 'firewall.ipmacbinding/table', '--vdom', 'dmz', '--all', '-o', 'ndjson'], env, 3));

const N = 200;
const file = join(home, 'bulk.json');
for (const [c, offset] of [[1, 0], [8, N]] as const) {
  writeFileSync(file, JSON.stringify(Array.from({ length: N }, (_, i) => ({ id: 10_000 + offset + i, name: `bulk-${offset + i}` }))));
  record(`cmdb create -f (${N} objects) --concurrency ${c}`, await time([bin, 'create', 'dlp/filepattern', '-f', file, '--concurrency', String(c)], env, 1));
}
await emu.close();

process.stdout.write(`\n| measurement (median of ${runs} runs unless noted) | time |\n|---|---|\n${rows.map(([a, b]) => `| ${a} | ${b} |`).join('\n')}\n`);
