import { createServer, request, type IncomingMessage } from 'node:http';

export interface Meddler {
  url: string;
  close(): Promise<void>;
}

/** An answer the meddler gives itself instead of forwarding the request. */
export interface OwnAnswer {
  status: number;
  body: string;
}

/**
 * An HTTP proxy in front of a device that runs `before(req, body)` ahead of forwarding each request: a
 * test's way to change the device between two requests of one command (another administrator), to
 * hold one request, or to answer it instead (an endpoint this device does not have).
 */
export async function startMeddler(
  target: string,
  before: (req: IncomingMessage, body: Buffer) => Promise<OwnAnswer | undefined>,
): Promise<Meddler> {
  const to = new URL(target);
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const own = await before(req, body);
    if (own) {
      res.writeHead(own.status, { 'content-type': 'application/json' });
      res.end(own.body);
      return;
    }
    const upstream = request(
      { host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    upstream.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
