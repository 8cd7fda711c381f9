/** Exit codes of CLI.md; every error the tool raises carries one. */
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
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];

/** The one error hierarchy: every failure a user can see is a CmdbError with an exit code and a hint. */
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

/** Bad input: nothing was sent. */
export class UsageError extends CmdbError {
  constructor(message: string, hint: string | null = null) {
    super(message, EXIT.USAGE, hint);
  }
}

/** The device could not be reached (DNS, refused, timeout, TLS). */
export class ConnectionError extends CmdbError {
  constructor(message: string, hint: string | null = null, options?: { cause?: unknown }) {
    super(message, EXIT.UNREACHABLE, hint, options);
  }
}

/** No usable credential, or the device refused the login. */
export class AuthError extends CmdbError {
  readonly status: number | null;
  constructor(message: string, hint: string | null = null, status: number | null = null) {
    super(message, status === 429 ? EXIT.BLOCKED : EXIT.AUTH, hint);
    this.status = status;
  }
}

/** What the request was about, in the user's terms, for messages. */
export interface RequestSubject {
  method: string;
  tablePath?: string;
  mkey?: string | number;
  vdoms?: string[];
  group?: string;
}

/** A device answer that was not a success. */
export class ApiError extends CmdbError {
  readonly status: number;
  readonly code: number | null;
  readonly cliError: string | null;
  readonly subject: RequestSubject;
  constructor(status: number, code: number | null, cliError: string | null, subject: RequestSubject, message: string, hint: string | null) {
    super(message, exitCodeFor(status, code), hint);
    this.status = status;
    this.code = code;
    this.cliError = cliError;
    this.subject = subject;
  }
}

/** Where the device's body names the failure class, it decides over the HTTP status (CLI.md). */
export function exitCodeFor(status: number, code: number | null): number {
  if (code === -5 || code === -15) return EXIT.REJECTED;
  if (code === -3) return EXIT.NOT_FOUND;
  if (code === -14 || code === -37) return EXIT.FORBIDDEN;
  if (status === 401) return EXIT.AUTH;
  if (status === 403) return EXIT.FORBIDDEN;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status === 429) return EXIT.BLOCKED;
  if (status >= 500) return EXIT.DEVICE;
  if (status >= 400) return EXIT.REJECTED;
  return EXIT.INTERNAL;
}

/** The machine-readable view of any error (status/code null when the device was not reached). */
export function errorReport(err: unknown): { exit: number; status: number | null; code: number | null; message: string; hint: string | null; cliError: string | null } {
  if (err instanceof ApiError) {
    return { exit: err.exitCode, status: err.status, code: err.code, message: err.message, hint: err.hint, cliError: err.cliError };
  }
  if (err instanceof AuthError) {
    return { exit: err.exitCode, status: err.status, code: null, message: err.message, hint: err.hint, cliError: null };
  }
  if (err instanceof CmdbError) {
    return { exit: err.exitCode, status: null, code: null, message: err.message, hint: err.hint, cliError: null };
  }
  const message = err instanceof Error ? err.message : String(err);
  return { exit: EXIT.INTERNAL, status: null, code: null, message: `internal error: ${message}`, hint: 'run again with --verbose for details, and report it if it persists', cliError: null };
}
