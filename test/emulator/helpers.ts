import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src/emulator/index.js';

export const TOKEN = 'testtoken0000000000000000000001';
export const PASSWORD = 'S3cret pass';
export const CMDB = '/api/v2/cmdb';

/** An emulator with known credentials. */
export function start(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  return startEmulator({ admins: [{ username: 'admin', password: PASSWORD }], tokens: [{ token: TOKEN }], ...options });
}

// Response bodies are whatever JSON the device sent: tests index into them freely.
// biome-ignore lint/suspicious/noExplicitAny: the device's JSON, indexed freely by the tests
export type Json = any;

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: Json;
}

export interface CallOptions {
  body?: unknown;
  /** A raw body sent as is (with its own Content-Type header). */
  rawBody?: string;
  headers?: Record<string, string>;
  /** Bearer token; null sends none. Default: the test token. */
  token?: string | null;
}

export async function call(
  emulator: { url: string },
  method: string,
  path: string,
  options: CallOptions = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...options.headers };
  const token = options.token === undefined ? TOKEN : options.token;
  if (token !== null) headers.Authorization = `Bearer ${token}`;
  let body: string | undefined = options.rawBody;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    headers['Content-Type'] ??= 'application/json';
  }
  const response = await fetch(emulator.url + path, { method, headers, body });
  const text = await response.text();
  let json: Json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

export const get = (emulator: { url: string }, path: string, options?: CallOptions) =>
  call(emulator, 'GET', path, options);

/** The item path of a key, encoded as one segment. */
export const item = (tablePath: string, key: string | number) =>
  `${CMDB}/${tablePath}/${encodeURIComponent(String(key))}`;

export function keysOf(results: Json[], key: string): unknown[] {
  return results.map((object) => object[key]);
}
