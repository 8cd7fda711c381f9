// One bulk create into an ordered table the device does not evaluate top-down, as `npm run bench` times
// it against another build: a build's emulator started empty behind a slow link (every write's answer
// held HOLD_MS), then that build's `cmdb create dlp/filepattern -f` of 1,000 objects with
// `--concurrency 8`. Concurrent creates then moved into the file's order are bounded by objects /
// concurrency held answers; one at a time, by their sum. Prints the moves it took. Usage:
//   node dist/bench/bulk-ordered.js [BUILD_ROOT]
// BUILD_ROOT (default this checkout) is a built checkout whose emulator and bin/cmdb.js are used.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { benchEnv } from './home.js';

const args = process.argv.slice(2);
const root = resolve(args.find((a) => !a.startsWith('--')) ?? fileURLToPath(new URL('../../', import.meta.url)));
const OBJECTS = 1_000;
const CONCURRENCY = 8;
const HOLD_MS = 20;

const { startEmulator } = (await import(
  pathToFileURL(join(root, 'dist/src/emulator/index.js')).href
)) as typeof import('../src/emulator/index.js');
const emulator = await startEmulator({ port: 0, seed: 'empty', recordRequests: false });
const target = new URL(emulator.url);
let moves = 0;
let inFlight = 0;
let most = 0;
// The slow link: each write's answer waits HOLD_MS before it is passed on; reads pass at once.
const link = createServer((req, res) => {
  if (req.url?.includes('action=move')) moves++;
  most = Math.max(most, ++inFlight);
  res.on('finish', () => inFlight--);
  const upstream = request(
    { host: target.hostname, port: target.port, method: req.method, path: req.url, headers: req.headers },
    (answer) => {
      const pass = () => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      };
      if (req.method === 'GET') pass();
      else setTimeout(pass, HOLD_MS);
    },
  );
  req.pipe(upstream);
});
await new Promise<void>((done) => link.listen(0, '127.0.0.1', done));
const dir = mkdtempSync(join(tmpdir(), 'cmdb-bulk-ordered-'));
const home = join(dir, 'home');
const env = benchEnv(home, {
  CMDB_HOST: `http://127.0.0.1:${(link.address() as AddressInfo).port}`,
  CMDB_TOKEN: emulator.token,
});
try {
  const file = join(dir, 'patterns.json');
  writeFileSync(file, JSON.stringify(Array.from({ length: OBJECTS }, (_, i) => ({ id: i + 1, name: `p${i + 1}` }))));
  await new Promise<void>((done, failed) => {
    const child = spawn(
      process.execPath,
      [
        join(root, 'bin/cmdb.js'),
        'create',
        'dlp/filepattern',
        '-f',
        file,
        '--concurrency',
        String(CONCURRENCY),
        '-o',
        'json',
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'] },
    );
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr = (stderr + text).slice(-2000)));
    child.on('error', failed);
    child.on('close', (code) => (code === 0 ? done() : failed(new Error(`cmdb create exited ${code}: ${stderr}`))));
  });
  const ids = (emulator.objects('dlp/filepattern', 'root') as { id: number }[]).map((o) => o.id);
  if (ids.length !== OBJECTS || ids.some((id, i) => id !== i + 1)) throw new Error("not in the file's order");
  if (args.includes('--moves')) process.stdout.write(`moves: ${moves}, most requests at once: ${most}\n`);
} finally {
  link.close();
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
}
