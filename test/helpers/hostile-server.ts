// A device that misbehaves on purpose: every answer a broken firmware, a proxy or a captive portal might
// give. Tests pick the answer per request; the server records what it received, so a test can also prove
// that nothing was sent.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface Received {
  method: string;
  /** Path with query, as received. */
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** What to answer: a ready-made misbehaviour or a function of the request. */
export type Answer = (req: Received, res: ServerResponse, socket: Socket) => void;

export interface HostileServer {
  url: string;
  received: Received[];
  /** Answers every later request with `answer` (until the next call). */
  answer(answer: Answer): void;
  close(): Promise<void>;
}

const ENVELOPE = {
  http_method: 'GET',
  revision: 'r1',
  vdom: 'root',
  path: 'firewall',
  name: 'address',
  status: 'success',
  http_status: 200,
  serial: 'FGVMHOSTILE00001',
  version: 'v6.4.14',
  build: 2093,
};

/** A well-formed read envelope around `results`. */
export function envelope(results: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ ...ENVELOPE, results, ...extra });
}

/** A fixed status, content type and body. */
export function reply(status: number, body: string, headers: Record<string, string> = {}): Answer {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
}

export const answers = {
  html: (status = 200): Answer =>
    reply(status, '<!DOCTYPE html><html><body><h1>Please log in</h1></body></html>', { 'content-type': 'text/html' }),
  empty: (status = 200): Answer => reply(status, ''),
  noContent: (): Answer => (_req, res) => {
    res.writeHead(204);
    res.end();
  },
  /** A JSON body cut in the middle, with an honest Content-Length for what is sent. */
  truncated: (): Answer => reply(200, envelope([{ name: 'a', subnet: '10.0.0.0 255.0.0.0' }]).slice(0, 40)),
  /** Content-Length promises more than is sent, then the connection closes. */
  cutOff: (): Answer => (_req, res, socket) => {
    const body = envelope([{ name: 'a' }]);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(body.length + 100) });
    res.write(body.slice(0, 20), () => socket.destroy());
  },
  json: (value: unknown, status = 200): Answer => reply(status, JSON.stringify(value)),
  results: (results: unknown): Answer => reply(200, envelope(results)),
  /** Arrays nested `depth` levels deep inside `results`. */
  deep: (depth: number): Answer =>
    reply(200, envelope(null).replace('"results":null', `"results":${'['.repeat(depth)}${']'.repeat(depth)}`)),
  redirect: (status = 302, body = ''): Answer =>
    reply(status, body, { location: '/login?redir=%2Fapi', 'content-type': 'text/html' }),
  rateLimited: (retryAfter?: string, html = false): Answer =>
    reply(
      429,
      html ? '<html><body>Too many requests</body></html>' : JSON.stringify({ status: 'error', http_status: 429 }),
      {
        'content-type': html ? 'text/html' : 'application/json',
        ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }),
      },
    ),
  /** Never answers: the client's timeout must end the run. */
  silent: (): Answer => () => undefined,
  /** The same full page whatever `start` asks for, as a device that ignores paging would. */
  ignoresStart: (pageSize: number): Answer =>
    reply(
      200,
      envelope(Array.from({ length: pageSize }, (_, i) => ({ name: `addr-${i}`, q_origin_key: `addr-${i}` }))),
    ),
};

/** Starts the server on an ephemeral loopback port; the default answer is an empty keyed read. */
export async function startHostileServer(): Promise<HostileServer> {
  const received: Received[] = [];
  let current: Answer = answers.results([]);
  const sockets = new Set<Socket>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry: Received = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      };
      received.push(entry);
      current(entry, res, req.socket);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (answer) => (current = answer),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
