// Plain HTTP helpers of the emulated device: bounded body reading, and answers in JSON, HTML or text.
import type { IncomingMessage, ServerResponse } from 'node:http';

export interface ReadBody {
  text: string;
  tooLarge: boolean;
}

/** Past this many bytes beyond the limit the connection is dropped instead of drained. */
const DRAIN_FACTOR = 16;

/**
 * Reads at most `limit` bytes into memory. An oversized body is drained
 * (discarded) so that the client can read the 413 answer, up to a bound
 * past which the connection is dropped.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<ReadBody> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    const chunks: Buffer[] = [];
    let received = 0;
    let tooLarge = declared > limit;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > limit) tooLarge = true;
      if (!tooLarge) chunks.push(chunk);
      else if (received > limit * DRAIN_FACTOR) req.destroy();
    });
    req.on('end', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
    req.on('error', reject);
    req.on('close', () => resolve({ text: Buffer.concat(chunks).toString('utf8'), tooLarge }));
  });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string | string[]> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
    ...headers,
  });
  res.end(text);
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string | string[]> = {},
): void {
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=utf-8',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
    ...headers,
  });
  res.end(html);
}

export function sendText(res: ServerResponse, status: number, text: string): void {
  res.writeHead(status, {
    'Content-Type': 'text/plain; charset=utf-8',
    'Cache-Control': 'no-cache, no-store, must-revalidate',
  });
  res.end(text);
}

/**
 * The request's cookies. Clients that echo a whole `Set-Cookie` line send its
 * attributes too (`Path=/`, `HttpOnly`), and some join several with commas:
 * both are read leniently (the last of a name wins).
 */
export function parseCookies(header: string | undefined): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of (header ?? '').split(/;|,(?=\s*[\w-]+=)/)) {
    const eq = part.indexOf('=');
    if (eq > 0) cookies.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim());
  }
  return cookies;
}

/** Request headers as one string each (repeated headers joined as HTTP does). */
export function flatHeaders(req: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

/** Splits a request target into its still-encoded path and raw query. */
export function splitTarget(url: string | undefined): { path: string; query: string } {
  const target = url ?? '/';
  const q = target.indexOf('?');
  return q < 0 ? { path: target, query: '' } : { path: target.slice(0, q), query: target.slice(q + 1) };
}
