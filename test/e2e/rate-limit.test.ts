// The device's rate limit during a bulk run: a proxy in front of the emulator answers 429 (with and
// without Retry-After) to part of the requests without passing them on, and counts the requests in
// flight. Every item must be reported exactly as the device ended up, every refused request must be sent
// again, and after the first 429 the run must send fewer requests at once than its --concurrency.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { isolatedEnv, type Run } from '../helpers/cli.js';
import { runInProcess } from '../helpers/inprocess.js';
import { tempDir } from '../helpers/temp.js';

// Named objects, a set to the device: a bulk run sends them --concurrency at a time (a table whose
// order matters to the device is created one at a time).
const TABLE = 'firewall/address';
const N = 40;
const PARALLEL = 8;
const bindings = Array.from({ length: N }, (_, i) => ({
  name: `host-${3000 + i}`,
  subnet: `10.29.0.${i + 1} 255.255.255.255`,
}));

interface Arrival {
  /** Method, path and body: a request sent again is the same request. */
  request: string;
  /** Requests in flight at the proxy when this one arrived, itself included. */
  inFlight: number;
  refused: boolean;
  /** A refusal that said `Retry-After: 1` (else none: the client backs off on its own). */
  retryAfter: boolean;
}

/**
 * The rate-limiting proxy. When PARALLEL requests are first in flight at once (the run is at full
 * speed) it refuses the one that arrived last, with `Retry-After: 1`; then, once 2 × PARALLEL writes
 * have passed, every seventh write, alternately without `Retry-After` (exponential backoff) and with it.
 * A refused request is refused once only. Passed requests are answered after a short pause (at the
 * start, once the run is at full speed), so that the client's requests overlap.
 */
class RateLimiter {
  arrivals: Arrival[] = [];
  private inFlight = 0;
  private fullSpeed = false;
  /** Resolved once the run first has PARALLEL requests in flight. */
  private reachedFullSpeed!: Promise<void>;
  private atFullSpeed = () => {};
  private passed = 0;
  private lastRefusal = -1;
  private refusals = 0;
  private readonly refusedOnce = new Set<string>();
  private server: Server;
  url = '';

  constructor(private readonly target: string) {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => void this.handle(req.method!, req.url!, req.headers, Buffer.concat(chunks), res));
    });
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }

  /** Starts a new scenario: full speed first, then refusals. */
  reset(): void {
    this.arrivals = [];
    this.fullSpeed = false;
    this.reachedFullSpeed = new Promise((resolve) => (this.atFullSpeed = resolve));
    this.passed = 0;
    this.lastRefusal = -1;
    this.refusals = 0;
    this.refusedOnce.clear();
  }

  private refuse(request: string): boolean {
    if (!/^(POST|DELETE) /.test(request) || this.refusedOnce.has(request)) return false;
    if (!this.fullSpeed) {
      this.fullSpeed = this.inFlight >= PARALLEL;
      if (this.fullSpeed) this.atFullSpeed();
      return this.fullSpeed;
    }
    return this.passed >= 2 * PARALLEL && this.passed % 7 === 0 && this.passed !== this.lastRefusal;
  }

  private async handle(
    method: string,
    url: string,
    headers: NodeJS.Dict<string | string[]>,
    body: Buffer,
    res: import('node:http').ServerResponse,
  ): Promise<void> {
    const key = `${method} ${url} ${body.toString('utf8')}`;
    this.inFlight++;
    const refused = this.refuse(key);
    const retryAfter = refused && this.refusals % 2 === 0;
    this.arrivals.push({ request: key, inFlight: this.inFlight, refused, retryAfter });
    if (refused) {
      this.refusedOnce.add(key);
      this.refusals++;
      this.lastRefusal = this.passed;
      this.inFlight--;
      res
        .writeHead(429, { 'content-type': 'text/html', ...(retryAfter ? { 'retry-after': '1' } : {}) })
        .end('<html><body>Too Many Requests</body></html>');
      return;
    }
    if (this.fullSpeed && /^(POST|DELETE) /.test(key)) this.passed++;
    const upstream = await new Promise<{ status: number; headers: NodeJS.Dict<string | string[]>; body: Buffer }>(
      (resolve, reject) => {
        const out = request(
          `${this.target}${url}`,
          { method, headers: { ...headers, host: new URL(this.target).host } },
          (answer) => {
            const parts: Buffer[] = [];
            answer.on('data', (c: Buffer) => parts.push(c));
            answer.on('end', () =>
              resolve({ status: answer.statusCode!, headers: answer.headers, body: Buffer.concat(parts) }),
            );
          },
        );
        out.on('error', reject);
        out.end(body);
      },
    );
    // Until the run is at full speed, answers wait for it (however slowly the client sends), so
    // that the first refusal surely meets PARALLEL requests in flight.
    await Promise.race([this.reachedFullSpeed, sleep(10_000)]);
    await sleep(40);
    this.inFlight--;
    const { 'transfer-encoding': _chunked, connection: _connection, ...rest } = upstream.headers;
    res.writeHead(upstream.status, { ...rest, 'content-length': String(upstream.body.length) }).end(upstream.body);
  }
}

interface Item {
  status: string;
  mkey: string;
  outcome?: string;
}

let emu: RunningEmulator;
let limiter: RateLimiter;
let env: NodeJS.ProcessEnv;
let file: string;

before(async () => {
  emu = await startEmulator({ port: 0, seed: 'empty' });
  limiter = new RateLimiter(emu.url);
  await limiter.start();
  env = isolatedEnv({ CMDB_HOST: limiter.url, CMDB_TOKEN: emu.token });
  file = join(tempDir('cmdb-rate-'), 'bindings.ndjson');
  writeFileSync(file, bindings.map((b) => JSON.stringify(b)).join('\n') + '\n');
});
after(async () => {
  await limiter.close();
  await emu.close();
});

/** The run's addresses on the device (the factory addresses every device has stay as they are). */
function onDevice(): string[] {
  return (emu.objects(TABLE) as { name: string }[])
    .map((o) => o.name)
    .filter((name) => name.startsWith('host-'))
    .sort();
}

/** Every item reported once, by its key, as a plain success. */
function reportedRight(r: Run): void {
  assert.equal(r.code, 0, `exit ${r.code}\n${r.stderr}`);
  const items = JSON.parse(r.stdout) as Item[];
  assert.deepEqual(items.map((i) => i.mkey).sort(), bindings.map((b) => b.name).sort(), 'every item once, by its key');
  for (const item of items) assert.deepEqual([item.status, item.outcome], ['success', undefined], JSON.stringify(item));
}

/** What the proxy saw: refusals with and without Retry-After, each sent again, and the slow-down. */
function rateLimitedRight(writes: string): void {
  const arrivals = limiter.arrivals;
  const refused = arrivals.filter((a) => a.refused);
  assert.ok(
    refused.some((a) => a.retryAfter) && refused.some((a) => !a.retryAfter),
    `refusals with and without Retry-After: ${refused.length}`,
  );
  for (const r of refused) {
    const again = arrivals.slice(arrivals.indexOf(r) + 1).filter((a) => a.request === r.request);
    assert.equal(again.length, 1, `the refused request was sent again, once: ${r.request}`);
    assert.equal(again[0].refused, false);
  }
  assert.equal(
    arrivals.filter((a) => !a.refused && a.request.startsWith(writes)).length,
    N,
    `each of the ${N} writes reached the device once`,
  );

  const first = arrivals.indexOf(refused[0]);
  const before = Math.max(...arrivals.slice(0, first + 1).map((a) => a.inFlight));
  assert.equal(before, PARALLEL, `up to the first 429 the run had ${PARALLEL} requests in flight`);
  // Once the first refused request comes back (after the pause everyone waits out), the run sends
  // fewer at once than --concurrency: the next PARALLEL arrivals never reach it.
  const resent = arrivals.findIndex((a, i) => i > first && a.request === refused[0].request);
  const afterwards = arrivals.slice(resent, resent + PARALLEL).map((a) => a.inFlight);
  assert.equal(afterwards.length, PARALLEL);
  assert.ok(
    Math.max(...afterwards) < PARALLEL,
    `after the first 429, in flight at each arrival: ${afterwards.join(' ')}`,
  );
}

describe('429 on the requests of a bulk run: wait, send again, slow down', () => {
  test(`create -f with ${N} items at --concurrency ${PARALLEL}`, async () => {
    limiter.reset();
    const r = await runInProcess(['create', TABLE, '-f', file, '-o', 'json', '--concurrency', String(PARALLEL)], {
      env,
      timeoutMs: 120_000,
    });
    reportedRight(r);
    rateLimitedRight('POST');
    assert.deepEqual(onDevice(), bindings.map((b) => b.name).sort());
  });

  test(`delete of ${N} keys at --concurrency ${PARALLEL}`, async () => {
    assert.equal(onDevice().length, N);
    limiter.reset();
    const r = await runInProcess(
      ['delete', TABLE, ...bindings.map((b) => b.name), '-o', 'json', '--concurrency', String(PARALLEL), '--yes'],
      { env, timeoutMs: 120_000 },
    );
    reportedRight(r);
    rateLimitedRight('DELETE');
    assert.deepEqual(onDevice(), []);
  });
});
