/** Exit codes of CLI.md: a contract scripts depend on. */
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
} as const;

/**
 * The CLI's own errors: every failure the CLI itself raises carries its exit code and hint. The api
 * layer's errors carry data instead, turned into words and exit codes by src/cli/hints.ts.
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
