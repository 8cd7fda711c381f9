// The connection to a device: a keep-alive pool per device with its TLS trust (a CA, none, or a
// pinned certificate), the certificate a device presents, and a failed connection as a typed error.
import type { TLSSocket } from 'node:tls';
import type { Agent, buildConnector } from 'undici';
import { defaultTransport, type Transport } from './undici.js';
import {
  ConnectionError,
  TlsVerificationError,
  type ConnectionFailure,
  type PeerCertificate,
  type TlsProblem,
} from './errors.js';
import { normalizeFingerprint } from './fingerprint.js';

// Kept apart so that config code can use them without loading undici.
export { displayFingerprint, isFingerprint, normalizeFingerprint } from './fingerprint.js';

/** The pinned certificate did not match: the device's certificate changed, or someone is in the middle. */
export class PinMismatchError extends Error {
  readonly code = 'CMDB_PIN_MISMATCH';
  constructor(
    readonly actual: string | null,
    readonly expected: string,
  ) {
    super('certificate fingerprint mismatch');
  }
}

/** How a connection trusts the device: a CA bundle, no check at all, or one pinned certificate. */
export interface TlsOptions {
  /** PEM text of CA certificates to trust. */
  ca?: string;
  /** Do not verify the certificate at all (--insecure). */
  insecure?: boolean;
  /** Accept exactly the certificate with this SHA-256 fingerprint (hex, any case, colons optional). */
  fingerprint?: string | null;
}

/**
 * One keep-alive pool per device, of the transport's Agent. With a pinned fingerprint, chain verification
 * is replaced by an exact match on the certificate's SHA-256 (the point of pinning a self-signed certificate).
 */
export function createAgent(tls: TlsOptions, timeoutMs: number, transport: Transport = defaultTransport()): Agent {
  const pinned = tls.fingerprint ? normalizeFingerprint(tls.fingerprint) : null;
  const verifyChain = !tls.insecure && !pinned;
  // A resumed TLS session shows no certificate to check a pin against: pinned connections never resume.
  const { Agent, buildConnector } = transport;
  // Without chain verification (a pin, --insecure) no CA is ever consulted: an empty list keeps Node
  // from building its root store (~30 ms) for the first TLS context.
  const ca = verifyChain ? tls.ca : (tls.ca ?? []);
  const connector = buildConnector({
    ca,
    rejectUnauthorized: verifyChain,
    timeout: timeoutMs,
    ...(pinned ? { maxCachedSessions: 0 } : {}),
  });
  const connect: buildConnector.connector = pinned
    ? (options, callback) =>
        connector(options, (err, socket) => {
          if (err || !socket) return callback(err ?? new Error('no socket'), null);
          if (options.protocol !== 'https:') return callback(null, socket);
          const actual = (socket as TLSSocket).getPeerCertificate?.()?.fingerprint256;
          const fp = actual ? normalizeFingerprint(actual) : null;
          if (fp === pinned) return callback(null, socket);
          socket.destroy();
          callback(new PinMismatchError(fp, pinned), null);
        })
    : connector;
  return new Agent({ connect, keepAliveTimeout: 30_000, connections: 16 });
}

export type { PeerCertificate };
export { TlsVerificationError };

/** Fetches the certificate a server presents without trusting it, to show what failed verification. */
export async function probeCertificate(baseUrl: string, timeoutMs = 5000): Promise<PeerCertificate | null> {
  const url = new URL(baseUrl);
  if (url.protocol !== 'https:') return null;
  // Loaded here, not with this module: a plain-HTTP run never needs node:tls (~10 ms to load).
  const { connect: tlsConnect } = await import('node:tls');
  return new Promise((resolve) => {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // Only reads the certificate to show it to the user; nothing is ever sent over this socket.
    const verify = false;
    const socket = tlsConnect({
      host,
      port: Number(url.port || 443),
      servername: /^[\d.:]+$/.test(host) ? undefined : host,
      rejectUnauthorized: verify,
    });
    const done = (value: PeerCertificate | null) => {
      socket.destroy();
      resolve(value);
    };
    socket.setTimeout(timeoutMs, () => done(null));
    socket.once('error', () => done(null));
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      if (!cert?.fingerprint256) return done(null);
      const name = (n: unknown) =>
        n && typeof n === 'object'
          ? Object.entries(n)
              .map(([k, v]) => `${k}=${v}`)
              .join(', ')
          : String(n ?? '');
      done({
        fingerprint: normalizeFingerprint(cert.fingerprint256),
        subject: name(cert.subject),
        issuer: name(cert.issuer),
        validTo: cert.valid_to,
      });
    });
  });
}

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'UNABLE_TO_GET_ISSUER_CERT',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'HOSTNAME_MISMATCH',
]);

/** OpenSSL's verification codes, as the problem they mean. */
function tlsProblem(code: string, message: string): TlsProblem {
  if (code === 'CERT_HAS_EXPIRED') return 'expired';
  if (code === 'CERT_NOT_YET_VALID') return 'not-yet-valid';
  if (code === 'DEPTH_ZERO_SELF_SIGNED_CERT' || code === 'SELF_SIGNED_CERT_IN_CHAIN' || /self[- ]signed/i.test(message))
    return 'self-signed';
  if (code === 'ERR_TLS_CERT_ALTNAME_INVALID' || code === 'HOSTNAME_MISMATCH') return 'wrong-name';
  if (/^UNABLE_TO_(VERIFY_LEAF_SIGNATURE|GET_ISSUER_CERT)/.test(code) || code === 'CERT_UNTRUSTED')
    return 'untrusted-issuer';
  return 'other';
}

function rootCause(err: unknown): { code?: string; name?: string; message?: string } & Record<string, unknown> {
  let e = err as Record<string, unknown> | undefined;
  for (let i = 0; i < 5 && e; i++) {
    if (e instanceof PinMismatchError) return e as unknown as Record<string, unknown>;
    if (typeof e.code === 'string' && !String(e.code).startsWith('UND_ERR_SOCKET')) return e;
    if (!e.cause) return e;
    e = e.cause as Record<string, unknown>;
  }
  return e ?? {};
}

/** Turns a network failure into a ConnectionError that says what happened, with the certificate for TLS. */
export async function connectionError(
  err: unknown,
  baseUrl: string,
  timeoutMs: number,
  tls: TlsOptions,
  answeredBefore = false,
): Promise<ConnectionError> {
  const cause = rootCause(err);
  const code = typeof cause.code === 'string' ? cause.code : '';
  const detail = String(cause.message ?? String(err));
  const fail = (reason: ConnectionFailure) =>
    new ConnectionError(reason, baseUrl, detail, timeoutMs, { cause: err, answeredBefore });
  if (cause instanceof PinMismatchError) {
    const cert = await probeCertificate(baseUrl);
    return new TlsVerificationError(
      'pin-mismatch',
      baseUrl,
      detail,
      timeoutMs,
      cert,
      !!tls.ca,
      { expected: cause.expected, actual: cause.actual },
      { cause: err },
    );
  }
  if (TLS_CODES.has(code) || /certificate|self[- ]signed/i.test(String(cause.message ?? ''))) {
    const cert = await probeCertificate(baseUrl);
    return new TlsVerificationError(
      'tls-verify',
      baseUrl,
      String(cause.message ?? code),
      timeoutMs,
      cert,
      !!tls.ca,
      null,
      { cause: err, problem: tlsProblem(code, String(cause.message ?? '')) },
    );
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return fail('dns');
  if (code === 'ECONNREFUSED') return fail('refused');
  if (code === 'EHOSTUNREACH' || code === 'ENETUNREACH') return fail('unreachable');
  if (code === 'ECONNRESET' || code === 'UND_ERR_SOCKET' || code === 'EPIPE') return fail('reset');
  if (/TIMEOUT/i.test(code) || cause.name === 'TimeoutError' || cause.name === 'AbortError') return fail('timeout');
  if (/EPROTO|ERR_SSL|wrong version/i.test(code + String(cause.message))) return fail('tls-handshake');
  return fail('other');
}
