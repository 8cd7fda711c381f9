// The api library's client: one CMDB request (URL, authentication, rate limit, envelopes unwrapped,
// typed errors), the raw calls beside it, the --verbose exchange log with secrets redacted, and a dry
// run's recording of writes. It knows nothing of the CLI: `import { CmdbClient } from 'cmdb'`.
import type { Dispatcher } from 'undici';
import {
  ApiError,
  ConnectionError,
  MalformedAnswerError,
  RequestError,
  type Malformation,
  type RequestSubject,
} from './errors.js';
import { MAX_RETRY_AFTER_S, RATE_LIMIT_TRIES, rateLimitDelayMs, RateGate } from './rate.js';
import { connectionError, createAgent, type TlsOptions } from './network.js';
import { defaultTransport, type Transport } from './undici.js';
import {
  apiPath,
  buildPath,
  buildQuery,
  DEFAULT_PREFIX,
  joinQuery,
  normalizeBaseUrl,
  type QueryParams,
} from './url.js';

export type { TlsOptions } from './network.js';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/** One HTTP exchange as `--verbose` shows it; headers are already redacted. */
export interface Exchange {
  method: string;
  url: string;
  requestHeaders: Record<string, string | string[]>;
  requestBody?: string;
  status?: number;
  responseHeaders?: Record<string, string | string[]>;
  responseBody?: string;
  durationMs: number;
  error?: string;
}

export interface RawRequest {
  method: HttpMethod;
  /** Absolute path with query, e.g. `/logincheck` or `/api/v2/cmdb/log.disk/setting?vdom=root`. */
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** Keep the answer's bytes as they came (`bytes`), besides its text. */
  binary?: boolean;
  /**
   * Ends the request early, as a timeout: an interrupted download, a deadline over several requests (see
   * ApiRequest.signal).
   */
  signal?: AbortSignal;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
  /** The body exactly as it came, when the request asked for it (`binary`). */
  bytes?: Buffer;
}

/** A request on any path under the API root (the monitor and log APIs, a backup, later releases' endpoints). */
export interface CallRequest {
  method: HttpMethod;
  /**
   * Under the API root, relative or from it (`monitor/system/status`, `/api/v2/cmdb/firewall/address`), with any query
   * written into it.
   */
  path: string;
  /** Query parameters added after those of the path, as name, value pairs (encoded here). */
  query?: readonly (readonly [string, string])[];
  /** Sent as JSON. */
  body?: unknown;
  /** Ends the request early (an interrupted download); the error is then a ConnectionError. */
  signal?: AbortSignal;
}

/** What the device answered a CallRequest with (a success: errors are thrown as for request()). */
export interface CallResult {
  status: number;
  /** The answer's Content-Type ('' when it sent none). */
  contentType: string;
  /** The body exactly as it came. */
  bytes: Buffer;
  /** A JSON answer, parsed, with its envelopes; null for any other answer (a configuration backup's text). */
  json: ApiResult | null;
}

/** Supplies credentials per request (token or session); see auth.ts. */
export interface Authenticator {
  readonly kind: 'token' | 'session' | 'none';
  headers(client: CmdbClient): Promise<Record<string, string>>;
  /** Called once on a 401: true when fresh credentials were obtained and the request may be retried once. */
  refresh?(client: CmdbClient): Promise<boolean>;
}

export interface ClientOptions {
  baseUrl: string;
  prefix?: string;
  auth?: Authenticator;
  timeoutMs?: number;
  tls?: TlsOptions;
  /** Injected dispatcher (undici MockAgent in unit tests); otherwise one keep-alive Agent per client. */
  dispatcher?: Dispatcher;
  /**
   * undici's Agent, connector and `request` as the caller loaded them (the CLI: its own copy, without
   * HTTP/2); otherwise loaded from the undici package at the first request (defaultTransport()).
   */
  transport?: Transport;
  onExchange?: (exchange: Exchange) => void;
  /** Where this client counts its writes and how they ended (shared by the clients of one run). */
  writes?: WriteTally;
}

/**
 * The writes (anything but GET) clients have sent and how they ended so far: answered with success
 * (`applied`) or with the device's refusal (`refused`); the rest have no answer (yet, or lost).
 */
export interface WriteTally {
  sent: number;
  applied: number;
  refused: number;
}

/** What a command asks of the device: one CMDB operation. */
export interface ApiRequest {
  method: HttpMethod;
  /** Table path (`firewall.ipmacbinding/table`), or '' for the CMDB root (transactions). */
  tablePath: string;
  mkey?: string | number;
  query?: QueryParams;
  body?: unknown;
  headers?: Record<string, string>;
  /** Access group the table needs, for the hint of a 403. */
  group?: string;
  /**
   * With several VDOMs, return what each answered (`failed` for the ones that refused) instead of
   * throwing the first VDOM's error: for callers that print one result per VDOM.
   */
  eachVdom?: boolean;
  /**
   * Ends the request early, failing as a timeout (ConnectionError `timeout`), when it aborts before the
   * client's own per-request timeout: a deadline over several requests, such as a read-back's tries.
   */
  signal?: AbortSignal;
}

/** A device envelope (PROTOCOL.md "Responses"). */
export interface Envelope {
  http_method?: string;
  results?: unknown;
  revision?: string;
  revision_changed?: boolean;
  mkey?: string | number;
  vdom?: string;
  path?: string;
  name?: string;
  status?: string;
  http_status?: number;
  error?: number;
  cli_error?: string;
  serial?: string;
  version?: string;
  build?: number;
  [field: string]: unknown;
}

/**
 * A request as a dry run shows it: the path from the API prefix on (key percent-encoded), the encoded query, the body.
 */
export interface WireRequest {
  method: HttpMethod;
  path: string;
  query: string;
  body: unknown;
}

/** What one try sends besides its path and body. */
interface Outgoing {
  method: HttpMethod;
  headers?: Record<string, string>;
  binary?: boolean;
  signal?: AbortSignal;
}

/** Takes the writes of a dry run instead of the device. */
export type WriteRecorder = (request: ApiRequest, wire: WireRequest) => void;

export interface ApiResult {
  status: number;
  /** The parsed JSON body, untouched (for --raw). */
  body: unknown;
  /** One envelope per VDOM; several only when several VDOMs were asked for. */
  envelopes: Envelope[];
  multiVdom: boolean;
  /** With `eachVdom`: the VDOMs that refused, each with its own error (`envelopes` holds the others). */
  failed?: ApiError[];
}

const REDACTED = '<redacted>';
const SECRET_HEADERS = new Set(['authorization', 'cookie', 'set-cookie', 'x-csrftoken']);
const SECRET_FIELD = /pass|secret|psk|token|key$/i;

/** Header values that carry credentials are replaced, keeping cookie names visible. */
export function redactHeaders(
  headers: Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const lower = name.toLowerCase();
    if (!SECRET_HEADERS.has(lower)) out[name] = value;
    else if (lower === 'authorization') out[name] = String(value).replace(/^(\w+)\s.*$/, `$1 ${REDACTED}`);
    else if (lower === 'cookie') out[name] = String(value).replace(/=([^;]*)/g, `=${REDACTED}`);
    else if (lower === 'set-cookie')
      out[name] = (Array.isArray(value) ? value : [value]).map((c) => c.replace(/^([^=]*)=[^;]*/, `$1=${REDACTED}`));
    else out[name] = REDACTED;
  }
  return out;
}

/** Form and JSON bodies with credential-looking fields (secretkey, password, psk...) redacted for --verbose. */
export function redactBody(body: string | undefined, contentType = ''): string | undefined {
  if (!body) return body;
  if (contentType.includes('x-www-form-urlencoded')) {
    return body.replace(/(^|&)([^=&]*)=([^&]*)/g, (m, sep: string, name: string) =>
      /secretkey|pass|token_code/i.test(name) ? `${sep}${name}=${REDACTED}` : m,
    );
  }
  try {
    return JSON.stringify(JSON.parse(body), (k, v) =>
      k && typeof v !== 'object' && SECRET_FIELD.test(k) && !/^(q_origin_key|key)$/.test(k) ? REDACTED : v,
    );
  } catch {
    return body;
  }
}

/** Deeper than this, an answer is not configuration (and would overflow the stack of whoever walks it). */
const MAX_DEPTH = 100;

/** Whether JSON text nests arrays and objects deeper than `limit` (strings skipped). */
function nestsDeeper(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++;
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x7b || c === 0x5b) {
      if (++depth > limit) return true;
    } else if (c === 0x7d || c === 0x5d) depth--;
  }
  return false;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The fields every envelope of the device carries at least one of. */
const ENVELOPE_FIELDS = ['status', 'http_status', 'http_method', 'results', 'revision', 'mkey', 'error'];

/** The body as JSON; `malformation` says why it cannot be the device's answer. */
function parseBody(text: string): { body: unknown; malformation: Malformation | null } {
  const t = text.trim();
  if (!t) return { body: undefined, malformation: 'empty' };
  if (nestsDeeper(t, MAX_DEPTH)) return { body: undefined, malformation: 'too-deep' };
  let body: unknown;
  try {
    body = JSON.parse(t);
  } catch {
    return { body: undefined, malformation: 'not-json' };
  }
  const envelopes = Array.isArray(body) ? body : [body];
  if (!envelopes.length || !envelopes.every((e) => isObject(e) && ENVELOPE_FIELDS.some((f) => f in e)))
    return { body, malformation: 'not-envelope' };
  return { body, malformation: null };
}

/** A read's results are the data: an object (singleton, status) or a list of objects, nothing else. */
function readableResults(envelope: Envelope): boolean {
  const results = envelope.results;
  return isObject(results) || (Array.isArray(results) && results.every(isObject));
}

function toEnvelopes(body: unknown): { envelopes: Envelope[]; multiVdom: boolean } {
  if (Array.isArray(body)) return { envelopes: body as Envelope[], multiVdom: true };
  return { envelopes: [body as Envelope], multiVdom: false };
}

/** `Retry-After` as seconds (a number or an HTTP date), or null when the device did not say. */
export function retryAfterSeconds(res: Pick<RawResponse, 'headers'>): number | null {
  const header = res.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

/** The error of a device answer: its status, its `error` code and `cli_error`, and what was asked. */
function apiError(
  status: number,
  envelope: Envelope | undefined,
  subject: RequestSubject,
  authKind: Authenticator['kind'],
  retryAfter: number | null,
  tries = 1,
): ApiError {
  const code = typeof envelope?.error === 'number' ? envelope.error : null;
  const cliError =
    typeof envelope?.cli_error === 'string' && envelope.cli_error.trim() ? envelope.cli_error.trim() : null;
  return new ApiError(status, code, cliError, subject, authKind, retryAfter, tries);
}

/** The HTTP client of one device: one keep-alive connection pool, one request function. */
export class CmdbClient {
  readonly baseUrl: string;
  readonly prefix: string;
  readonly auth: Authenticator | undefined;
  /** Per-request timeout: how long an answer may take. */
  readonly timeoutMs: number;
  private readonly tls: TlsOptions;
  private readonly onExchange?: (exchange: Exchange) => void;
  private readonly writes?: WriteTally;
  private dispatcher: Dispatcher | undefined;
  private readonly ownsDispatcher: boolean;
  private transportGiven: Transport | undefined;
  /** Every request of this client passes it: the device's rate limit slows them all down. */
  private readonly gate = new RateGate();
  private recorder: WriteRecorder | undefined;
  /** The release and serial number the device's last answer carried (every envelope has them), once one came. */
  release: { version: string; build?: number; serial?: string } | undefined;
  /** Whether the device has answered this client before: a connection lost later is not a wrong scheme or port. */
  private answered = false;

  constructor(options: ClientOptions) {
    try {
      this.baseUrl = normalizeBaseUrl(options.baseUrl);
    } catch {
      throw new RequestError('invalid-address', options.baseUrl);
    }
    this.prefix = options.prefix ?? DEFAULT_PREFIX;
    this.auth = options.auth;
    this.timeoutMs = options.timeoutMs ?? 30_000;
    this.tls = options.tls ?? {};
    this.onExchange = options.onExchange;
    this.writes = options.writes;
    this.dispatcher = options.dispatcher;
    this.ownsDispatcher = !options.dispatcher;
    this.transportGiven = options.transport;
  }

  /** The caller's transport, or the default, loaded at the first request (not when the client is made). */
  private get transport(): Transport {
    return (this.transportGiven ??= defaultTransport());
  }

  private async getDispatcher(): Promise<Dispatcher> {
    if (!this.dispatcher) {
      this.dispatcher = createAgent(this.tls, this.timeoutMs, this.transport);
    }
    return this.dispatcher;
  }

  /** Sends one HTTP request as is; network failures become ConnectionError. Used by auth for /logincheck. */
  async send(req: RawRequest): Promise<RawResponse> {
    const dispatcher = await this.getDispatcher();
    const url = this.baseUrl + req.path;
    const headers: Record<string, string> = { accept: 'application/json', ...req.headers };
    const started = performance.now();
    const log = (extra: Partial<Exchange>) =>
      this.onExchange?.({
        method: req.method,
        url,
        requestHeaders: redactHeaders(headers),
        requestBody: redactBody(req.body, headers['content-type']),
        durationMs: Math.round(performance.now() - started),
        ...extra,
      });
    // The timeout bounds the whole exchange, the answer's body included (one that never ends, too).
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = req.signal ? AbortSignal.any([timeout, req.signal]) : timeout;
    try {
      const res = await this.transport.request(dispatcher, {
        origin: this.baseUrl,
        path: req.path,
        method: req.method,
        headers,
        body: req.body,
        headersTimeout: this.timeoutMs,
        bodyTimeout: this.timeoutMs,
        signal,
      });
      let body: string;
      let bytes: Buffer | undefined;
      try {
        if (req.binary) {
          bytes = Buffer.from(await res.body.arrayBuffer());
          body = bytes.toString('utf8');
        } else body = await res.body.text();
      } catch (err) {
        log({ status: res.statusCode, error: (err as Error).message });
        // A body still coming when the time ran out timed out; one the connection cut short broke off.
        if (signal.aborted || (err as { code?: string }).code === 'UND_ERR_BODY_TIMEOUT')
          throw new ConnectionError(
            'timeout',
            this.baseUrl,
            `the answer did not end in time (HTTP ${res.statusCode} received)`,
            this.timeoutMs,
            { cause: err },
          );
        throw new MalformedAnswerError('truncated', res.statusCode, {
          method: req.method,
          tablePath: req.path.split('?')[0],
        });
      }
      const out: RawResponse = { status: res.statusCode, headers: res.headers, body, ...(bytes ? { bytes } : {}) };
      this.answered = true;
      log({ status: out.status, responseHeaders: redactHeaders(out.headers), responseBody: body });
      return out;
    } catch (err) {
      if (err instanceof MalformedAnswerError || err instanceof ConnectionError) throw err;
      const error = await connectionError(err, this.baseUrl, this.timeoutMs, this.tls, this.answered);
      log({ error: error.message });
      throw error;
    }
  }

  /** What `request` would send, for a dry run: the path from the API prefix on, the query string, the body. */
  wireRequest(req: ApiRequest): WireRequest {
    return {
      method: req.method,
      path: buildPath(this.prefix, req.tablePath, req.mkey),
      query: buildQuery(req.query).replace(/^\?/, ''),
      body: req.body ?? null,
    };
  }

  /**
   * A dry run: from now on every write (anything but GET) goes to `recorder` instead of the device
   * and answers as a device would on success; reads are still sent.
   */
  recordWrites(recorder: WriteRecorder): void {
    this.recorder = recorder;
  }

  /** One CMDB operation: builds the URL, authenticates, retries once after a re-login, unwraps envelopes. */
  async request(req: ApiRequest): Promise<ApiResult> {
    if (req.method === 'DELETE' && req.mkey === undefined) {
      // A DELETE on a collection purges the whole table on a real device.
      throw new RequestError('delete-without-key', req.tablePath);
    }
    if (this.recorder && req.method !== 'GET') {
      this.recorder(req, this.wireRequest(req));
      const vdoms = req.query?.vdom;
      const envelope: Envelope = {
        http_method: req.method,
        status: 'success',
        http_status: 200,
        ...(req.mkey !== undefined ? { mkey: req.mkey } : {}),
      };
      if (vdoms && vdoms.length === 1 && vdoms[0] !== '*') envelope.vdom = vdoms[0];
      return { status: 200, body: envelope, envelopes: [envelope], multiVdom: false };
    }
    const path = buildPath(this.prefix, req.tablePath, req.mkey) + buildQuery(req.query);
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const subject: RequestSubject = {
      method: req.method,
      tablePath: req.tablePath,
      mkey: req.mkey,
      vdoms: req.query?.vdom,
      group: req.group,
    };
    return this.counted(req.method, async () => {
      for (let tries = 1; ; tries++) {
        const res = await this.sendLimited(path, req, body, tries);
        if (res) return this.unwrap(res, subject, path, tries, req.eachVdom);
      }
    });
  }

  /** Runs one request, counted in the write tally when it is a write: sent, then applied or refused. */
  private async counted<T>(method: string, work: () => Promise<T>): Promise<T> {
    const tally = method === 'GET' ? undefined : this.writes;
    if (!tally) return work();
    tally.sent++;
    try {
      const result = await work();
      tally.applied++;
      return result;
    } catch (error) {
      if (error instanceof ApiError) tally.refused++;
      throw error;
    }
  }

  /**
   * One try through the rate gate: the answer, or null after a 429 the device will take back later
   * (`Retry-After` at most MAX_RETRY_AFTER_S, fewer than RATE_LIMIT_TRIES tries): the request was not
   * executed, so it is sent again once everyone has waited.
   */
  private async sendLimited(
    path: string,
    req: Outgoing,
    body: string | undefined,
    tries: number,
  ): Promise<RawResponse | null> {
    await this.gate.enter();
    try {
      let res = await this.sendAuthenticated(path, req, body);
      if (res.status === 401 && this.auth?.refresh && (await this.auth.refresh(this))) {
        res = await this.sendAuthenticated(path, req, body);
      }
      if (res.status !== 429) {
        this.gate.succeeded();
        return res;
      }
      const retryAfter = retryAfterSeconds(res);
      if (tries >= RATE_LIMIT_TRIES || (retryAfter !== null && retryAfter > MAX_RETRY_AFTER_S)) return res;
      this.gate.limited(rateLimitDelayMs(tries, retryAfter));
      return null;
    } finally {
      this.gate.leave();
    }
  }

  private async sendAuthenticated(path: string, req: Outgoing, body: string | undefined): Promise<RawResponse> {
    const headers: Record<string, string> = { ...(await this.auth?.headers(this)), ...req.headers };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return this.send({ method: req.method, path, headers, body, binary: req.binary, signal: req.signal });
  }

  /**
   * One request on any path under the API root (`monitor/system/status`; the prefix's `/cmdb` taken
   * off), with the same credentials, session, rate limit and retries as request(). A JSON answer comes
   * back parsed (its results whatever their shape); any other success is kept as its bytes.
   */
  async call(req: CallRequest): Promise<CallResult> {
    const checked = apiPath(req.path);
    // Only a path under the API root goes out with the device's credentials.
    if ('problem' in checked) throw new RequestError('invalid-path', req.path);
    const root = this.prefix.replace(/\/+$/, '').replace(/\/cmdb$/, '');
    const path = `${root}/${checked.path}${joinQuery(checked.query, req.query ?? [])}`;
    const body = req.body === undefined ? undefined : JSON.stringify(req.body);
    const subject: RequestSubject = { method: req.method, tablePath: checked.path };
    const outgoing: Outgoing = { method: req.method, binary: true, signal: req.signal };
    return this.counted(req.method, async () => {
      for (let tries = 1; ; tries++) {
        const res = await this.sendLimited(path, outgoing, body, tries);
        if (res) return this.answer(res, subject, path, tries);
      }
    });
  }

  /** A call's answer: an error as request() throws it, JSON parsed, anything else as bytes. */
  private answer(res: RawResponse, subject: RequestSubject, path: string, tries: number): CallResult {
    const header = res.headers['content-type'];
    const contentType = (Array.isArray(header) ? header[0] : header) ?? '';
    const text = res.body.trim();
    const looksJson = contentType.includes('json') || text.startsWith('{') || text.startsWith('[');
    if (res.status >= 400 || !looksJson || !text) {
      if (res.status >= 200 && res.status < 300 && res.status !== 204)
        return { status: res.status, contentType, bytes: res.bytes ?? Buffer.from(res.body), json: null };
      // The statuses request() refuses the same way (an error envelope, a redirect, no body).
      this.unwrap(res, subject, path, tries);
    }
    if (nestsDeeper(text, MAX_DEPTH)) throw new MalformedAnswerError('too-deep', res.status, subject);
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      // Text that only looks like JSON: an answer of its own, kept as it came (an error status was thrown above).
      if (res.status >= 300) this.unwrap(res, subject, path, tries);
      return { status: res.status, contentType, bytes: res.bytes ?? Buffer.from(res.body), json: null };
    }
    const envelopes = (Array.isArray(body) ? body : [body]).filter(isObject) as Envelope[];
    const failed = envelopes.find((e) => e.status === 'error');
    if (failed)
      throw apiError(
        failed.http_status ?? res.status,
        failed,
        failed.vdom ? { ...subject, vdoms: [failed.vdom] } : subject,
        this.auth?.kind ?? 'none',
        null,
        tries,
      );
    if (res.status >= 300) this.unwrap(res, subject, path, tries);
    return {
      status: res.status,
      contentType,
      bytes: res.bytes ?? Buffer.from(res.body),
      json: { status: res.status, body, envelopes, multiVdom: Array.isArray(body) },
    };
  }

  private unwrap(res: RawResponse, subject: RequestSubject, path: string, tries = 1, eachVdom = false): ApiResult {
    const authKind = this.auth?.kind ?? 'none';
    const { body, malformation } = parseBody(res.body);
    // The device answers a path it does not have with its JSON: an HTML or empty 404 is someone else.
    if (res.status === 404 && malformation)
      throw new MalformedAnswerError('not-the-api', 404, subject, this.baseUrl + path.split('?')[0]);
    // Several VDOMs that answered differently: the HTTP status is one VDOM's, each envelope speaks for its own.
    if (
      eachVdom &&
      !malformation &&
      Array.isArray(body) &&
      body.length > 1 &&
      (res.status < 300 || res.status >= 400)
    ) {
      return this.eachVdom(res.status, body as Envelope[], subject, authKind);
    }
    if (res.status >= 400) {
      // Error bodies may be HTML (401, 403, 429 from the web server): the status speaks then.
      const envelopes = malformation ? [] : toEnvelopes(body).envelopes;
      const envelope = envelopes.find((e) => e.status === 'error') ?? envelopes[0];
      throw apiError(res.status, envelope, subject, authKind, retryAfterSeconds(res), tries);
    }
    if (res.status >= 300) throw new MalformedAnswerError('redirect', res.status, subject);
    if (res.status === 204 || res.status < 200) throw new MalformedAnswerError('empty', res.status, subject);
    if (malformation) throw new MalformedAnswerError(malformation, res.status, subject);
    const { envelopes, multiVdom } = toEnvelopes(body);
    const seen = envelopes[0];
    if (typeof seen?.version === 'string' && seen.version) {
      this.release = {
        version: seen.version,
        build: typeof seen.build === 'number' ? seen.build : undefined,
        serial: typeof seen.serial === 'string' ? seen.serial : undefined,
      };
    }
    const failed = envelopes.find((e) => e.status === 'error');
    if (failed) {
      const vdomSubject = failed.vdom ? { ...subject, vdoms: [failed.vdom] } : subject;
      throw apiError(failed.http_status ?? res.status, failed, vdomSubject, authKind, null);
    }
    if (subject.method === 'GET' && !envelopes.every(readableResults))
      throw new MalformedAnswerError('bad-results', res.status, subject);
    return { status: res.status, body, envelopes, multiVdom };
  }

  private eachVdom(
    status: number,
    envelopes: Envelope[],
    subject: RequestSubject,
    authKind: Authenticator['kind'],
  ): ApiResult {
    const succeeded = envelopes.filter((e) => e.status !== 'error');
    const failed = envelopes
      .filter((e) => e.status === 'error')
      .map((e) =>
        apiError(e.http_status ?? status, e, e.vdom ? { ...subject, vdoms: [e.vdom] } : subject, authKind, null),
      );
    if (subject.method === 'GET' && !succeeded.every(readableResults))
      throw new MalformedAnswerError('bad-results', status, subject);
    return { status, body: envelopes, envelopes: succeeded, multiVdom: true, failed };
  }

  /** GET on another API tree, e.g. `monitor/system/status` (used to check a credential). */
  async monitor(path: string): Promise<ApiResult> {
    const apiRoot = this.prefix.replace(/\/cmdb\/?$/, '');
    const fullPath = `${apiRoot}/monitor/${path.replace(/^\/+/, '')}`;
    const subject: RequestSubject = { method: 'GET', tablePath: `monitor/${path}` };
    let res = await this.send({ method: 'GET', path: fullPath, headers: await this.auth?.headers(this) });
    if (res.status === 401 && this.auth?.refresh && (await this.auth.refresh(this))) {
      res = await this.send({ method: 'GET', path: fullPath, headers: await this.auth?.headers(this) });
    }
    return this.unwrap(res, subject, fullPath);
  }

  async close(): Promise<void> {
    if (this.ownsDispatcher && this.dispatcher) await this.dispatcher.close();
    this.dispatcher = undefined;
  }
}
