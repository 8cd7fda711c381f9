// The CLI's own errors and its exit codes, each with its meaning: the contract scripts depend on.
/** The exit codes: a contract scripts depend on (docs/reference.md lists them, generated from EXIT_MEANINGS). */
export const EXIT = {
  OK: 0,
  INTERNAL: 1,
  USAGE: 2,
  UNREACHABLE: 3,
  AUTH: 4,
  FORBIDDEN: 5,
  NOT_FOUND: 6,
  REJECTED: 7,
  BLOCKED: 8,
  DEVICE: 9,
  DIFFERENT: 10,
  INTERRUPTED: 130,
} as const;

/** What each exit code means, by its name in EXIT, for help, the man page and docs/reference.md. */
const EXIT_MEANINGS: Record<keyof typeof EXIT, string> = {
  OK: 'success (an empty list is success)',
  INTERNAL: 'unexpected internal error',
  USAGE:
    'usage error or invalid input (unknown option, missing argument, bad value), ' +
    'or a question on the terminal answered no (apply included); nothing was sent',
  UNREACHABLE: 'cannot reach the device: DNS, refused, timeout, TLS verification, pinned certificate mismatch',
  AUTH:
    'not authenticated: 401, no credential, login refused, no keychain; ' +
    'auth status when the credential does not work',
  FORBIDDEN: 'forbidden: 403 (missing access group or CSRF), no access to a VDOM',
  NOT_FOUND: 'not found: 404',
  REJECTED: 'request rejected: 400, 405, 413, 424 (duplicate, missing or invalid attribute)',
  BLOCKED:
    'temporarily blocked after failed logins: 429 (and a rate limit that outlasts five tries, and another cmdb ' +
    "process holding a shared file's lock longer than CMDB_LOCK_TIMEOUT)",
  DEVICE:
    "device error: 500 and other 5xx, and answers that are not the device's JSON: HTML, an empty body, a 204, a " +
    'body cut short, a redirect, JSON that is not an envelope, results that are not objects, data nested deeper ' +
    "than configuration, list --all paging that never advances, a 404 whose body is not the device's JSON",
  DIFFERENT: 'diff (and apply --dry-run): the device differs from the desired configuration',
  INTERRUPTED: 'interrupted (Ctrl-C, SIGINT): the run stops at once and says what it had done',
};

/** The exit codes in order, with their meaning. */
export const EXIT_CODES: readonly (readonly [number, string])[] = Object.entries(EXIT_MEANINGS)
  .map(([name, meaning]) => [EXIT[name as keyof typeof EXIT], meaning] as const)
  .sort((a, b) => a[0] - b[0]);

/**
 * The CLI's own errors: every failure the CLI itself raises carries its exit code and hint. The api
 * layer's errors carry data instead, turned into words and exit codes by src/run/hints.ts.
 */
export class CmdbError extends Error {
  readonly exitCode: number;
  readonly hint: string | null;
  constructor(message: string, exitCode: number, hint: string | null = null, options?: { cause?: unknown }) {
    super(message, options);
    this.name = new.target.name;
    this.exitCode = exitCode;
    this.hint = hint;
  }
}

/**
 * A write whose outcome is not what was asked: `unknown` (its answer was lost and reading back did not
 * show it applied), or `not_applied` (it never reached the device, or a lost commit was aborted).
 */
export class WriteOutcomeError extends CmdbError {
  /** Refused before it reached the device: shown as its cause is, with the outcome. */
  notSent = false;

  constructor(
    message: string,
    hint: string,
    readonly outcome: 'not_applied' | 'unknown',
    options?: { cause?: unknown },
  ) {
    super(message, EXIT.UNREACHABLE, hint, options);
  }

  /** A write whose request provably never reached the device (refused, no connection made). */
  static notSent(cause: unknown): WriteOutcomeError {
    const err = new WriteOutcomeError(cause instanceof Error ? cause.message : String(cause), '', 'not_applied', {
      cause,
    });
    err.notSent = true;
    return err;
  }
}

/** Bad input: nothing was sent. */
export class UsageError extends CmdbError {
  constructor(message: string, hint: string | null = null) {
    super(message, EXIT.USAGE, hint);
  }
}

/** No usable credential (none given, none saved, the keychain unusable). */
export class AuthError extends CmdbError {
  constructor(message: string, hint: string | null = null) {
    super(message, EXIT.AUTH, hint);
  }
}
