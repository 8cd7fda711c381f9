import assert from 'node:assert/strict';
import { createPublicKey, X509Certificate } from 'node:crypto';
import { get as httpsGet } from 'node:https';
import { connect } from 'node:tls';
import { after, before, describe, it } from 'node:test';
import { generateSelfSignedCertificate } from '../../src/emulator/cert.js';
import * as der from '../../src/emulator/der.js';
import type { RunningEmulator } from '../../src/emulator/index.js';
import { start, TOKEN } from './helpers.js';

let emu: RunningEmulator;
before(async () => {
  emu = await start({ tls: true });
});
after(() => emu.close());

function fetchStatus(url: string, ca?: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = httpsGet(url, { ca, headers: { Authorization: `Bearer ${TOKEN}` } }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
  });
}

describe('DER encoding', () => {
  it('encodes integers, OIDs and long lengths', () => {
    assert.deepEqual(der.integer(2), Buffer.from([0x02, 0x01, 0x02]));
    assert.deepEqual(der.integer(128), Buffer.from([0x02, 0x02, 0x00, 0x80]));
    assert.deepEqual(der.integer(Buffer.from([0, 0, 1])), Buffer.from([0x02, 0x01, 0x01]));
    assert.deepEqual(der.oid('1.2.840.10045.4.3.2'), Buffer.from('06082a8648ce3d040302', 'hex'));
    assert.deepEqual(der.octetString(Buffer.alloc(200)).subarray(0, 3), Buffer.from([0x04, 0x81, 200]));
    assert.deepEqual(der.octetString(Buffer.alloc(300)).subarray(0, 4), Buffer.from([0x04, 0x82, 0x01, 0x2c]));
  });
});

describe('self-signed certificate', () => {
  it('is a valid X.509 v3 CA certificate for the local names, signed by its own key', () => {
    assert.ok(emu.certPem && emu.keyPem);
    const cert = new X509Certificate(emu.certPem);
    assert.equal(cert.subject, 'CN=cmdb-emulator');
    assert.equal(cert.issuer, 'CN=cmdb-emulator');
    assert.equal(cert.ca, true);
    assert.equal(cert.subjectAltName, 'IP Address:127.0.0.1, IP Address:0:0:0:0:0:0:0:1, DNS:localhost');
    assert.ok(cert.verify(createPublicKey(emu.keyPem)));
    assert.ok(cert.checkIP('127.0.0.1'));
    assert.equal(cert.checkHost('localhost'), 'localhost');
    const now = Date.now();
    assert.ok(Date.parse(cert.validFrom) < now - 23 * 3600_000);
    assert.ok(Date.parse(cert.validTo) > now + 360 * 86400_000);
  });

  it('has the fingerprint the start line reports', () => {
    const cert = new X509Certificate(emu.certPem!);
    assert.equal(emu.fingerprint, cert.fingerprint256.replace(/:/g, '').toLowerCase());
    assert.match(emu.startLine().fingerprint ?? '', /^[0-9a-f]{64}$/);
    assert.match(emu.url, /^https:\/\/127\.0\.0\.1:\d+$/);
  });

  it('is accepted by https when given as ca', async () => {
    assert.equal(await fetchStatus(`${emu.url}/api/v2/monitor/system/status`, emu.certPem!), 200);
  });

  it('is refused without it', async () => {
    await assert.rejects(fetchStatus(`${emu.url}/api/v2/monitor/system/status`), (error: NodeJS.ErrnoException) => {
      assert.match(error.code ?? '', /SELF_SIGNED|UNABLE_TO_VERIFY/);
      return true;
    });
  });

  it('verifies a raw TLS connection by host name', async () => {
    const port = Number(new URL(emu.url).port);
    const authorized = await new Promise<boolean>((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port, ca: emu.certPem!, servername: 'localhost' }, () => {
        resolve(socket.authorized);
        socket.end();
      });
      socket.on('error', reject);
    });
    assert.equal(authorized, true);
  });

  it('serves given PEMs as they are', async () => {
    const pair = generateSelfSignedCertificate({ commonName: 'given', hosts: ['127.0.0.1'] });
    const given = await start({ tls: { cert: pair.certPem, key: pair.keyPem } });
    try {
      assert.equal(given.certPem, pair.certPem);
      assert.equal(new X509Certificate(given.certPem!).subject, 'CN=given');
      assert.equal(await fetchStatus(`${given.url}/api/v2/monitor/system/status`, pair.certPem), 200);
    } finally {
      await given.close();
    }
  });
});
