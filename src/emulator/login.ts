// Who may use the emulated device: administrators' sessions (`/logincheck`, `/api/v2/authentication`),
// API tokens, their access profiles, and the lockout after failed logins.
import { randomBytes, randomInt, timingSafeEqual } from 'node:crypto';

export interface EmulatorAdmin {
  username: string;
  password: string;
  groups?: string[] | 'all';
  vdoms?: string[] | '*';
  /** Login answers '3' until `token_code` matches. */
  twoFactorCode?: string;
  /** Login answers '4'. */
  mustChangePassword?: boolean;
  /** Login answers '2'. */
  lockedOut?: boolean;
}

export interface EmulatorToken {
  token: string;
  groups?: string[] | 'all';
  vdoms?: string[] | '*';
}

type Credential = EmulatorToken | EmulatorAdmin;

/** Who a request acts as, and what its profile grants. */
export interface Principal {
  name: string;
  kind: 'token' | 'session';
  groups: ReadonlySet<string> | 'all';
  vdoms: ReadonlySet<string> | '*';
  csrf: string | null;
}

type Stage = 'second-factor' | 'password-change' | 'disclaimer' | 'active';
interface Session {
  id: string;
  csrf: string;
  admin: EmulatorAdmin;
  stage: Stage;
  lastUsed: number;
}

export interface AuthConfig {
  admins: EmulatorAdmin[];
  tokens: EmulatorToken[];
  maxFailedLogins: number;
  blockSeconds: number;
  sessionTtlSeconds: number;
  disclaimer: boolean;
}

/** Answer of `/logincheck`: its first character is what clients read. */
export interface LoginAnswer {
  body: string;
  cookies: string[];
}

const LOGIN_BODY: Record<string, string> = {
  '0': '0document.location="/login?errmsg=1";\n',
  '1': '1document.location="/ng/";\n',
  '2': '2document.location="/login?errmsg=locked";\n',
  '3': '3<html><body><form action="/logincheck" method="post">token_code</form></body></html>\n',
  '4': '4document.location="/ng/prompt?viewOnly&redir=%2Fng%2Fpassword";\n',
  disclaimer: '1document.location="/logindisclaimer";\n',
};

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function principalOf(name: string, kind: Principal['kind'], credential: Credential, csrf: string | null): Principal {
  const groups = credential.groups ?? 'all';
  const vdoms = credential.vdoms ?? '*';
  return {
    name,
    kind,
    csrf,
    groups: groups === 'all' ? 'all' : new Set(groups),
    vdoms: vdoms === '*' ? '*' : new Set(vdoms),
  };
}

/**
 * Sessions, API tokens and the failed-login lockout. Failed logins and
 * requests with an unknown API token both count as failed authentications of
 * their source address.
 */
export class Authenticator {
  private readonly sessions = new Map<string, Session>();
  private readonly failures = new Map<string, { count: number; blockedUntil: number }>();
  readonly sessionCookie: string;
  /** The CSRF token's cookies: one with the session cookie's number, one without (both carry the same token). */
  readonly csrfCookies: readonly string[];

  constructor(
    private readonly config: AuthConfig,
    private readonly clock: () => number = Date.now,
  ) {
    const suffix = randomInt(1_000_000_000, 9_999_999_999);
    this.sessionCookie = `APSCOOKIE_${suffix}`;
    this.csrfCookies = [`ccsrftoken_${suffix}`, 'ccsrftoken'];
  }

  /** Seconds the source is still blocked for (0: not blocked). */
  blockedFor(source: string): number {
    const entry = this.failures.get(source);
    const left = entry ? entry.blockedUntil - this.clock() : 0;
    return left > 0 ? Math.ceil(left / 1000) : 0;
  }

  private recordFailure(source: string): void {
    const entry = this.failures.get(source) ?? { count: 0, blockedUntil: 0 };
    entry.count++;
    if (entry.count >= this.config.maxFailedLogins) {
      entry.count = 0;
      entry.blockedUntil = this.clock() + this.config.blockSeconds * 1000;
    }
    this.failures.set(source, entry);
  }

  /** A cookie as the device sets it: the value in double quotes, `path=/`. */
  private cookie(name: string, value: string, httpOnly: boolean): string {
    return `${name}="${value}"; path=/${httpOnly ? '; HttpOnly' : ''}`;
  }

  private expiredCookie(name: string): string {
    return `${name}="0%260"; path=/; expires=Thu, 01 Jan 1970 00:00:01 GMT`;
  }

  /** The session id a request carries: the session cookie's value, with or without its quotes. */
  private sessionIdOf(cookies: Map<string, string>): string | undefined {
    return cookies.get(this.sessionCookie)?.replace(/^"(.*)"$/, '$1');
  }

  private sessionOf(cookies: Map<string, string>): Session | undefined {
    const id = this.sessionIdOf(cookies);
    const session = id === undefined ? undefined : this.sessions.get(id);
    if (session && this.clock() - session.lastUsed > this.config.sessionTtlSeconds * 1000) {
      this.sessions.delete(session.id);
      return undefined;
    }
    return session;
  }

  private open(admin: EmulatorAdmin, stage: Stage): Session {
    const session: Session = {
      id: randomBytes(24).toString('base64url'),
      csrf: randomBytes(16).toString('hex'),
      admin,
      stage,
      lastUsed: this.clock(),
    };
    this.sessions.set(session.id, session);
    return session;
  }

  private sessionCookieOf(session: Session): string {
    return this.cookie(this.sessionCookie, session.id, true);
  }

  /** Moves a session past the second factor: to the banner, or straight in. */
  private admit(session: Session, source: string): LoginAnswer {
    session.stage = this.config.disclaimer ? 'disclaimer' : 'active';
    session.lastUsed = this.clock();
    this.failures.delete(source);
    return {
      body: this.config.disclaimer ? LOGIN_BODY.disclaimer : LOGIN_BODY['1'],
      cookies: this.loginCookies(session),
    };
  }

  /**
   * What a 6.4 device sets with a successful login (PROTOCOL.md, a captured answer): the session
   * cookie, the quoted CSRF token under `ccsrftoken_<n>` and `ccsrftoken`, and the expired `rl`
   * cookie, which the vendor's Ansible plugin needs to see (a cookie that is neither of the others) to
   * keep its cookie header.
   */
  private loginCookies(session: Session): string[] {
    return [
      this.sessionCookieOf(session),
      ...this.csrfCookies.map((name) => this.cookie(name, session.csrf, false)),
      'rl=;expires=Thu, 01 Jan 1970 00:00:01 GMT;path=/',
    ];
  }

  private refuse(source: string): LoginAnswer {
    this.recordFailure(source);
    return { body: LOGIN_BODY['0'], cookies: [] };
  }

  private secondFactor(session: Session, code: string, source: string): LoginAnswer {
    if (session.admin.twoFactorCode !== undefined && sameSecret(code, session.admin.twoFactorCode))
      return this.admit(session, source);
    this.sessions.delete(session.id);
    return this.refuse(source);
  }

  /** `POST /logincheck` with `username`, `secretkey`, `ajax=1` and, for a second factor, `token_code`. */
  login(form: URLSearchParams, cookies: Map<string, string>, source: string): LoginAnswer {
    const code = form.get('token_code');
    const pending = this.sessionOf(cookies);
    if (pending?.stage === 'second-factor' && code !== null) return this.secondFactor(pending, code, source);
    const admin = this.config.admins.find(
      (a) => a.username === form.get('username') && sameSecret(form.get('secretkey') ?? '', a.password),
    );
    if (!admin) return this.refuse(source);
    if (admin.lockedOut) return { body: LOGIN_BODY['2'], cookies: [] };
    if (admin.mustChangePassword)
      return { body: LOGIN_BODY['4'], cookies: [this.sessionCookieOf(this.open(admin, 'password-change'))] };
    const session = this.open(admin, 'second-factor');
    if (admin.twoFactorCode === undefined) return this.admit(session, source);
    if (code !== null) return this.secondFactor(session, code, source);
    return { body: LOGIN_BODY['3'], cookies: [this.sessionCookieOf(session)] };
  }

  /** `POST /logindisclaimer`: `confirm=1` accepts the banner, anything else ends the session. */
  acceptDisclaimer(form: URLSearchParams, cookies: Map<string, string>): LoginAnswer | undefined {
    const session = this.sessionOf(cookies);
    if (session?.stage !== 'disclaimer') return undefined;
    if (form.get('confirm') !== '1') return this.logout(cookies);
    session.stage = 'active';
    session.lastUsed = this.clock();
    return { body: LOGIN_BODY['1'], cookies: [] };
  }

  /**
   * `POST /api/v2/authentication` (6.4.2 and later): the login as JSON, its
   * result as `status_code` (5 success, -1 failed, -4 locked out, 3 a second
   * factor is needed, 4 password change, 2 the banner must be acknowledged),
   * the same cookies as `/logincheck` on success.
   */
  apiLogin(
    body: Record<string, unknown>,
    source: string,
  ): { status_code: number; status_message: string; cookies: string[] } {
    const text = (name: string) =>
      typeof body[name] === 'string'
        ? (body[name] as string)
        : typeof body[name] === 'number'
          ? String(body[name])
          : '';
    const admin = this.config.admins.find(
      (a) => a.username === text('username') && sameSecret(text('secretkey'), a.password),
    );
    const answer = (status_code: number, status_message: string, cookies: string[] = []) => ({
      status_code,
      status_message,
      cookies,
    });
    if (!admin) {
      this.recordFailure(source);
      return answer(-1, 'LOGIN_FAILED');
    }
    if (admin.lockedOut) return answer(-4, 'LOGIN_LOCKED_OUT');
    if (admin.mustChangePassword) return answer(4, 'LOGIN_PASSWORD_CHANGE_REQUIRED');
    if (admin.twoFactorCode !== undefined) {
      if (!text('token_code')) return answer(3, 'LOGIN_TOKEN_CODE_REQUIRED');
      if (!sameSecret(text('token_code'), admin.twoFactorCode)) {
        this.recordFailure(source);
        return answer(-1, 'LOGIN_FAILED');
      }
    }
    const acknowledged = body.ack_pre_disclaimer === true || body.ack_post_disclaimer === true;
    if (this.config.disclaimer && !acknowledged) return answer(2, 'LOGIN_DISCLAIMER_NOT_ACKNOWLEDGED');
    const session = this.open(admin, 'active');
    this.failures.delete(source);
    return answer(5, 'LOGIN_SUCCESS', this.loginCookies(session));
  }

  logout(cookies: Map<string, string>): LoginAnswer {
    const id = this.sessionIdOf(cookies);
    if (id !== undefined) this.sessions.delete(id);
    return {
      body: '<html><body>logged out</body></html>\n',
      cookies: [this.sessionCookie, ...this.csrfCookies].map((name) => this.expiredCookie(name)),
    };
  }

  expireAll(): void {
    this.sessions.clear();
  }

  /**
   * The principal of an API request: `Authorization: Bearer <token>`, the
   * `access_token` query parameter (6.4 still takes it; later firmware
   * refuses it by default), or an active session cookie.
   */
  authenticate(
    authorization: string | undefined,
    cookies: Map<string, string>,
    source: string,
    accessToken: string | null = null,
  ): Principal | undefined {
    if (authorization !== undefined || accessToken !== null) {
      const given =
        authorization !== undefined ? (/^Bearer\s+(\S+)\s*$/i.exec(authorization)?.[1] ?? '') : accessToken!;
      const token = this.config.tokens.find((t) => sameSecret(given, t.token));
      if (!token) this.recordFailure(source);
      return token && principalOf('api-token', 'token', token, null);
    }
    const session = this.sessionOf(cookies);
    if (session?.stage !== 'active') return undefined;
    session.lastUsed = this.clock();
    return principalOf(session.admin.username, 'session', session.admin, session.csrf);
  }
}
