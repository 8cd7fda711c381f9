// The emulated device's HTTP front: lockout, entity size, the login pages, then the authenticated
// JSON API; every request recorded as received.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Api } from './api.js';
import type { Authenticator, LoginAnswer } from './login.js';
import { errorEnvelope, fail, htmlErrorPage } from './envelope.js';
import { flatHeaders, parseCookies, readBody, sendHtml, sendJson, sendText, splitTarget } from './http.js';
import { parseLenientJson } from './lenient-json.js';

const AUTHENTICATION_PATH = '/api/v2/authentication';

/** The CSRF token as clients send it back: with or without the cookie's double quotes. */
function unquote(value: string | string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim().replace(/^"(.*)"$/, '$1');
}

/** A request as the device received it (what tests and `RunningEmulator.requests` look at). */
export interface ReceivedRequest {
  method: string;
  /** Pathname as received, still percent-encoded. */
  path: string;
  /** Raw query string without '?'. */
  query: string;
  headers: Record<string, string>;
  body: string;
}

export interface HttpFrontDeps {
  auth: Authenticator;
  api: Api;
  maxBodyBytes: number;
  /** Where every request is recorded, or null not to record (a long-running emulator). */
  requests: ReceivedRequest[] | null;
}

const WRITE_METHODS = new Set(['POST', 'PUT', 'DELETE']);

interface Exchange {
  req: IncomingMessage;
  res: ServerResponse;
  method: string;
  path: string;
  query: string;
  body: string;
  source: string;
  cookies: Map<string, string>;
}

/** The device's HTTP front: lockout, entity size, the login pages, then the authenticated JSON API. */
export class HttpFront {
  constructor(private readonly deps: HttpFrontDeps) {}

  readonly handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const method = req.method ?? 'GET';
    const { path, query } = splitTarget(req.url);
    const record: ReceivedRequest = { method, path, query, headers: flatHeaders(req), body: '' };
    this.deps.requests?.push(record);
    try {
      const body = await readBody(req, this.deps.maxBodyBytes);
      record.body = body.text;
      if (res.destroyed) return;
      const exchange: Exchange = {
        req,
        res,
        method,
        path,
        query,
        body: body.text,
        source: req.socket.remoteAddress ?? '',
        cookies: parseCookies(req.headers.cookie),
      };
      if (!this.refuseEarly(exchange, body.tooLarge)) this.route(exchange);
    } catch (error) {
      if (!res.headersSent)
        sendJson(
          res,
          500,
          errorEnvelope({ http_method: method }, fail.internal(error instanceof Error ? error.message : String(error))),
        );
    }
  };

  /** A blocked source gets 429 for anything; an oversized body 413 before it is looked at. */
  private refuseEarly(x: Exchange, tooLarge: boolean): boolean {
    const blocked = this.deps.auth.blockedFor(x.source);
    if (blocked > 0) {
      sendHtml(x.res, 429, htmlErrorPage(429, 'Too many failed login attempts. Please try again later.'), {
        'Retry-After': String(blocked),
      });
      return true;
    }
    if (tooLarge) {
      sendJson(x.res, 413, errorEnvelope({ http_method: x.method }, fail.tooLarge(this.deps.maxBodyBytes)), {
        Connection: 'close',
      });
      return true;
    }
    return false;
  }

  private route(x: Exchange): void {
    switch (x.path) {
      case '/logincheck':
        return this.loginPage(x, () => this.deps.auth.login(new URLSearchParams(x.body), x.cookies, x.source));
      case '/logindisclaimer':
        return this.loginPage(x, () => this.deps.auth.acceptDisclaimer(new URLSearchParams(x.body), x.cookies));
      case '/logout':
        return this.loginPage(x, () => this.deps.auth.logout(x.cookies), ['GET', 'POST']);
    }
    if (x.path === AUTHENTICATION_PATH) return this.authentication(x);
    if (x.path.startsWith('/api/')) return this.api(x);
    sendHtml(x.res, 404, htmlErrorPage(404, 'The requested page does not exist.'));
  }

  private loginPage(x: Exchange, answer: () => LoginAnswer | undefined, methods = ['POST']): void {
    if (!methods.includes(x.method))
      return sendHtml(x.res, 405, htmlErrorPage(405, `${x.path} accepts ${methods.join(', ')}`));
    const result = answer();
    if (!result) return sendHtml(x.res, 401, htmlErrorPage(401, 'No session waiting for this page.'));
    sendHtml(x.res, 200, result.body, result.cookies.length ? { 'Set-Cookie': result.cookies } : {});
  }

  /** `POST /api/v2/authentication` logs in (JSON in, JSON out), `DELETE` logs out. */
  private authentication(x: Exchange): void {
    if (x.method === 'DELETE') {
      const done = this.deps.auth.logout(x.cookies);
      return sendJson(x.res, 200, { status_code: 0, status_message: 'LOGOUT_SUCCESS' }, { 'Set-Cookie': done.cookies });
    }
    if (x.method !== 'POST') return sendHtml(x.res, 405, htmlErrorPage(405, `${x.path} accepts POST, DELETE`));
    let body: unknown;
    try {
      body = parseLenientJson(x.body);
    } catch {
      body = undefined;
    }
    if (!body || typeof body !== 'object' || Array.isArray(body))
      return sendJson(x.res, 400, { status_code: -1, status_message: 'LOGIN_FAILED' });
    const { cookies, ...answer } = this.deps.auth.apiLogin(body as Record<string, unknown>, x.source);
    sendJson(x.res, 200, answer, cookies.length ? { 'Set-Cookie': cookies } : {});
  }

  private api(x: Exchange): void {
    const accessToken = new URLSearchParams(x.query).get('access_token');
    const principal = this.deps.auth.authenticate(x.req.headers.authorization, x.cookies, x.source, accessToken);
    if (!principal) return sendHtml(x.res, 401, htmlErrorPage(401, 'Authentication required.'));
    if (
      principal.kind === 'session' &&
      WRITE_METHODS.has(x.method) &&
      unquote(x.req.headers['x-csrftoken']) !== principal.csrf
    ) {
      return sendHtml(x.res, 403, htmlErrorPage(403, 'Missing or invalid CSRF token.'));
    }
    const transactionId = x.req.headers['x-transaction-id'];
    const answer = this.deps.api.handle({
      method: x.method,
      path: x.path,
      params: new URLSearchParams(x.query),
      body: x.body,
      contentType: x.req.headers['content-type'],
      transactionId: Array.isArray(transactionId) ? transactionId[0] : transactionId,
      principal,
    });
    if (answer.text !== undefined) sendText(x.res, answer.status, answer.text);
    else sendJson(x.res, answer.status, answer.body);
  }
}
