// A flaky link in front of a device: a TCP proxy that resets some requests' connections, either before
// the request reaches the device (nothing happened) or once the device has answered (it committed, and
// the client never hears about it). Which requests fail follows a seeded generator, so a run is
// reproducible from its seed.
import { connect, createServer, type Socket } from 'node:net';

export type Fault = 'pass' | 'before' | 'after';

export interface FaultProxy {
  url: string;
  /** How many requests each fault hit. */
  stats: Record<Fault, number>;
  /** The most held requests (`hold`) the device had received at once whose answers the client had not yet been given. */
  mostInFlight: number;
  close(): Promise<void>;
}

export interface FaultOptions {
  /** The device behind the proxy, `http://127.0.0.1:port`. */
  target: string;
  seed: number;
  /** Share of requests whose connection is reset, half before and half after the device answered (default 0.1). */
  rate?: number;
  /** Chooses the fault of each request from its first bytes (the request line and headers) instead of at random. */
  choose?: (head: string) => Fault;
  /** Milliseconds to hold each answer before the client gets it, from the request's first bytes (a slow link). */
  hold?: (head: string) => number;
}

/** mulberry32: a small, well-mixed 32-bit generator, enough to make faults reproducible. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export async function startFaultProxy(options: FaultOptions): Promise<FaultProxy> {
  const target = new URL(options.target);
  const random = seeded(options.seed);
  const rate = options.rate ?? 0.1;
  const stats: Record<Fault, number> = { pass: 0, before: 0, after: 0 };
  const sockets = new Set<Socket>();
  let inFlight = 0;
  const proxy = { mostInFlight: 0 };
  const decide = (head: string): Fault => {
    const r = random();
    const fault: Fault = options.choose ? options.choose(head) : r < rate / 2 ? 'before' : r < rate ? 'after' : 'pass';
    stats[fault]++;
    return fault;
  };

  const server = createServer((client) => {
    const upstream = connect(Number(target.port), target.hostname);
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    // A keep-alive connection carries one request after another: a new one starts with the first
    // bytes the client sends after the previous answer began.
    let phase: 'idle' | 'request' | 'response' = 'idle';
    let fault: Fault = 'pass';
    let held = 0;
    // The answer's bytes in order, each after the hold of its request.
    let gate: Promise<unknown> = Promise.resolve();
    let counted = false;
    const settle = () => {
      if (counted) inFlight--;
      counted = false;
    };
    const reset = () => {
      client.resetAndDestroy();
      upstream.destroy();
    };
    client.on('data', (chunk) => {
      if (phase !== 'request') {
        const head = chunk.toString('latin1');
        fault = decide(head);
        held = options.hold?.(head) ?? 0;
        phase = 'request';
        if (fault === 'before') return reset();
        settle();
        if (held) {
          counted = true;
          proxy.mostInFlight = Math.max(proxy.mostInFlight, ++inFlight);
        }
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (phase !== 'response' && held) {
        const wait = held;
        gate = gate.then(() => new Promise((resolve) => setTimeout(resolve, wait)));
      }
      phase = 'response';
      if (fault === 'after') return (settle(), reset());
      gate = gate.then(() => {
        settle();
        if (!client.destroyed) client.write(chunk);
      });
    });
    client.on('end', () => upstream.end());
    upstream.on('end', () => void gate.then(() => client.end()));
    client.on('close', settle);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    stats,
    get mostInFlight() {
      return proxy.mostInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
