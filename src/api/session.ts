// A session login (POST /logincheck, a cookie and a CSRF token): the login's answers in all their
// forms (second factor, banner, lockout), the session kept between runs, and the logout.
import { retryAfterSeconds, type Authenticator, type CmdbClient, type RawResponse } from './client.js';
import { LoginError, MalformedAnswerError } from './errors.js';

/** What a session is, to keep it between runs: the cookies as the device set them. */
export interface SessionState {
  cookies: Record<string, string>;
}

export interface SessionOptions {
  username: string;
  /** The password, asked for only when a login is needed (from the keychain, the environment or a prompt). */
  password: () => Promise<string | null>;
  /** A session saved by an earlier run, reused instead of logging in. */
  state?: SessionState | null;
  /** The second-factor code when the device asks for one; null when none can be had (no terminal). */
  tokenCode?: () => Promise<string | null>;
  /** Whether to accept the device's login banner; false (the default) refuses it. */
  acceptDisclaimer?: () => Promise<boolean>;
  /** Called after each successful login with the new state (and the client that logged in), to persist it. */
  onLogin?: (state: SessionState, client: CmdbClient) => Promise<void>;
  /**
   * Runs a login so that only one process at a time logs in to this device (a lock shared by every
   * run on the machine). Inside it, `saved` is asked first: a session another run saved meanwhile is
   * used instead of logging in again, so N runs at once open one session, not N.
   */
  exclusive?: <T>(work: () => Promise<T>) => Promise<T>;
  /** The session saved now (by this run or another), read inside `exclusive`. */
  saved?: () => Promise<SessionState | null>;
}

function sameCookies(a: SessionState | null, b: SessionState | null): boolean {
  return JSON.stringify(a?.cookies ?? null) === JSON.stringify(b?.cookies ?? null);
}

/** The CSRF cookie: `ccsrftoken`, `ccsrftoken_<port>` or `ccsrf_token_<port>_<hash>` (match by prefix). */
const CSRF_COOKIE = /^ccsrf_?token/i;
const FORM = 'application/x-www-form-urlencoded';

interface LoginAnswer {
  /** First character of the body: `1` in, `0` refused, `2` locked out, `3` second factor, `4` password change. */
  code: string;
  banner: boolean;
}

export function serializeSession(state: SessionState): string {
  return JSON.stringify({ v: 1, cookies: state.cookies });
}

/** A saved session, or null when there is none or it cannot be read (then the CLI logs in again). */
export function parseSession(text: string | null): SessionState | null {
  if (!text) return null;
  try {
    const parsed = JSON.parse(text) as { v?: number; cookies?: unknown };
    if (parsed.v !== 1 || !parsed.cookies || typeof parsed.cookies !== 'object') return null;
    const cookies = Object.fromEntries(
      Object.entries(parsed.cookies).filter(([, v]) => typeof v === 'string'),
    ) as Record<string, string>;
    return Object.keys(cookies).length ? { cookies } : null;
  } catch {
    return null;
  }
}

function isExpired(attributes: string[]): boolean {
  for (const attribute of attributes) {
    const [name, ...rest] = attribute.split('=');
    const value = rest.join('=').trim();
    if (/^max-age$/i.test(name.trim()) && Number(value) <= 0) return true;
    if (/^expires$/i.test(name.trim()) && Date.parse(value) <= Date.now()) return true;
  }
  return false;
}

/**
 * Session login in the device's dialect (PROTOCOL.md): `POST /logincheck`, the first-character answer,
 * the second factor, the login banner, the cookies and the CSRF token sent as `X-CSRFTOKEN`.
 * The state can be exported and imported, so the CLI keeps one session across runs.
 */
export class SessionAuth implements Authenticator {
  readonly kind = 'session' as const;
  private readonly cookies: Map<string, string>;
  private loggingIn: Promise<void> | undefined;
  private relogin: Promise<boolean> | undefined;
  /** A refused login: never tried again in this run (failed logins lead to a block). */
  private refused: LoginError | undefined;

  constructor(private readonly options: SessionOptions) {
    this.cookies = new Map(Object.entries(options.state?.cookies ?? {}));
  }

  get username(): string {
    return this.options.username;
  }

  exportState(): SessionState | null {
    return this.cookies.size ? { cookies: Object.fromEntries(this.cookies) } : null;
  }

  /** The CSRF cookie's value without its double quotes. */
  csrfToken(): string | null {
    let token: string | null = null;
    for (const [name, value] of this.cookies) if (CSRF_COOKIE.test(name)) token = value.replace(/^"(.*)"$/, '$1');
    return token;
  }

  async headers(client: CmdbClient): Promise<Record<string, string>> {
    if (!this.cookies.size) await this.login(client);
    return this.sessionHeaders();
  }

  /** A 401: the session expired or was ended; log in again, once per run, with the stored password. */
  async refresh(client: CmdbClient): Promise<boolean> {
    this.relogin ??= this.login(client).then(() => true);
    return this.relogin;
  }

  /** Logs in (one exchange at a time, however many requests wait for it). */
  login(client: CmdbClient): Promise<void> {
    this.loggingIn ??= this.exchange(client).finally(() => {
      this.loggingIn = undefined;
    });
    return this.loggingIn;
  }

  /** Ends the session on the device (`POST /logout`); false when there was none. */
  async logout(client: CmdbClient): Promise<boolean> {
    if (!this.cookies.size) return false;
    const headers = { ...this.sessionHeaders(), 'content-type': FORM };
    try {
      const res = await client.send({ method: 'POST', path: '/logout', headers, body: '' });
      return res.status < 400;
    } finally {
      this.cookies.clear();
    }
  }

  private sessionHeaders(): Record<string, string> {
    const headers: Record<string, string> = {
      cookie: [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; '),
    };
    const csrf = this.csrfToken();
    if (csrf) headers['x-csrftoken'] = csrf;
    return headers;
  }

  private takeCookies(res: RawResponse): void {
    const header = res.headers['set-cookie'];
    for (const line of Array.isArray(header) ? header : header ? [header] : []) {
      const [pair, ...attributes] = line.split(';');
      const at = pair.indexOf('=');
      if (at <= 0) continue;
      const name = pair.slice(0, at).trim();
      const value = pair.slice(at + 1).trim();
      if (!value || value === '""' || isExpired(attributes)) this.cookies.delete(name);
      else this.cookies.set(name, value);
    }
  }

  private async post(client: CmdbClient, path: string, form: Record<string, string>): Promise<RawResponse> {
    const headers = {
      ...(this.cookies.size ? this.sessionHeaders() : {}),
      'content-type': FORM,
      accept: 'text/html, */*',
    };
    const res = await client.send({ method: 'POST', path, headers, body: new URLSearchParams(form).toString() });
    this.takeCookies(res);
    if (res.status === 429)
      throw this.refuse(new LoginError('blocked', this.options.username, 429, retryAfterSeconds(res)));
    return res;
  }

  private async logincheck(client: CmdbClient, form: Record<string, string>): Promise<LoginAnswer> {
    const res = await this.post(client, '/logincheck', { ...form, ajax: '1' });
    // Every device has its login page: a 404 there is something else answering at this address.
    if (res.status === 404)
      throw new MalformedAnswerError(
        'not-the-api',
        404,
        { method: 'POST', tablePath: '/logincheck' },
        `${client.baseUrl}/logincheck`,
      );
    if (res.status !== 200) {
      throw new LoginError('http-status', this.options.username, res.status);
    }
    return { code: res.body.charAt(0), banner: res.body.includes('/logindisclaimer') };
  }

  private refuse(error: LoginError): LoginError {
    this.refused = error;
    return error;
  }

  /** Logs in, or takes over the session another run saved while this one waited for its turn. */
  private async exchange(client: CmdbClient): Promise<void> {
    if (this.refused) throw this.refused;
    const { exclusive, saved } = this.options;
    if (!exclusive || !saved) return this.logincheckExchange(client);
    const had = this.exportState();
    return exclusive(async () => {
      const current = await saved();
      if (current && !sameCookies(current, had)) {
        this.cookies.clear();
        for (const [name, value] of Object.entries(current.cookies)) this.cookies.set(name, value);
        return;
      }
      await this.logincheckExchange(client);
    });
  }

  private async logincheckExchange(client: CmdbClient): Promise<void> {
    const username = this.options.username;
    const password = await this.options.password();
    if (password === null) throw new LoginError('no-password', username);
    this.cookies.clear();
    let answer = await this.logincheck(client, { username, secretkey: password });
    if (answer.code === '3') {
      const code = (await this.options.tokenCode?.()) ?? null;
      if (code === null) {
        throw new LoginError('second-factor-needed', username);
      }
      answer = await this.logincheck(client, { username, secretkey: password, token_code: code });
      if (answer.code === '0' || answer.code === '3') {
        throw this.refuse(new LoginError('second-factor-refused', username));
      }
    }
    this.checkAnswer(answer, username);
    if (answer.banner) await this.acceptBanner(client, username);
    if (!this.cookies.size) throw new LoginError('no-cookie', username);
    await this.options.onLogin?.({ cookies: Object.fromEntries(this.cookies) }, client);
  }

  private checkAnswer(answer: LoginAnswer, username: string): void {
    switch (answer.code) {
      case '1':
        return;
      case '0':
        throw this.refuse(new LoginError('refused', username));
      case '2':
        throw this.refuse(new LoginError('locked-out', username));
      case '4':
        throw this.refuse(new LoginError('password-change', username));
      default:
        if (answer.banner) return;
        throw new LoginError('unknown-answer', username);
    }
  }

  private async acceptBanner(client: CmdbClient, username: string): Promise<void> {
    if (!(await this.options.acceptDisclaimer?.())) {
      throw new LoginError('banner', username);
    }
    const res = await this.post(client, '/logindisclaimer', { confirm: '1', ajax: '1' });
    if (res.status !== 200) throw new LoginError('banner-not-taken', username, res.status);
  }
}
