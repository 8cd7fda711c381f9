import { ApiError, type RequestSubject } from '../errors.js';
import type { Envelope, RawResponse } from './client.js';

/** Meanings of the device's `error` codes (PROTOCOL.md), for when it sends no `cli_error`. */
const ERROR_CODES: Record<number, string> = {
  [-1]: 'invalid length',
  [-3]: 'entry not found',
  [-5]: 'a duplicate entry already exists',
  [-8]: 'invalid IP address',
  [-9]: 'invalid netmask',
  [-14]: 'permission denied',
  [-15]: 'a duplicate entry already exists',
  [-23]: 'the entry is in use by other objects',
  [-37]: 'permission denied',
  [-50]: 'invalid format',
  [-72]: 'value too long',
  [-651]: 'invalid value',
};

/** `Retry-After` as seconds (a number or an HTTP date), or null when the device did not say. */
export function retryAfterSeconds(res: Pick<RawResponse, 'headers'>): number | null {
  const header = res.headers['retry-after'];
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return null;
  const seconds = /^\d+$/.test(value.trim()) ? Number(value) : Math.ceil((Date.parse(value) - Date.now()) / 1000);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : null;
}

export function waitText(seconds: number | null): string {
  return seconds ? `try again in ${seconds} seconds` : 'try again in a few minutes';
}

const VERB: Record<string, string> = { GET: 'read', POST: 'create', PUT: 'update', DELETE: 'delete' };

function target(s: RequestSubject): string {
  const table = s.tablePath || 'the CMDB';
  return s.mkey === undefined ? table : `${table} ${JSON.stringify(String(s.mkey))}`;
}

function inVdom(s: RequestSubject): string {
  return s.vdoms?.length ? ` in vdom ${s.vdoms.join(',')}` : '';
}

function codeText(code: number | null): string | null {
  return code === null ? null : (ERROR_CODES[code] ?? null);
}

/**
 * Builds the ApiError for a device answer, in the user's terms: which table, which key, which VDOM,
 * the device's own words, and what to do next.
 */
export function describeApiError(status: number, envelope: Envelope | undefined, subject: RequestSubject, authKind: string, retryAfter: number | null = null): ApiError {
  const code = typeof envelope?.error === 'number' ? envelope.error : null;
  const cliError = typeof envelope?.cli_error === 'string' && envelope.cli_error.trim() ? envelope.cli_error.trim() : null;
  const what = target(subject);
  const where = inVdom(subject);
  const verb = VERB[subject.method] ?? subject.method;
  const detail = codeText(code);
  const make = (message: string, hint: string | null) => new ApiError(status, code, cliError, subject, message, hint);

  if (code === -5 || code === -15) {
    return make(`${what} already exists${where}`, `choose another key, or change the existing object with 'cmdb update ${subject.tablePath} ${subject.mkey ?? '<key>'}'`);
  }
  if (code === -3 || status === 404) {
    return make(`${what} not found${where}`, subject.mkey === undefined
      ? 'the device does not have this table (check the path with cmdb tables), or the VDOM does not exist'
      : `list the existing keys with 'cmdb list ${subject.tablePath}${subject.vdoms ? ` --vdom ${subject.vdoms.join(',')}` : ''}'`);
  }
  if (code === -23) {
    return make(`cannot ${verb} ${what}${where}: it is in use by other objects`, `find the references with 'cmdb get ${subject.tablePath} ${subject.mkey ?? '<key>'} --with-meta' (q_ref) and remove them first`);
  }
  if (status === 401) {
    return make(`not authenticated to the device (${verb} ${what})`, authKind === 'token'
      ? 'the API token was refused: check it, and that this address is one of the API administrator\'s trusted hosts'
      : authKind === 'session'
        ? "the session was refused: log in again with 'cmdb login'"
        : "log in with 'cmdb login --host <url> --token-stdin', or set CMDB_TOKEN");
  }
  if (status === 403 || code === -14 || code === -37) {
    const csrf = authKind === 'session' && subject.method !== 'GET' && !cliError && code === null;
    const group = subject.group && subject.group !== 'unknown' ? `the '${subject.group}' access group` : 'the access group of this table';
    return make(`permission denied: cannot ${verb} ${what}${where}`, csrf
      ? 'the device refused the write; the session\'s CSRF token may be stale: log in again with \'cmdb login\''
      : `the administrator's access profile needs ${group}${subject.method === 'GET' ? ' (read)' : ' (read-write)'}${where ? ' and access to that VDOM' : ''}`);
  }
  if (status === 429) {
    return make(`the device has temporarily blocked this address after too many failed logins; ${waitText(retryAfter)}`, 'do not retry in a loop: check the credential first (cmdb auth status)');
  }
  if (status === 405) {
    return make(`the device does not allow ${subject.method} on ${what}`, `see which operations the table has with 'cmdb tables'`);
  }
  if (status === 413) {
    return make(`the request to ${verb} ${what} is too large for the device`, 'send fewer objects per request (create -f with an array sends one request per object)');
  }
  if (status === 400) {
    return make(`the device refused the request to ${verb} ${what}${where} as invalid${detail ? `: ${detail}` : ''}`, 'check the options: an action the operation does not support is refused');
  }
  if (status >= 500) {
    return make(`the device failed to ${verb} ${what}${where} (HTTP ${status}${detail ? `: ${detail}` : ''})`, 'the device failed, not the request: try again, and if it persists check the device\'s event log');
  }
  return make(`the device rejected the request to ${verb} ${what}${where}${detail ? `: ${detail}` : ''} (HTTP ${status})`, `check the field values against 'cmdb schema ${subject.tablePath || '<table>'}'`);
}
