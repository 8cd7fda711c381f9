// The library's errors: what went wrong, as data. They carry no advice and no exit code; the CLI turns
// them into its messages, hints and exit codes in one place (src/run/hints.ts).

/** What the request was about: the table, the key, the VDOMs, the access group the table needs. */
export interface RequestSubject {
  method: string;
  tablePath?: string;
  mkey?: string | number;
  vdoms?: string[];
  group?: string;
}

/** The certificate a server presented, for a person to compare and perhaps pin. */
export interface PeerCertificate {
  fingerprint: string;
  subject: string;
  issuer: string;
  validTo: string;
}

/** The root of the library's errors. */
export class CmdbApiError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
  }
}

/** A device answer that was not a success (or not JSON at all). */
export class ApiError extends CmdbApiError {
  constructor(
    readonly status: number,
    /** The device's `error` code, when it sent one. */
    readonly code: number | null,
    /** The device's own words (`cli_error`), when it sent them. */
    readonly cliError: string | null,
    readonly subject: RequestSubject,
    /** How the request authenticated: a 401 means different things for a token and a session. */
    readonly authKind: 'token' | 'session' | 'none',
    /** Seconds the device asked to wait (`Retry-After` of a 429), when it said. */
    readonly retryAfter: number | null = null,
    /** How many times the request was sent (more than one after the device's rate limit, 429). */
    readonly tries = 1,
  ) {
    super(
      `${subject.method} ${subject.tablePath || '/'}: HTTP ` +
        `${status}${code !== null ? ` (error ${code})` : ''}${cliError ? `: ${cliError}` : ''}`,
    );
  }
  /** The same answer about another subject (a clone's new key, a create's key from its body). */
  about(subject: Partial<RequestSubject>): ApiError {
    return new ApiError(
      this.status,
      this.code,
      this.cliError,
      { ...this.subject, ...subject },
      this.authKind,
      this.retryAfter,
      this.tries,
    );
  }

  /** Whether the device said the key already exists (-5 or -15, whatever the HTTP status). */
  get duplicate(): boolean {
    return this.code === -5 || this.code === -15;
  }

  /**
   * Whether the device refused a write for naming an object it does not have: `-3` answered to a POST
   * or PUT with HTTP 500 (a missing object of the path answers 404), PROTOCOL.md "References and integrity".
   */
  get missingReference(): boolean {
    return this.code === -3 && this.status >= 500 && (this.subject.method === 'POST' || this.subject.method === 'PUT');
  }

  /** Whether the device said the object is not there (-3 or 404). */
  get notFound(): boolean {
    return this.code === -3 || this.status === 404;
  }
}

/** How an answer fails to be the device's JSON. */
export type Malformation =
  /** HTML, text, or JSON cut short. */
  | 'not-json'
  /** A success status with no body at all, or 204. */
  | 'empty'
  /** 3xx: the address leads somewhere else (a login portal, another port). */
  | 'redirect'
  /** JSON, but not an envelope (`"hello"`, `[1,2,3]`, `null`). */
  | 'not-envelope'
  /** An envelope whose `results` are not objects (`null`, bare numbers). */
  | 'bad-results'
  /** Nested deeper than any configuration object. */
  | 'too-deep'
  /** The connection closed before the whole body came. */
  | 'truncated'
  /** Paging that does not advance: the same page for every `start`. */
  | 'no-progress'
  /** A 404 whose body is not the device's JSON: something else answers at this address. */
  | 'not-the-api';

/** The device (or something in front of it) answered, but not with the device's JSON: never taken as data. */
export class MalformedAnswerError extends CmdbApiError {
  constructor(
    readonly malformation: Malformation,
    readonly status: number,
    readonly subject: RequestSubject,
    /** The address asked, where it tells the reader more than the table (`not-the-api`). */
    readonly url: string | null = null,
  ) {
    super(`${subject.method} ${url ?? (subject.tablePath || '/')}: HTTP ${status}: ${malformation}`);
  }
}

/** Why the device could not be reached. */
export type ConnectionFailure =
  | 'pin-mismatch'
  | 'tls-verify'
  | 'dns'
  | 'refused'
  | 'unreachable'
  | 'reset'
  | 'timeout'
  | 'tls-handshake'
  | 'other';

/** The device could not be reached (DNS, refused, timeout, TLS). */
export class ConnectionError extends CmdbApiError {
  /** The device had answered this client before (a stream cut midway, not a wrong scheme or port). */
  readonly answeredBefore: boolean;
  constructor(
    readonly reason: ConnectionFailure,
    readonly baseUrl: string,
    /** The underlying error's own text. */
    readonly detail: string,
    readonly timeoutMs: number,
    options?: { cause?: unknown; answeredBefore?: boolean },
  ) {
    super(`${baseUrl}: ${reason}: ${detail}`, options);
    this.answeredBefore = options?.answeredBefore ?? false;
  }
}

/** A TLS certificate that did not verify or did not match the pin; carries what the server presented. */
/** Why a certificate did not verify, as data (the CLI says it in words, never OpenSSL's string). */
export type TlsProblem =
  | 'expired'
  | 'not-yet-valid'
  | 'self-signed'
  | 'untrusted-issuer'
  | 'wrong-name'
  | 'pin-changed'
  | 'other';

export class TlsVerificationError extends ConnectionError {
  readonly problem: TlsProblem;
  constructor(
    reason: 'pin-mismatch' | 'tls-verify',
    baseUrl: string,
    detail: string,
    timeoutMs: number,
    readonly certificate: PeerCertificate | null,
    /** Whether a CA bundle was given to verify with. */
    readonly caGiven: boolean,
    /** For a pin mismatch: the pinned and the presented fingerprints. */
    readonly pin: { expected: string; actual: string | null } | null,
    options?: { cause?: unknown; problem?: TlsProblem },
  ) {
    super(reason, baseUrl, detail, timeoutMs, options);
    this.problem = reason === 'pin-mismatch' ? 'pin-changed' : (options?.problem ?? 'other');
  }
}

/** Why a session login failed. */
export type LoginFailure =
  | 'no-password'
  | 'second-factor-needed'
  | 'second-factor-refused'
  | 'refused'
  | 'locked-out'
  | 'password-change'
  | 'unknown-answer'
  | 'banner'
  | 'banner-not-taken'
  | 'no-cookie'
  | 'http-status'
  | 'blocked';

/** The device refused a session login, or answered it in a way that is not a login. */
export class LoginError extends CmdbApiError {
  constructor(
    readonly reason: LoginFailure,
    readonly username: string,
    /** HTTP status where it matters: 429 (blocked), 401, or the status of an unexpected answer. */
    readonly status: number | null = null,
    readonly retryAfter: number | null = null,
  ) {
    super(`login of ${username}: ${reason}${status !== null ? ` (HTTP ${status})` : ''}`);
  }
}

/** A request the client refuses to send. */
export class RequestError extends CmdbApiError {
  constructor(
    readonly reason: 'delete-without-key' | 'invalid-address' | 'invalid-path',
    /** The table path, the address that does not parse, or the path that is not under the API root. */
    readonly target: string,
  ) {
    super(
      reason === 'delete-without-key'
        ? `refusing to send DELETE without a key to ${target}`
        : reason === 'invalid-path'
          ? `refusing to send a request to '${target}': not a path under /api/v2/`
          : `invalid device address '${target}'`,
    );
  }
}

/**
 * Whether a request may have been executed although no answer came: it went out and the connection
 * was then reset or timed out, or the answer broke off. A write that failed so must be read back.
 */
export function outcomeUnknown(err: unknown): boolean {
  if (err instanceof MalformedAnswerError) return err.malformation === 'truncated';
  return (
    err instanceof ConnectionError && (err.reason === 'reset' || err.reason === 'timeout' || err.reason === 'other')
  );
}
