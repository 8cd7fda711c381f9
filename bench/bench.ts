// `npm run bench`: the project's own measurements, each as a ratio against a baseline, in one run.
// Each pair of commands runs alternately (A B, B A, ...) and the ratio is the median of the pairs'
// ratios, so a machine whose speed drifts during the run still compares like with like. Memory rows
// give the median peak RSS of the CLI's process. Nothing here asserts on time.
//
// NODE_EXTRA_CA_CERTS (and NODE_OPTIONS) are not passed on: the first adds ~35 ms to every Node start
// by loading a CA bundle, which a user's machine does not do.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync, createWriteStream } from 'node:fs';
import { KeychainStore } from '../src/config/secrets.js';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startEmulator } from '../src/emulator/index.js';
import { allTables, findTable } from '../src/catalogue/index.js';
import { yamlText } from '../src/output/yaml.js';
import { writeConf } from '../src/syntax/index.js';
import { keyringSkip, startKeyring, type PrivateKeyring } from '../test/helpers/keyring.js';
import { benchEnv } from './home.js';
import { measureReferences } from './references.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'bin/cmdb.js');
const runs = Number(process.env.BENCH_RUNS ?? 11);
const memoryRuns = Number(process.env.BENCH_MEMORY_RUNS ?? 3);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

interface Command {
  /** Shown in the report. */
  label: string;
  /** argv of a `node` process, or of `sh -c` when shell is set. */
  args: string[];
  env: NodeJS.ProcessEnv;
  shell?: boolean;
  stdin?: string;
  /** Run just before each run (a fresh cache folder...). */
  before?: () => NodeJS.ProcessEnv | undefined;
}

// Reports the process's peak RSS on stderr at exit (used by the memory rows only).
const RSS_HOOK = `data:text/javascript,${encodeURIComponent("import { writeSync } from 'node:fs'; process.on('exit', () => writeSync(2, '\\nBENCH_MAXRSS_KB ' + process.resourceUsage().maxRSS + '\\n'));")}`;

interface Sample {
  ms: number;
  rssMB: number | null;
}

/** One process run to its end, stdout read from a pipe and thrown away (asynchronous: the emulator here must keep answering). */
function once(cmd: Command, measureRss = false): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const env = cmd.before?.() ?? cmd.env;
    const argv = cmd.shell
      ? (['sh', ['-c', cmd.args.join(' ')]] as const)
      : ([process.execPath, measureRss ? ['--import', RSS_HOOK, ...cmd.args] : cmd.args] as const);
    const started = process.hrtime.bigint();
    const child = spawn(argv[0], argv[1], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr = (stderr + d).slice(-4000)));
    child.stdin.on('error', () => undefined);
    child.stdin.end(cmd.stdin ?? '');
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      if (code !== 0) return reject(new Error(`${cmd.label} exited ${code}: ${stderr}`));
      const rss = /BENCH_MAXRSS_KB (\d+)/.exec(stderr);
      resolve({ ms, rssMB: rss ? Number(rss[1]) / 1024 : null });
    });
  });
}

interface Row {
  measure: string;
  value: string;
  goal: string;
  met: boolean | null;
}
const rows: Row[] = [];

function record(row: Row): void {
  rows.push(row);
  process.stderr.write(
    `${row.measure}: ${row.value} (goal ${row.goal}${row.met === null ? '' : row.met ? ', met' : ', NOT met'})\n`,
  );
}

/** A and B in turn, n pairs after one warm-up each; the median of the pairs' ratios A/B. A null goal: a floor. */
async function paired(measure: string, a: Command, b: Command, goal: number | null | 'none', n = runs): Promise<void> {
  await once(a);
  await once(b);
  const ratios: number[] = [];
  const as: number[] = [];
  const bs: number[] = [];
  for (let i = 0; i < n; i++) {
    // Alternate which goes first, so neither always runs on a machine warmed by the other.
    const [ta, tb] =
      i % 2 ? [(await once(b)).ms, (await once(a)).ms].reverse() : [(await once(a)).ms, (await once(b)).ms];
    as.push(ta!);
    bs.push(tb!);
    ratios.push(ta! / tb!);
  }
  const ratio = median(ratios);
  const value = `${ratio.toFixed(2)}× (${median(as).toFixed(0)} ms / ${median(bs).toFixed(0)} ms)`;
  record({
    measure,
    value,
    goal: goal === null ? 'floor' : goal === 'none' ? '' : `≤ ${goal}×`,
    met: typeof goal === 'number' ? ratio <= goal : null,
  });
}

/** Median peak RSS of the CLI's process over `memoryRuns` runs. */
async function peakRss(cmd: Command): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < memoryRuns; i++) samples.push((await once(cmd, true)).rssMB!);
  return median(samples);
}

const home = mkdtempSync(join(tmpdir(), 'cmdb-bench-'));
const baseEnv = benchEnv(home);
const node = (label: string, args: string[], env = baseEnv): Command => ({ label, args, env });
const cli = (args: string[], env = baseEnv): Command => node(`cmdb ${args.join(' ')}`, [bin, ...args], env);
const bare = node('node -e 0', ['-e', '0']);

await paired('`cmdb --version` / `node -e 0`', cli(['--version']), bare, 1.3);
await paired('`cmdb --help` / `node -e 0`', cli(['--help']), bare, 1.5);
// SPEC.md's 42 tables, as `tables` printed before the device catalogue; then all 472 (no goal).
await paired('`cmdb tables --spec -o json` / `node -e 0`', cli(['tables', '--spec', '-o', 'json']), bare, 1.5);
await paired('`cmdb tables -o json` (all 472) / `node -e 0`', cli(['tables', '-o', 'json']), bare, 'none');

/** A floor: the part of a row's cost that the way cmdb is built cannot avoid, measured as that row is. */
const floor = (measure: string, a: Command, b: Command) => paired(measure, a, b, null);
// The program loaded as bin/cmdb.js loads it (cli.cjs with its code cache, its modules initialised),
// and one line written to stdout: what every command that is not --version or --help pays.
const loadsProgram = join(home, 'loads-program.cjs');
writeFileSync(loadsProgram, `require(${JSON.stringify(bin)}).loadBundle('cli.cjs');\nprocess.stdout.write('[]\\n');\n`);
await floor(
  'floor: loading the program and writing a line to stdout / `node -e 0`',
  node('loads the program', [loadsProgram]),
  bare,
);

const emu = await startEmulator({ port: 0, seed: 'demo' });
const tokenEnv = { ...baseEnv, CMDB_HOST: emu.url, CMDB_TOKEN: emu.token };

// The same GET as a minimal script would do it: node:http, parse, print.
const script = join(home, 'get.mjs');
writeFileSync(
  script,
  `import { get } from 'node:http';
get(process.env.URL, { headers: { authorization: 'Bearer ' + process.env.TOKEN } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).results, null, 2) + '\\n'));
});
`,
);
await paired(
  '`cmdb get log.disk/setting` (CMDB_TOKEN) / the same GET by a minimal `node:http` script',
  cli(['get', 'log.disk/setting'], tokenEnv),
  node('node get.mjs', [script], { ...baseEnv, URL: `${emu.url}/api/v2/cmdb/log.disk/setting`, TOKEN: emu.token }),
  1.5,
);

// The same GET by node:http from a script that first loads the program and undici as a `get` does.
const loadsClient = join(home, 'loads-client.cjs');
writeFileSync(
  loadsClient,
  `const { loadBundle } = require(${JSON.stringify(bin)});
loadBundle('cli.cjs');
loadBundle('undici.cjs');
require('node:http').get(process.env.URL, { headers: { authorization: 'Bearer ' + process.env.TOKEN } }, (res) => {
  let body = '';
  res.setEncoding('utf8').on('data', (d) => (body += d)).on('end', () => process.stdout.write(JSON.stringify(JSON.parse(body).results, null, 2) + '\\n'));
});
`,
);
await floor(
  'floor: loading the program and undici, then the same GET by `node:http` / the minimal `node:http` script',
  node('loads program and undici, node:http GET', [loadsClient], {
    ...baseEnv,
    URL: `${emu.url}/api/v2/cmdb/log.disk/setting`,
    TOKEN: emu.token,
  }),
  node('node get.mjs', [script], { ...baseEnv, URL: `${emu.url}/api/v2/cmdb/log.disk/setting`, TOKEN: emu.token }),
);

const tab = ['__complete', 'bash', '--', 'cmdb get router/access-list '];
await paired('Tab, key completion, cache warm / `node -e 0`', cli(tab, tokenEnv), bare, 1.3);

// A saved profile whose token is in the keychain (a private Secret Service), as after `cmdb login`.
let keyring: PrivateKeyring | undefined;
const skip = keyringSkip();
if (skip) {
  record({ measure: 'keychain rows', value: `not measured: ${skip}`, goal: '', met: null });
} else {
  keyring = await startKeyring();
  const profileEnv = { ...keyring.env, CMDB_CONFIG_DIR: join(home, 'profile') };
  await once({
    ...cli(['login', '--host', emu.url, '-d', 'bench', '--token-stdin'], profileEnv),
    stdin: `${emu.token}\n`,
  });
  await paired(
    '`cmdb get` with a saved profile, token in the keychain / the same with `CMDB_TOKEN`',
    cli(['get', 'log.disk/setting'], profileEnv),
    cli(['get', 'log.disk/setting'], { ...profileEnv, CMDB_TOKEN: emu.token }),
    1.1,
  );
  // The keychain's own cost: the native lookup tool, a process of its own, with the Secret Service's work.
  await floor(
    'floor: `secret-tool lookup` of the same token / `node -e 0`',
    {
      label: 'secret-tool lookup',
      args: ['exec', 'secret-tool', 'lookup', 'service', 'cmdb', 'username', 'bench'],
      env: profileEnv,
      shell: true,
    },
    bare,
  );
  let fresh = 0;
  // A cold Tab asks the device as a `get` does: one request, with its program and HTTP stack loaded.
  await floor(
    'floor: one request to the device, `cmdb get log.disk/setting` (CMDB_TOKEN) / `node -e 0`',
    cli(['get', 'log.disk/setting'], tokenEnv),
    bare,
  );
  await paired(
    'Tab, key completion, cache cold, logged-in profile / `node -e 0`',
    { ...cli(tab, profileEnv), before: () => ({ ...profileEnv, XDG_CACHE_HOME: join(home, `cold-${fresh++}`) }) },
    bare,
    3,
  );
}

// Large tables: 50,000 objects in root, 200,000 in dmz.
const TABLE = 'firewall.ipmacbinding/table';
const binding = (i: number) => ({
  'seq-num': 1000 + i,
  ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
  mac: `02:00:00:${((i >> 16) & 255).toString(16).padStart(2, '0')}:${((i >> 8) & 255).toString(16).padStart(2, '0')}:${(i & 255).toString(16).padStart(2, '0')}`,
  name: `h${i}`,
  status: i % 3 ? 'enable' : 'disable',
});
emu.populate(
  TABLE,
  'root',
  Array.from({ length: 50_000 }, (_, i) => binding(i)),
);
emu.populate(
  TABLE,
  'dmz',
  Array.from({ length: 200_000 }, (_, i) => binding(i)),
);

for (const format of ['ndjson', 'json', 'csv', 'table']) {
  const limit = format === 'table' ? 150 : 100;
  const list = (count: number) =>
    cli(['list', TABLE, '--vdom', 'dmz', '--all', '--count', String(count), '-o', format], tokenEnv);
  const small = await peakRss(list(50_000));
  const big = await peakRss(list(200_000));
  record({
    measure: `\`list --all\` peak RSS, -o ${format}, 50,000 → 200,000 objects`,
    value: `${small.toFixed(0)} → ${big.toFixed(0)} MB`,
    goal: `< ${limit} MB, flat`,
    met: big < limit && big - small < 10,
  });
}

const jq = `jq -r '.results[] | [.["seq-num"], .ip, .mac, .name, .status] | @tsv'`;
await paired(
  '`list --all` of 50,000 objects `-o table` piped / `curl` of the same table piped to `jq`',
  {
    label: 'cmdb list --all -o table | cat',
    args: [`'${process.execPath}'`, `'${bin}'`, 'list', TABLE, '--all', '-o', 'table', '| cat'],
    env: tokenEnv,
    shell: true,
  },
  {
    label: 'curl | jq',
    args: [`curl -sf -H "Authorization: Bearer $CMDB_TOKEN" "$CMDB_HOST/api/v2/cmdb/${TABLE}?vdom=root"`, '|', jq],
    env: tokenEnv,
    shell: true,
  },
  1.2,
  Math.min(runs, 7),
);

// create -f of an NDJSON file, one object a line; each run creates new keys.
let nextId = 100_000;
const bulk = async (n: number) => {
  const samples: number[] = [];
  for (let run = 0; run < Math.min(memoryRuns, 2); run++) {
    const file = join(home, `bulk-${n}-${run}.ndjson`);
    const out = createWriteStream(file);
    for (let i = 0; i < n; i++) out.write(JSON.stringify({ id: nextId++, name: `bulk-${nextId}` }) + '\n');
    await new Promise((resolve) => out.end(resolve));
    samples.push((await once(cli(['create', 'dlp/filepattern', '-f', file, '-o', 'json'], tokenEnv), true)).rssMB!);
  }
  return median(samples);
};
const small = await bulk(10_000);
const big = await bulk(50_000);
record({
  measure: '`create -f` of an NDJSON file, peak RSS, 10,000 → 50,000 objects',
  value: `${small.toFixed(0)} → ${big.toFixed(0)} MB`,
  goal: '< 100 MB, flat',
  met: big < 100 && big - small < 10,
});

/** The stdout of one run of the CLI. */
function stdoutOf(cmd: Command): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, cmd.args, { env: cmd.env, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(out) : reject(new Error(`${cmd.label} exited ${code}`))));
  });
}

// Configuration as code: export every table of the demo device (both VDOMs), and the plan of a
// 10,000-object document against a device that already holds it (diff, and an apply that must send
// no write), each against a plain read of the same device. The document as `export -o json` writes
// it; the same in YAML shows what YAML parsing costs at that size.
const demo = await startEmulator({ port: 0, seed: 'demo' });
const demoEnv = { ...baseEnv, CMDB_HOST: demo.url, CMDB_TOKEN: demo.token };
await paired(
  "`cmdb export --spec --vdom '*'` (SPEC.md's 42 tables, both VDOMs) / `cmdb get log.disk/setting`",
  cli(['export', '--spec', '--vdom', '*'], demoEnv),
  cli(['get', 'log.disk/setting'], demoEnv),
  3,
);
// A full backup: every table of the device catalogue that can be read as a whole, both VDOMs, against
// a hand-written script that GETs the same paths with undici, 8 at a time as export does, and prints
// what it got as one JSON document.
const paths = join(home, 'paths.json');
writeFileSync(
  paths,
  JSON.stringify(
    allTables()
      .filter((t) => t.operations.includes('L') || t.operations.includes('G'))
      .map((t) => t.path),
  ),
);
const fetchAll = join(home, 'fetch-all.mjs');
writeFileSync(
  fetchAll,
  `import { readFileSync } from 'node:fs';
import { Agent, request } from ${JSON.stringify(join(root, 'node_modules/undici/index.js'))};
const paths = JSON.parse(readFileSync(process.env.PATHS, 'utf8'));
const dispatcher = new Agent();
const headers = { authorization: 'Bearer ' + process.env.TOKEN };
const out = {};
let next = 0;
async function worker() {
  while (next < paths.length) {
    const path = paths[next++];
    const { body } = await request(process.env.URL + '/api/v2/cmdb/' + path + '?vdom=*', { dispatcher, headers });
    out[path] = await body.json();
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
process.stdout.write(JSON.stringify(out) + '\\n');
process.exit(0);
`,
);
await paired(
  "`cmdb export --vdom '*'` (all 472 tables, both VDOMs) / a concurrent undici script GETting the same paths",
  cli(['export', '--vdom', '*'], demoEnv),
  node('node fetch-all.mjs', [fetchAll], { ...baseEnv, URL: demo.url, TOKEN: demo.token, PATHS: paths }),
  1.5,
  Math.min(runs, 7),
);
demo.populate(
  TABLE,
  'dmz',
  Array.from({ length: 10_000 }, (_, i) => binding(i)),
);
const jsonDocument = join(home, 'held.json');
const yamlDocument = join(home, 'held.yaml');
writeFileSync(jsonDocument, await stdoutOf(cli(['export', TABLE, '--vdom', 'dmz', '-o', 'json'], demoEnv)));
writeFileSync(yamlDocument, await stdoutOf(cli(['export', TABLE, '--vdom', 'dmz'], demoEnv)));
const listHeld = cli(['list', TABLE, '--vdom', 'dmz', '-o', 'json'], demoEnv);
const writesBefore = demo.requests.filter((r) => r.method !== 'GET').length;
await paired(
  '`cmdb diff` of a 10,000-object JSON document, in sync / `cmdb list` of the same table',
  cli(['diff', '-f', jsonDocument], demoEnv),
  listHeld,
  3,
  Math.min(runs, 7),
);
await paired(
  '`cmdb apply` of the same document (in sync) / `cmdb list` of the same table',
  cli(['apply', '-f', jsonDocument], demoEnv),
  listHeld,
  3,
  Math.min(runs, 7),
);
await paired(
  '`cmdb diff` of the same document in YAML / in JSON',
  cli(['diff', '-f', yamlDocument], demoEnv),
  cli(['diff', '-f', jsonDocument], demoEnv),
  10,
  Math.min(runs, 5),
);
const confDocument = join(home, 'held.conf');
writeFileSync(confDocument, await stdoutOf(cli(['export', TABLE, '--vdom', 'dmz', '-o', 'cli'], demoEnv)));
await paired(
  '`cmdb diff` of the same document as a `.conf` / in YAML',
  cli(['diff', '-f', confDocument, '--vdom', 'dmz'], demoEnv),
  cli(['diff', '-f', yamlDocument], demoEnv),
  1.1,
  Math.min(runs, 5),
);
const writes = demo.requests.filter((r) => r.method !== 'GET').length - writesBefore;
record({
  measure: 'writes sent by those in-sync diffs and applies',
  value: String(writes),
  goal: '0',
  met: writes === 0,
});
await demo.close();

// The device's own syntax: reading and printing a 10,000-object `.conf` (addresses as a device's `show`
// prints them) against the YAML reader and writer on the same objects, each a process that reads the
// file, parses it and prints it again, with the modules a command uses.
const addresses = Array.from({ length: 10_000 }, (_, i) => ({
  name: `host-${i}`,
  uuid: `0e03151e-3e07-4425-ace9-${String(i).padStart(12, '0')}`,
  subnet: `10.${(i >> 8) & 255}.${i & 255}.0 255.255.255.0`,
  comment: `host number ${i}`,
  'associated-interface': `port${(i % 4) + 1}`,
  color: i % 30,
}));
const confFile = join(home, 'addresses.conf');
const yamlFile = join(home, 'addresses.yaml');
writeFileSync(
  confFile,
  writeConf([{ vdom: 'root', table: findTable('firewall/address')!, content: addresses }], {
    fields: 'changed',
    document: true,
  }),
);
writeFileSync(yamlFile, yamlText({ defaults: 'excluded', vdoms: { root: { 'firewall/address': addresses } } }));
const compiled = (path: string) => JSON.stringify(join(root, 'dist/src', path));
const confScript = join(home, 'conf.mjs');
writeFileSync(
  confScript,
  `import { readFileSync } from 'node:fs';
import { findTable } from ${compiled('catalogue/index.js')};
import { contentOf, readConf, writeConf } from ${compiled('syntax/index.js')};
const doc = readConf(readFileSync(process.env.FILE, 'utf8'), 'addresses.conf', { lookup: findTable });
const tables = doc.tables.map((t) => ({ vdom: t.vdom, table: t.table, content: contentOf(t) }));
process.stdout.write(writeConf(tables, { fields: 'changed', document: true }));
`,
);
const yamlScript = join(home, 'yaml.mjs');
writeFileSync(
  yamlScript,
  `import { readFileSync } from 'node:fs';
import { parseDocument } from ${compiled('request/input.js')};
import { yamlText } from ${compiled('output/yaml.js')};
process.stdout.write(yamlText(await parseDocument(readFileSync(process.env.FILE, 'utf8'), 'addresses.yaml')));
`,
);
await paired(
  'reading and printing a 10,000-object `.conf` / the YAML reader and writer on the same objects',
  node('node conf.mjs', [confScript], { ...baseEnv, FILE: confFile }),
  node('node yaml.mjs', [yamlScript], { ...baseEnv, FILE: yamlFile }),
  1.5,
  Math.min(runs, 7),
);
// References: the plan of a 10,000-object document with references and its reference order, against
// today's plan of the same document, in one process (bench/references.ts).
const references = measureReferences(Math.max(runs, 11));
record({
  measure: `plan and reference order of a ${references.steps.toLocaleString('en')}-object document with references / today's plan of it (in one process)`,
  value: `${references.ratio.toFixed(2)}× (${references.planAndOrderMs.toFixed(0)} ms / ${references.planMs.toFixed(0)} ms; order ${references.orderMs.toFixed(0)} ms, check ${references.checkMs.toFixed(0)} ms)`,
  goal: '≤ 1.2×',
  met: references.ratio <= 1.2,
});

// A restore of 10,000 objects that name each other (bench/restore.ts: an empty emulator, then
// `apply -f`) against the same restore by another build, whose emulator and CLI it runs:
// BENCH_BASELINE is a built checkout of it (the previous main). The emulator checks every reference
// of every write; goal: at most 1.3× the build before those checks.
const baseline = process.env.BENCH_BASELINE;
const restore = join(root, 'dist/bench/restore.js');
if (baseline) {
  await paired(
    'restore of 10,000 objects onto an empty emulator (`apply -f`) / the same by the BENCH_BASELINE build',
    node('restore, this build', [restore, root]),
    node('restore, the baseline build', [restore, baseline]),
    1.3,
    Math.min(runs, 5),
  );
  await paired(
    'the same restore, then deleting its 10,000 objects (`delete`, each checked for users) / by the BENCH_BASELINE build',
    node('restore and delete, this build', [restore, root, '--delete']),
    node('restore and delete, the baseline build', [restore, baseline, '--delete']),
    1.3,
    Math.min(runs, 3),
  );
  // A bulk create into an ordered table the device does not evaluate top-down, through a link that
  // holds every write's answer 20 ms (bench/bulk-ordered.ts): written 8 at once and then moved into
  // the file's order, against a build that wrote them one at a time.
  const bulkOrdered = join(root, 'dist/bench/bulk-ordered.js');
  await paired(
    '`create dlp/filepattern -f` of 1,000 objects, `--concurrency 8`, writes held 20 ms / the same by the BENCH_BASELINE build',
    node('bulk create, this build', [bulkOrdered, root]),
    node('bulk create, the baseline build', [bulkOrdered, baseline]),
    0.5,
    Math.min(runs, 3),
  );
} else {
  record({
    measure: 'restore of 10,000 objects',
    value: 'not measured: set BENCH_BASELINE to a built checkout of the build to compare with',
    goal: '≤ 1.3×',
    met: null,
  });
}

// Many devices: `list` over 50 device profiles (one emulator each, on loopback) in one run, against a
// bash loop of 50 single-device runs; and the one run's peak RSS.
const FLEET = 50;
const fleet = await Promise.all(Array.from({ length: FLEET }, () => startEmulator({ port: 0, seed: 'demo' })));
const fleetProfiles = (secrets: 'file' | 'keychain', dir: string) => {
  mkdirSync(dir, { recursive: true });
  const names = fleet.map((_, i) => `branch-${String(i + 1).padStart(2, '0')}`);
  writeFileSync(
    join(dir, 'config.yaml'),
    `default: ${names[0]}\ndevices:\n${fleet.map((e, i) => `  ${names[i]}:\n    host: ${e.url}\n    auth: token\n    secrets: ${secrets}\n`).join('')}`,
    { mode: 0o600 },
  );
  if (secrets === 'file')
    writeFileSync(join(dir, 'credentials.yaml'), fleet.map((e, i) => `${names[i]}: ${e.token}\n`).join(''), {
      mode: 0o600,
    });
  return names;
};
const fleetEnv = { ...baseEnv, CMDB_CONFIG_DIR: join(home, 'fleet') };
const fleetNames = fleetProfiles('file', fleetEnv.CMDB_CONFIG_DIR);
const oneRun = node(
  `cmdb list ${TABLE} -d 'branch-*' -o json`,
  [bin, 'list', TABLE, '-d', 'branch-*', '-o', 'json'],
  fleetEnv,
);
await paired(
  `\`list\` over ${FLEET} device profiles in one run (\`-d 'branch-*'\`) / a bash loop of ${FLEET} single-device runs`,
  oneRun,
  {
    label: 'bash loop',
    args: [`for d in ${fleetNames.join(' ')}; do '${process.execPath}' '${bin}' list ${TABLE} -d "$d" -o json; done`],
    env: fleetEnv,
    shell: true,
  },
  0.1,
  Math.min(runs, 3),
);
record({
  measure: `\`list\` over ${FLEET} device profiles in one run, peak RSS`,
  value: `${(await peakRss(oneRun)).toFixed(0)} MB`,
  goal: '< 150 MB',
  met: null,
});
if (keyring) {
  const keychainEnv = { ...keyring.env, CMDB_CONFIG_DIR: join(home, 'fleet-keychain') };
  fleetProfiles('keychain', keychainEnv.CMDB_CONFIG_DIR);
  const store = new KeychainStore(keyring.env);
  for (const [i, e] of fleet.entries()) await store.set(fleetNames[i]!, e.token);
  await paired(
    `\`list\` over ${FLEET} device profiles in one run, tokens in the keychain / in credentials.yaml`,
    node('one run, keychain', [bin, 'list', TABLE, '-d', 'branch-*', '-o', 'json'], keychainEnv),
    node('one run, file', [bin, 'list', TABLE, '-d', 'branch-*', '-o', 'json'], {
      ...keychainEnv,
      CMDB_CONFIG_DIR: fleetEnv.CMDB_CONFIG_DIR,
    }),
    1.3,
    Math.min(runs, 5),
  );
}
await Promise.all(fleet.map((e) => e.close()));

await emu.close();
await keyring?.stop();
rmSync(home, { recursive: true, force: true });

process.stdout.write(
  `\n${runs} pairs a ratio (median of the pairs' ratios; medians of each side in brackets), ${memoryRuns} runs a memory figure; Node ${process.version}, NODE_EXTRA_CA_CERTS unset; load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')} at the end.\n\n` +
    `| measure | this run | goal | met |\n|---|---|---|---|\n${rows.map((r) => `| ${r.measure} | ${r.value} | ${r.goal} | ${r.met === null ? '' : r.met ? 'yes' : 'no'} |`).join('\n')}\n`,
);
