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

/** `<prefix>/<table>[/<mkey>]`, with the prefix normalised to one leading and no trailing slash. */
export function buildPath(prefix: string, tablePath: string, mkey?: string | number): string {
  const base = '/' + prefix.replace(/^\/+|\/+$/g, '');
  const table = tablePath.replace(/^\/+|\/+$/g, '');
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
    if (name === 'filter') (value as string[]).forEach((f) => add(name, f));
    else if (name === 'format') add(name, (value as string[]).join('|'));
    else if (name === 'vdom') add(name, (value as string[]).join(','));
    else if (value === true) add(name, '1');
    else add(name, String(value));
  }
  return parts.length ? `?${parts.join('&')}` : '';
}

/** `fw.example` → `https://fw.example`; keeps an explicit scheme and port; IPv6 literals in brackets. */
export function normalizeBaseUrl(host: string): string {
  let h = host.trim().replace(/\/+$/, '');
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(h)) {
    // A bare IPv6 literal without brackets: wrap it.
    if (/^[0-9a-f:]+$/i.test(h) && h.includes(':') && h.split(':').length > 2) h = `[${h}]`;
    h = `https://${h}`;
  }
  const url = new URL(h);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`unsupported scheme ${url.protocol}`);
  return `${url.protocol}//${url.host}`;
}
