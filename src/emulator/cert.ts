// The self-signed certificate `--tls` serves: an EC P-256 key and an X.509 v3 certificate for the
// loopback names, made without external tools.
import { createHash, createPrivateKey, generateKeyPairSync, randomBytes, sign, X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';
import * as der from './der.js';

export interface CertificatePair {
  certPem: string;
  keyPem: string;
}

const OID = {
  commonName: '2.5.4.3',
  ecPublicKey: '1.2.840.10045.2.1',
  ecdsaWithSha256: '1.2.840.10045.4.3.2',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  subjectAltName: '2.5.29.17',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  serverAuth: '1.3.6.1.5.5.7.3.1',
};

const DAY_MS = 86_400_000;

/** IPv6 text to its 16 bytes (handles `::` and an embedded IPv4 tail). */
function ipv6Bytes(address: string): Buffer {
  let text = address;
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const [a, b, c, d] = v4[1].split('.').map(Number);
    text = text.slice(0, v4.index) + ((a << 8) | b).toString(16) + ':' + ((c << 8) | d).toString(16);
  }
  const [head, tail] = text.includes('::') ? text.split('::') : [text, undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups =
    tail === undefined ? left : [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right];
  return Buffer.from(groups.map((g) => g.padStart(4, '0')).join(''), 'hex');
}

function ipBytes(address: string): Buffer {
  return isIP(address) === 4 ? Buffer.from(address.split('.').map(Number)) : ipv6Bytes(address);
}

function extension(id: string, critical: boolean, value: Buffer): Buffer {
  return der.sequence(der.oid(id), ...(critical ? [der.boolean(true)] : []), der.octetString(value));
}

function subjectAltNames(hosts: string[]): Buffer {
  const names = hosts.map((host) =>
    isIP(host) ? der.implicit(7, ipBytes(host)) : der.implicit(2, Buffer.from(host, 'ascii')),
  );
  return der.sequence(...names);
}

function name(commonName: string): Buffer {
  return der.sequence(der.set(der.sequence(der.oid(OID.commonName), der.utf8String(commonName))));
}

function serialNumber(): Buffer {
  const bytes = randomBytes(16);
  bytes[0] = (bytes[0] & 0x7f) | 0x40;
  return bytes;
}

/** The names a local device is reached by, plus `extraHost` when it is a specific address or name. */
export function certificateHosts(extraHost?: string): string[] {
  const hosts = ['127.0.0.1', '::1', 'localhost'];
  const wildcard = !extraHost || extraHost === '0.0.0.0' || extraHost === '::';
  return wildcard || hosts.includes(extraHost) ? hosts : [...hosts, extraHost];
}

/**
 * A self-signed X.509 v3 certificate for an EC P-256 key, encoded by hand so
 * that no external tool or package is needed.
 */
export function generateSelfSignedCertificate(
  options: { commonName?: string; hosts?: string[]; now?: Date } = {},
): CertificatePair {
  const commonName = options.commonName ?? 'cmdb-emulator';
  const now = options.now ?? new Date();
  const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
  const spki = publicKey.export({ type: 'spki', format: 'der' });
  const jwk = publicKey.export({ format: 'jwk' });
  const point = Buffer.concat([
    Buffer.from([4]),
    Buffer.from(jwk.x ?? '', 'base64url'),
    Buffer.from(jwk.y ?? '', 'base64url'),
  ]);
  const keyId = createHash('sha1').update(point).digest();
  const algorithm = der.sequence(der.oid(OID.ecdsaWithSha256));
  const keyUsageDigitalSignatureAndCertSign = der.bitString(Buffer.from([0x84]), 2);
  const extensions = der.sequence(
    extension(OID.basicConstraints, true, der.sequence(der.boolean(true))),
    extension(OID.keyUsage, true, keyUsageDigitalSignatureAndCertSign),
    extension(OID.extKeyUsage, false, der.sequence(der.oid(OID.serverAuth))),
    extension(OID.subjectKeyIdentifier, false, der.octetString(keyId)),
    extension(OID.authorityKeyIdentifier, false, der.sequence(der.implicit(0, keyId))),
    extension(OID.subjectAltName, false, subjectAltNames(options.hosts ?? certificateHosts())),
  );
  const tbs = der.sequence(
    der.explicit(0, der.integer(2)),
    der.integer(serialNumber()),
    algorithm,
    name(commonName),
    der.sequence(der.time(new Date(now.getTime() - DAY_MS)), der.time(new Date(now.getTime() + 365 * DAY_MS))),
    name(commonName),
    spki,
    der.explicit(3, extensions),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificate = der.sequence(tbs, algorithm, der.bitString(signature));
  const body = certificate.toString('base64').replace(/.{64}/g, '$&\n').replace(/\n$/, '');
  return {
    certPem: `-----BEGIN CERTIFICATE-----\n${body}\n-----END CERTIFICATE-----\n`,
    keyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

/** SHA-256 of the certificate, lowercase hex without colons. */
export function certificateFingerprint(certPem: string): string {
  return new X509Certificate(certPem).fingerprint256.replace(/:/g, '').toLowerCase();
}

/** Whether a saved pair is still usable: it parses, matches its key and stays valid for another day. */
export function isUsableCertificate(pair: CertificatePair, now = Date.now()): boolean {
  try {
    const cert = new X509Certificate(pair.certPem);
    return cert.checkPrivateKey(createPrivateKey(pair.keyPem)) && Date.parse(cert.validTo) > now + DAY_MS;
  } catch {
    return false;
  }
}
