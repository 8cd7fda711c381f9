// The one map from an error to what the user sees: its message, its hint and its exit code (CLI.md).
// The api layer's errors carry data only (src/api/errors.ts); the words and the advice are here.
import {
  ApiError,
  CmdbApiError,
  ConnectionError,
  LoginError,
  MalformedAnswerError,
  RequestError,
  TlsVerificationError,
  type RequestSubject,
} from '../api/errors.js';
import type { WriteTally } from '../api/client.js';
import { displayFingerprint } from '../api/fingerprint.js';
import { CmdbError, EXIT, WriteOutcomeError } from '../errors.js';
import { keysHint, shellWord, supports } from '../request/table.js';
import type { ErrorReport } from '../output/index.js';
import type { PartialOutput } from '../output/printer.js';

/**
 * The command line as typed, for a hint that gives a command to run again: its words, and the device
 * its -d and --host named (as typed, not from the environment).
 */
export interface TypedLine {
  words: readonly string[];
  device?: string;
  host?: string;
}

/** The machine-readable view of any error (status and code null when the device was not reached). */
export type Shown = Required<Omit<ErrorReport, 'device' | 'counts' | 'outcome'>> & Pick<ErrorReport, 'outcome'>;

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

function waitText(seconds: number | null): string {
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

/**
 * Codes of values the device's CLI layer refuses (invalid value, address, netmask, format, too long):
 * 6.4 answers them with HTTP 500, later firmware and the API layer with 424. Either way the request
 * was rejected, not the device broken.
 */
const VALUE_ERROR_CODES: ReadonlySet<number> = new Set([-651, -8, -9, -50, -72]);

const isValueError = (code: number | null) => code !== null && VALUE_ERROR_CODES.has(code);

/**
 * The refusals about references (CLI.md "References between tables", "Exit codes"): an object still
 * in use (-23), a value the CLI layer cannot parse (-651), a write naming an object the device lacks
 * (-3 with HTTP 500 to a POST or PUT) are requests rejected, whatever the HTTP status.
 */
function referenceExit(err: ApiError): number | undefined {
  if (err.code === -23 || err.code === -651 || err.missingReference) return EXIT.REJECTED;
  return undefined;
}

/** Where the device's body names the failure class, it decides over the HTTP status (CLI.md). */
function apiExit(status: number, code: number | null): number {
  if (code === -5 || code === -15) return EXIT.REJECTED;
  if (isValueError(code) && status >= 400) return EXIT.REJECTED;
  if (code === -3) return EXIT.NOT_FOUND;
  if (code === -14 || code === -37) return EXIT.FORBIDDEN;
  if (status === 401) return EXIT.AUTH;
  if (status === 403) return EXIT.FORBIDDEN;
  if (status === 404) return EXIT.NOT_FOUND;
  if (status === 429) return EXIT.BLOCKED;
  if (status >= 500) return EXIT.DEVICE;
  if (status >= 400) return EXIT.REJECTED;
  // An HTTP 200 whose envelope says "status":"error": the device refused; with no code, no telling why.
  return code === null ? EXIT.DEVICE : EXIT.REJECTED;
}

/** A device answer in the user's terms: which table, which key, which VDOM, and what to do next. */
function apiWords(err: ApiError): { message: string; hint: string | null } {
  const { status, code, cliError, subject, authKind } = err;
  const what = target(subject);
  const where = inVdom(subject);
  const verb = VERB[subject.method] ?? subject.method;
  const detail = code === null ? null : (ERROR_CODES[code] ?? null);
  const say = (message: string, hint: string | null) => ({ message, hint });

  const rawPath = subject.mkey === undefined && /^(monitor|log|cmdb|service)\//.test(subject.tablePath ?? '');
  if (code === -5 || code === -15) {
    const change =
      !rawPath && supports(subject.tablePath, 'U')
        ? `, or change the existing object with 'cmdb update ${subject.tablePath} ` +
          `${subject.mkey === undefined ? '<key>' : shellWord(subject.mkey)}'`
        : '';
    return say(`${what} already exists${where}`, `choose another key${change}`);
  }
  if (rawPath && status === 405)
    return say(
      `the device does not allow ${subject.method} on ${what}`,
      'this endpoint takes another method (-X GET, POST, PUT or DELETE): see the API reference of its release',
    );
  const refused = referenceWords(err);
  if (refused) return refused;
  if ((code === -3 || status === 404) && rawPath) {
    // A raw request (cmdb api): a path of any API tree.
    return say(
      `${what} not found${where}`,
      'the device has nothing at this path (check its spelling and the release), or the VDOM does not exist',
    );
  }
  if (code === -3 || status === 404) {
    return say(
      `${what} not found${where}`,
      subject.mkey === undefined
        ? 'the device does not have this table (check the path with cmdb tables), or the VDOM does not exist'
        : keysHint(subject.tablePath ?? '', subject.vdoms),
    );
  }
  if (status === 401) {
    return say(
      `not authenticated to the device (${verb} ${what})`,
      authKind === 'token'
        ? "the API token was refused: check it, and that this address is one of the API administrator's trusted hosts"
        : authKind === 'session'
          ? "the session was refused: log in again with 'cmdb login'"
          : "log in with 'cmdb login --host <url> --token-stdin', or set CMDB_TOKEN",
    );
  }
  if (code === -37 && subject.vdoms?.length) {
    // Devices answer a VDOM that does not exist as one the administrator may not use (403).
    const vdoms = subject.vdoms.filter((vdom) => vdom !== '*');
    const which =
      vdoms.length === 0
        ? 'no vdom is'
        : vdoms.length === 1
          ? `vdom ${vdoms[0]} does not exist or is`
          : `one of vdoms ${vdoms.join(', ')} does not exist or is`;
    return say(
      `permission denied: ${which} not accessible to this administrator (${verb} ${what})`,
      "check the VDOM name (VDOM names are case-sensitive), and that the administrator's access profile includes it",
    );
  }
  if (status === 403 || code === -14 || code === -37) {
    const csrf = authKind === 'session' && subject.method !== 'GET' && !cliError && code === null;
    const group =
      subject.group && subject.group !== 'unknown'
        ? `the '${subject.group}' access group`
        : 'the access group of this table';
    return say(
      `permission denied: cannot ${verb} ${what}${where}`,
      csrf
        ? "the device refused the write; the session's CSRF token may be stale: log in again with 'cmdb login'"
        : `the administrator's access profile needs ` +
            `${group}${subject.method === 'GET' ? ' (read)' : ' (read-write)'}` +
            `${where ? ' and access to that VDOM' : ''}`,
    );
  }
  if (status === 429 && err.tries > 1) {
    return say(
      `the device still refused ${verb === 'read' ? 'to read' : `to ${verb}`} ${what}${where} as too many ` +
        `requests (HTTP 429) after ${err.tries} tries`,
      'its rate limit is busy (other clients, monitoring): try again later, ' +
        'or send fewer requests at once (--concurrency)',
    );
  }
  if (status === 429) {
    return say(
      `the device has temporarily blocked this address (too many failed logins, or too many requests); ` +
        `${waitText(err.retryAfter)}`,
      'do not retry in a loop: check the credential first (cmdb auth status)',
    );
  }
  if (status === 405)
    return say(
      `the device does not allow ${subject.method} on ${what}`,
      `see which operations the table has with 'cmdb tables'`,
    );
  if (status === 413) {
    return say(
      `the request to ${verb} ${what} is too large for the device`,
      'send fewer objects per request (create -f with an array sends one request per object)',
    );
  }
  if (status === 400) {
    return say(
      `the device refused the request to ${verb} ${what}${where} as invalid${detail ? `: ${detail}` : ''}`,
      'check the options: an action the operation does not support is refused',
    );
  }
  if (status < 400) {
    return say(
      `the device refused to ${verb} ` +
        `${what}${where}${detail ? `: ${detail}` : code === null ? ', giving no error code' : ` (error ${code})`} ` +
        `(an error in an HTTP ${status} answer)`,
      code === null
        ? 'the device answered with an error it did not explain: try again, ' +
            "and if it persists check the device's event log"
        : `check the field values against 'cmdb schema ${subject.tablePath || '<table>'}'`,
    );
  }
  // 6.4 sends a value its CLI layer refuses as HTTP 500; the request was wrong, not the device.
  if (status >= 500 && !isValueError(code)) {
    return say(
      `the device failed to ${verb} ${what}${where} (HTTP ${status}${detail ? `: ${detail}` : ''})`,
      "the device failed, not the request: try again, and if it persists check the device's event log",
    );
  }
  return say(
    `the device rejected the request to ${verb} ${what}${where}${detail ? `: ${detail}` : ''} (HTTP ${status})`,
    `check the field values against 'cmdb schema ${subject.tablePath || '<table>'}'`,
  );
}

/** `cmdb refs <table> <key>` for a hint, with the VDOM asked when it was one (pasted, it asks the same). */
export function refsCommand(tablePath: string, key: string | number, vdoms?: readonly string[]): string {
  const vdom = vdoms?.length === 1 && vdoms[0] !== '*' ? ` --vdom ${shellWord(vdoms[0])}` : '';
  return `cmdb refs ${tablePath} ${shellWord(key)}${vdom}`;
}

/**
 * A refusal about references in words (CLI.md "References between tables"), before the command
 * explains it with what it reads (src/commands/common/refusals.ts): an object still in use (-23), a
 * write naming an object the device does not have (-3 with HTTP 500 to a POST or PUT).
 */
function referenceWords(err: ApiError): { message: string; hint: string | null } | undefined {
  const { subject } = err;
  const what = `${target(subject)}${inVdom(subject)}`;
  const verb = VERB[subject.method] ?? subject.method;
  if (err.code === -23)
    return {
      message: `cannot ${verb} ${what}: it is in use by other objects`,
      hint:
        subject.tablePath && subject.mkey !== undefined
          ? `see what uses it with '${refsCommand(subject.tablePath, subject.mkey, subject.vdoms)}' ` +
            'and remove those references first'
          : 'remove the references to it first',
    };
  if (err.missingReference)
    return {
      message: `cannot ${verb} ${what}: it names an object the device does not have`,
      hint: "the device's words name the value: create that object first, or name one the device has",
    };
  return undefined;
}

/**
 * The login that pins `fingerprint`, in the words the user typed: their own `cmdb login ...` line
 * again with --fingerprint; after another command, a login naming the same device (-d or --host).
 */
function pinCommand(typed: TypedLine | undefined, where: string, fingerprint: string): string {
  const pin = `--fingerprint ${fingerprint}`;
  const words = typed?.words;
  if (words?.includes('login')) {
    const kept = words.filter(
      (word, i) => word !== '--fingerprint' && words[i - 1] !== '--fingerprint' && !word.startsWith('--fingerprint='),
    );
    return `'cmdb ${[...kept.map(shellWord), pin].join(' ')}'`;
  }
  const { device, host } = typed ?? {};
  const naming =
    device !== undefined
      ? `-d ${shellWord(device)}${host !== undefined ? ` --host ${shellWord(host)}` : ''}`
      : `--host ${shellWord(host ?? where)}`;
  return `'cmdb login ${naming} --token-stdin ${pin}' (or --username <name> instead of --token-stdin)`;
}

/** A certificate that did not verify, in words: what is wrong with it, never OpenSSL's error string. */
function certificateProblem(err: TlsVerificationError): string {
  const cert = err.certificate;
  switch (err.problem) {
    case 'expired':
      return `the certificate expired${cert?.validTo ? ` (valid until ${cert.validTo})` : ''}`;
    case 'not-yet-valid':
      return `the certificate is not valid yet: check this computer's clock and the device's`;
    case 'self-signed':
      return `the certificate is self-signed: no authority vouches for it`;
    case 'wrong-name':
      return 'the certificate is for another name than the one connected to';
    case 'untrusted-issuer':
      return (
        `the certificate is signed by an authority this computer does ` +
        `not trust${err.caGiven ? ' (nor the --ca-file)' : ''}`
      );
    default:
      return 'the certificate does not verify';
  }
}

function connectionWords(err: ConnectionError, typed?: TypedLine): { message: string; hint: string | null } {
  const where = err.baseUrl;
  if (err instanceof TlsVerificationError) {
    const cert = err.certificate;
    if (err.problem === 'pin-changed') {
      const pin = err.pin!;
      const presented = pin.actual ?? cert?.fingerprint;
      return {
        message:
          `the certificate of ${where} does not match the pinned fingerprint: it changed, ` +
          `or something is intercepting the connection`,
        hint:
          `pinned ${displayFingerprint(pin.expected)}, presented ` +
          `${pin.actual ? displayFingerprint(pin.actual) : 'none'}; ` +
          `if the device's certificate was replaced on purpose, pin the new one with ` +
          `${pinCommand(typed, where, presented ? displayFingerprint(presented) : '<sha256>')}`,
      };
    }
    const shown = cert ? ` (SHA-256 ${displayFingerprint(cert.fingerprint)}, subject ${cert.subject})` : '';
    return {
      message: `TLS verification failed for ${where}: ${certificateProblem(err)}${shown}`,
      hint:
        err.problem === 'wrong-name'
          ? `connect with the name the certificate is for, or pin this certificate: ` +
            `${pinCommand(typed, where, cert ? displayFingerprint(cert.fingerprint) : '<sha256>')}`
          : err.caGiven
            ? `check the --ca-file, or pin the certificate: ` +
              `${pinCommand(typed, where, cert ? displayFingerprint(cert.fingerprint) : '<sha256>')}`
            : `trust the device's CA with --ca-file <pem>, or pin this certificate: ` +
              `${pinCommand(typed, where, cert ? displayFingerprint(cert.fingerprint) : '<sha256>')}`,
    };
  }
  switch (err.reason) {
    case 'dns':
      return {
        message: `cannot resolve the device's host name in ${where}`,
        hint: 'check the spelling of --host, CMDB_HOST or the profile, and your DNS',
      };
    case 'refused':
      return {
        message: `connection refused by ${where}`,
        hint: 'check the port and that administrative HTTPS access is enabled on that interface',
      };
    case 'unreachable':
      return { message: `no route to ${where}`, hint: 'check the address and your network' };
    case 'reset':
      // A wrong scheme is likely only when the device never answered; midway it dropped the connection.
      return err.answeredBefore
        ? {
            message: `the connection to ${where} was closed while the device was answering`,
            hint:
              'the device or the network path dropped it: try again; ' +
              'if it persists check the device and the path to it',
          }
        : {
            message: `the connection to ${where} was closed unexpectedly`,
            hint: 'is it an HTTPS port being spoken to in plain HTTP (or the reverse)?',
          };
    case 'timeout':
      return {
        message: `timed out: no complete answer from ${where} within ${Math.round(err.timeoutMs / 1000)}s`,
        hint: 'raise --timeout (or CMDB_TIMEOUT), or check that the device is reachable',
      };
    case 'tls-handshake':
      return {
        message: `TLS handshake with ${where} failed: ${err.detail}`,
        hint: 'is the scheme right (https:// vs http://)?',
      };
    default:
      return { message: `cannot reach ${where}: ${err.detail}`, hint: null };
  }
}

function loginWords(err: LoginError): { message: string; hint: string } {
  const username = err.username;
  switch (err.reason) {
    case 'blocked':
      return {
        message:
          `the device has blocked logins from this address after too many failed attempts; ` +
          `${waitText(err.retryAfter)}`,
        hint: 'do not retry in a loop: check the user name and password first',
      };
    case 'http-status':
      return {
        message: `the device answered the login with HTTP ${err.status}`,
        hint: 'check the address: /logincheck is the login page of the device, at the root of its HTTPS address',
      };
    case 'no-password':
      return { message: `no saved password for ${username}`, hint: "log in again with 'cmdb login --username <name>'" };
    case 'second-factor-needed':
      return {
        message: `the device asks for a second factor (token code) to log in ${username}`,
        hint: "give the code with 'cmdb login --token-code <code>', or log in on a terminal to be asked for it",
      };
    case 'second-factor-refused':
      return {
        message: `the device refused the second-factor code for ${username}`,
        hint: 'codes are valid for a short time: log in again with a fresh one',
      };
    case 'no-cookie':
      return {
        message: 'the device accepted the login but set no session cookie',
        hint: 'is this address the device itself, and not a proxy in front of it?',
      };
    case 'refused':
      return {
        message: `the device refused the login of ${username}: wrong user name or password`,
        hint: 'check them; after a few failed logins the device blocks this address for a while',
      };
    case 'locked-out':
      return {
        message: `the administrator account ${username} is locked out for a while after too many failed logins`,
        hint: 'wait for the lockout to expire (or ask another administrator to unlock it), then log in again',
      };
    case 'password-change':
      return {
        message: `the device requires a new password for ${username} before it accepts a login`,
        hint: "change it in the device's web interface or CLI, then log in again with the new password",
      };
    case 'unknown-answer':
      return {
        message: 'the device gave an answer to the login that cmdb does not know',
        hint: 'check that the address is the administrative HTTPS interface of a release 6.4 device',
      };
    case 'banner':
      return {
        message: `the device shows a login banner (disclaimer) that must be accepted before ${username} may use it`,
        hint:
          "read it in the device's web interface, then accept it with 'cmdb login --accept-disclaimer', " +
          'or CMDB_ACCEPT_DISCLAIMER=1 for a login from CMDB_USERNAME/CMDB_PASSWORD',
      };
    case 'banner-not-taken':
      return {
        message: `the device did not take the acceptance of its login banner (HTTP ${err.status})`,
        hint: 'log in again; if it persists, accept the banner once in the web interface',
      };
  }
}

/** An answer that is not the device's JSON, in words: what came, and where to look. */
function malformedWords(err: MalformedAnswerError): { message: string; hint: string } {
  const what = err.subject.tablePath || 'the request';
  const prefix =
    'check the address and the API prefix of the device profile (default /api/v2/cmdb): ' +
    'something other than the device may be answering';
  switch (err.malformation) {
    case 'not-json':
      return { message: `the device answered ${what} with a body that is not JSON (HTTP ${err.status})`, hint: prefix };
    case 'empty':
      return { message: `the device answered ${what} with no body (HTTP ${err.status})`, hint: prefix };
    case 'redirect':
      return {
        message: `the device answered ${what} with a redirect (HTTP ${err.status}), which the API never sends`,
        hint: 'a proxy or login portal may be in the way; check the address (https://, port) of the device',
      };
    case 'not-envelope':
      return { message: `the device answered ${what} with JSON that is not an API answer (no envelope)`, hint: prefix };
    case 'bad-results':
      return {
        message: `the device answered ${what} with results that are not objects`,
        hint: "the answer cannot be the table's data; check the firmware release (6.4) and the API prefix",
      };
    case 'too-deep':
      return {
        message: `the device answered ${what} with data nested too deeply to be configuration`,
        hint: "the answer cannot be the table's data; check what answers at this address",
      };
    case 'truncated':
      return {
        message: `the answer to ${what} broke off before its end`,
        hint: 'the connection was cut while the device answered: try again; if it persists check the network path',
      };
    case 'not-the-api':
      return {
        message:
          `this does not look like the device's API: ${err.url ?? what} answered HTTP 404 with a body that ` +
          `is not the device's JSON`,
        hint:
          'check the address (scheme, host, port) and the API prefix of the device profile (default ' +
          '/api/v2/cmdb): something other than the device answers there',
      };
    case 'no-progress':
      return {
        message:
          `list --all stopped: the device answered the same page again for a later start, ` +
          `so paging would never end`,
        hint: 'the device ignores start; read it in one request without --all (use --count), or check its firmware',
      };
  }
}

function requestWords(err: RequestError): { message: string; hint: string | null } {
  if (err.reason === 'invalid-address')
    return {
      message: `invalid device address '${err.target}'`,
      hint: 'use https://host[:port], for example https://fw.example:8443',
    };
  if (err.reason === 'invalid-path')
    return {
      message: `'${err.target}' is not a path under /api/v2/`,
      hint:
        'give a path such as monitor/system/status or /api/v2/cmdb/firewall/address; ' +
        'the device comes from -d or --host',
    };
  return { message: `refusing to send DELETE without a key to ${err.target}`, hint: null };
}

/** What a run that stopped midway had done: `after 26,950 rows; the output is incomplete`. */
export function partialWords(partial: PartialOutput): string {
  const after = partial.rows
    ? `after ${partial.rows.toLocaleString('en-US')} row${partial.rows === 1 ? '' : 's'}; `
    : '';
  if (!partial.printed) return `${after}nothing was printed`;
  if (!partial.cut) return `${after}the output printed is whole`;
  return (
    `${after}the output is incomplete` +
    `${partial.closed ? ' (the JSON array printed is closed, so it still parses)' : ''}`
  );
}

/** What a run had done when it was interrupted: its output, the files it wrote, the writes it sent. */
export interface InterruptedRun {
  partial: PartialOutput;
  /** The files written, when the command writes files (export --dir). */
  files?: string[];
  /** The writes sent and how they ended, when the command writes (or sent some anyway). */
  writes?: WriteTally;
}

/** `3 writes sent: 2 applied, 1 not answered yet: the device may still apply it; read ...`. */
function writesWords({ sent, applied, refused }: WriteTally): string {
  if (!sent) return 'no write was sent';
  const waiting = sent - applied - refused;
  const one = sent === 1;
  const counts = [
    [applied, 'applied'],
    [refused, 'refused'],
    [waiting, 'not answered yet'],
  ].filter(([n]) => n) as [number, string][];
  const all = counts.length === 1 ? counts[0][1] : undefined;
  const outcome =
    all === 'not answered yet'
      ? `${one ? '1 write sent, not answered yet' : `${sent} writes sent, none answered yet`}`
      : all
        ? `${sent} write${one ? '' : 's'} sent and ${all}`
        : `${sent} writes sent: ${counts.map(([n, word]) => `${n} ${word}`).join(', ')}`;
  return waiting
    ? `${outcome}: the device may still apply ${waiting === 1 ? 'it' : 'them'}; read the objects back to see`
    : outcome;
}

/** Ctrl-C: one line saying what was done, in words that fit the command (exit 130). */
export function interruptedReport(run: InterruptedRun): Shown {
  const { partial, files, writes } = run;
  const done: string[] = [];
  // What stdout holds: said for a read, and for a command that does more only when it printed some.
  if (partial.printed || (!files && !writes)) done.push(partialWords(partial));
  if (files) done.push(files.length ? `wrote ${files.join(', ')}; no other file was written` : 'no file was written');
  if (writes) done.push(writesWords(writes));
  const words = done.join('; ');
  return {
    exit: EXIT.INTERRUPTED,
    status: null,
    code: null,
    cliError: null,
    message: `interrupted${words.startsWith('after ') ? ' ' : ': '}${words}`,
    hint: null,
  };
}

/**
 * What the user sees of any error: the message, the hint and the exit code; never throws. `typed`:
 * the command line, for hints that give a command to run again (the pin of a certificate).
 */
export function describeError(err: unknown, typed?: TypedLine): Shown {
  const none = { status: null, code: null, cliError: null };
  if (err instanceof ApiError) {
    return {
      exit: referenceExit(err) ?? apiExit(err.status, err.code),
      status: err.status,
      code: err.code,
      cliError: err.cliError,
      ...apiWords(err),
    };
  }
  if (err instanceof MalformedAnswerError)
    return { exit: EXIT.DEVICE, ...none, status: err.status, ...malformedWords(err) };
  if (err instanceof ConnectionError) return { exit: EXIT.UNREACHABLE, ...none, ...connectionWords(err, typed) };
  if (err instanceof LoginError) {
    const status = err.reason === 'blocked' ? 429 : err.reason === 'http-status' && err.status === 401 ? 401 : null;
    return { exit: status === 429 ? EXIT.BLOCKED : EXIT.AUTH, ...none, status, ...loginWords(err) };
  }
  if (err instanceof RequestError) return { exit: EXIT.USAGE, ...none, ...requestWords(err) };
  // A write that never reached the device: what stopped it, and that it was not applied.
  if (err instanceof WriteOutcomeError && err.notSent) return { ...describeError(err.cause), outcome: err.outcome };
  if (err instanceof CmdbError) {
    // A device error the command put in its own words keeps the device's status, code and text.
    const device =
      err.cause instanceof ApiError
        ? { status: err.cause.status, code: err.cause.code, cliError: err.cause.cliError }
        : none;
    const outcome = err instanceof WriteOutcomeError ? { outcome: err.outcome } : {};
    return { exit: err.exitCode, ...none, ...device, message: err.message, hint: err.hint, ...outcome };
  }
  if (err instanceof CmdbApiError) return { exit: EXIT.INTERNAL, ...none, message: err.message, hint: null };
  const message = err instanceof Error ? err.message : String(err);
  return {
    exit: EXIT.INTERNAL,
    ...none,
    message: `internal error: ${message}`,
    hint: 'run again with --verbose for details, and report it if it persists',
  };
}
