// Addresses and paths of the API: a device's base URL normalised, a table path and key encoded, a
// query string built, and what an address must not hold (a password, another scheme).
export const DEFAULT_PREFIX = '/api/v2/cmdb';

/** Query parameters of SPEC.md E1-E5, as the client models them before encoding. */
export interface QueryParams {
  vdom?: string[];
  datasource?: boolean;
  start?: number;
  count?: number;
  with_meta?: boolean;
  with_contents_hash?: boolean;
  skip?: boolean;
  format?: string[];
  filter?: string[];
  key?: string;
  pattern?: string;
  scope?: string;
  'exclude-default-values'?: boolean;
  action?: string;
  nkey?: string;
  before?: string;
  after?: string;
}

/** The whole mkey is one path segment: `10.0.0.0/8` → `10.0.0.0%2F8` (PROTOCOL.md). */
export function encodeMkey(mkey: string | number): string {
  return encodeURIComponent(String(mkey));
}

/**
 * A table path as sent: as the device spells it (`firewall/DoS-policy`, `user/tacacs+`: `+` is a valid
 * path character and what devices and their clients use), each segment percent-encoded where a
 * character is not valid in a URL path.
 */
export function encodeTablePath(tablePath: string): string {
  return tablePath
    .split('/')
    .map((segment) => encodeURIComponent(segment).replace(/%2B/gi, '+'))
    .join('/');
}

/** `<prefix>/<table>[/<mkey>]`, with the prefix normalised to one leading and no trailing slash. */
export function buildPath(prefix: string, tablePath: string, mkey?: string | number): string {
  const base = '/' + prefix.replace(/^\/+|\/+$/g, '');
  const table = encodeTablePath(tablePath.replace(/^\/+|\/+$/g, ''));
  const path = table ? `${base}/${table}` : base;
  return mkey === undefined ? path : `${path}/${encodeMkey(mkey)}`;
}

/**
 * Encodes the query as devices expect it: booleans as `1` (false is omitted), `format` pipe-joined,
 * `filter` repeated (AND), `vdom` comma-joined; every value percent-encoded.
 */
export function buildQuery(params: QueryParams = {}): string {
  const parts: string[] = [];
  const add = (name: string, value: string) => parts.push(`${encodeURIComponent(name)}=${encodeURIComponent(value)}`);
  for (const [name, value] of Object.entries(params) as [keyof QueryParams, QueryParams[keyof QueryParams]][]) {
    if (value === undefined || value === false) continue;
    if (name === 'filter')
      (value as string[]).forEach((f) => {
        add(name, f);
      });
    else if (name === 'format') add(name, (value as string[]).join('|'));
    else if (name === 'vdom') add(name, (value as string[]).join(','));
    else if (value === true) add(name, '1');
    else add(name, String(value));
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** Why a device address was refused. */
export type AddressProblem = 'empty' | 'no-host' | 'credentials' | 'scheme' | 'invalid';

/** A device address that cannot be used; `address` is the input with any user information replaced by `***`. */
export class AddressError extends TypeError {
  constructor(
    readonly problem: AddressProblem,
    readonly address: string,
  ) {
    super(`${problem}: ${address}`);
    this.name = 'AddressError';
  }
}

/**
 * The address as it may be shown: whatever stands before its last `@` (a user name, a password, or a
 * password typed as the user name) becomes `***`: `https://u:pw@fw` → `https://***@fw`.
 */
export function redactAddress(input: string): string {
  return input.replace(
    /^([a-z][a-z0-9+.-]*:\/\/)?[\s\S]*@/i,
    (_m, scheme: string | undefined) => `${scheme ?? ''}***@`,
  );
}

/**
 * `fw.example` → `https://fw.example`; keeps an explicit scheme and port; IPv6 literals in brackets.
 * Refuses (AddressError) an empty address, a scheme with no host, and user information: credentials
 * never travel in an address.
 */
export function normalizeBaseUrl(host: string): string {
  const input = host.trim();
  if (!input) throw new AddressError('empty', '');
  const shown = redactAddress(input);
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(input);
  if (scheme && !/^https?$/i.test(scheme[1])) throw new AddressError('scheme', shown);
  let h = input.replace(/\/+$/, '');
  if (scheme && h.length <= scheme[0].length - 1) throw new AddressError('no-host', shown);
  if (!scheme) {
    // A bare IPv6 literal without brackets: wrap it.
    if (/^[0-9a-f:]+$/i.test(h) && h.includes(':') && h.split(':').length > 2) h = `[${h}]`;
    h = `https://${h}`;
  }
  let url: URL;
  try {
    url = new URL(h);
  } catch {
    throw new AddressError('invalid', shown);
  }
  if (url.username || url.password || /^[^/]*\/\/[^/?#]*@/.test(h)) throw new AddressError('credentials', shown);
  if (!url.hostname) throw new AddressError('no-host', shown);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new AddressError('scheme', shown);
  return `${url.protocol}//${url.host}`;
}

/** Why an API prefix cannot be used, or null: a path of printable ASCII, no query or fragment. */
export function prefixProblem(prefix: string): 'not-a-path' | 'characters' | 'query' | null {
  if (/[^\x21-\x7e]/.test(prefix)) return 'characters';
  if (/[?#]/.test(prefix)) return 'query';
  if (!prefix.startsWith('/')) return 'not-a-path';
  return null;
}

/** Why a path cannot be asked with a raw request (`cmdb api`), or null. */
export type ApiPathProblem = 'empty' | 'absolute-url' | 'outside' | 'dot-segment' | 'characters' | 'fragment';

/**
 * A path under the API root as the device takes it: `monitor/system/status` or
 * `/api/v2/monitor/system/status` → `monitor/system/status` (no leading slash, characters a path may
 * not hold percent-encoded, `%XX` kept), with the query that came with it. Refuses a scheme and host,
 * anything outside `/api/v2/`, `.` and `..` segments, and control characters: such a path is never sent.
 */
export function apiPath(input: string): { path: string; query: string } | { problem: ApiPathProblem } {
  const text = input.trim();
  if (/^[a-z][a-z0-9+.-]*:/i.test(text) || text.startsWith('//') || text.startsWith('\\'))
    return { problem: 'absolute-url' };
  if (/[\x00-\x1f\x7f\\]/.test(text)) return { problem: 'characters' };
  if (text.includes('#')) return { problem: 'fragment' };
  const q = text.indexOf('?');
  let path = q < 0 ? text : text.slice(0, q);
  const query =
    q < 0
      ? ''
      : text.slice(q + 1).replace(/%(?![0-9a-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%/?]/gi, (c) => encodeURIComponent(c));
  if (path.startsWith('/') || path.startsWith('api/')) {
    const rooted = path.startsWith('/') ? path : `/${path}`;
    if (!rooted.startsWith('/api/v2/')) return { problem: 'outside' };
    path = rooted.slice('/api/v2/'.length);
  }
  const segments = path.split('/');
  if (segments.some((s) => /^(\.|%2e){1,2}$/i.test(s))) return { problem: 'dot-segment' };
  path = segments
    .map((s) => s.replace(/%(?![0-9a-f]{2})|[^A-Za-z0-9\-._~!$&'()*+,;=:@%]/gi, (c) => encodeURIComponent(c)))
    .join('/')
    .replace(/^\/+/, '');
  if (!path.replace(/\/+/g, '')) return { problem: 'empty' };
  return { path, query };
}

/** `name=value` pairs as a query string (each part percent-encoded), after any query already given. */
export function joinQuery(given: string, pairs: readonly (readonly [string, string])[]): string {
  const parts = [
    ...(given ? [given] : []),
    ...pairs.map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`),
  ];
  return parts.length ? `?${parts.join('&')}` : '';
}
