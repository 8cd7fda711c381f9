// HTTPS against the emulator's self-signed certificate: refused by default, trusted with --ca-file, --insecure warns.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startEmulator, type RunningEmulator } from '../../src/emulator/index.js';
import { displayFingerprint } from '../../src/api/network.js';
import { CmdbClient, type TlsOptions } from '../../src/api/client.js';
import { TokenAuth } from '../../src/api/auth.js';
import { createRequire } from 'node:module';
import { cmdb, isolatedEnv, json } from '../helpers/cli.js';
import { tempDir } from '../helpers/temp.js';

let emu: RunningEmulator;
let env: NodeJS.ProcessEnv;
let caFile: string;

before(async () => {
  emu = await startEmulator({ port: 0, tls: true });
  env = isolatedEnv({ CMDB_HOST: emu.url, CMDB_TOKEN: emu.token });
  caFile = join(tempDir('cmdb-ca-'), 'device.pem');
  writeFileSync(caFile, emu.certPem!);
});
after(() => emu.close());

test('the emulator serves HTTPS', () => {
  assert.match(emu.url, /^https:\/\//);
  assert.match(emu.fingerprint ?? '', /^[0-9a-f]{64}$/);
});

test('an unverifiable certificate stops the request: exit 3 with its fingerprint, nothing sent', async () => {
  const before = emu.requests.length;
  const r = await cmdb(['list', 'router/access-list'], { env });
  assert.equal(r.code, 3, r.stderr);
  assert.match(r.stderr, /TLS verification failed/);
  assert.ok(r.stderr.includes(displayFingerprint(emu.fingerprint!)), r.stderr);
  assert.match(r.stderr, /--ca-file|--fingerprint/);
  assert.equal(emu.requests.length, before);
});

test('--ca-file and CMDB_CA_FILE trust the certificate', async () => {
  const flag = await cmdb(['list', 'router/access-list', '--ca-file', caFile, '-o', 'json'], { env });
  assert.equal(flag.code, 0, flag.stderr);
  assert.ok(Array.isArray(json(flag)));
  assert.equal(flag.stderr, '');
  const fromEnv = await cmdb(['get', 'log.disk/setting'], { env: { ...env, CMDB_CA_FILE: caFile } });
  assert.equal(fromEnv.code, 0, fromEnv.stderr);
});

test('a CA file that cannot be read is a usage error', async () => {
  const r = await cmdb(['list', 'router/access-list', '--ca-file', '/nonexistent.pem'], { env });
  assert.equal(r.code, 2);
  assert.match(r.stderr, /nonexistent\.pem/);
});

test('--insecure and CMDB_INSECURE=1 work and warn every time', async () => {
  for (const run of [
    cmdb(['list', 'router/access-list', '--insecure'], { env }),
    cmdb(['list', 'router/access-list'], { env: { ...env, CMDB_INSECURE: '1' } }),
  ]) {
    const r = await run;
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning: TLS verification is off/);
    assert.ok(Array.isArray(json(r)));
  }
});

test('no CA is consulted without chain verification: a pinned or --insecure connection passes an empty CA list (no root store)', async () => {
  const tls = createRequire(import.meta.url)('node:tls') as typeof import('node:tls');
  const seen: unknown[] = [];
  const connect = tls.connect;
  tls.connect = ((...args: Parameters<typeof tls.connect>) => {
    seen.push((args[0] as { ca?: unknown }).ca);
    return connect.apply(tls, args);
  }) as typeof tls.connect;
  try {
    const get = async (options: TlsOptions) => {
      const client = new CmdbClient({ baseUrl: emu.url, auth: new TokenAuth(emu.token), tls: options });
      try {
        await client.request({ method: 'GET', tablePath: 'log.disk/setting' });
      } finally {
        await client.close();
      }
    };
    await get({ fingerprint: emu.fingerprint! });
    await get({ insecure: true });
    await get({ ca: emu.certPem! });
    assert.deepEqual(seen, [[], [], emu.certPem]);
  } finally {
    tls.connect = connect;
  }
});

describe('a bare host or host:port means https:// wherever a host is read', () => {
  const hostPort = () => new URL(emu.url).host;

  test('--host and CMDB_HOST as host:port, with --insecure', async () => {
    const flag = await cmdb(['list', 'router/access-list', '-o', 'json', '--insecure', '--host', hostPort()], { env });
    assert.equal(flag.code, 0, flag.stderr);
    assert.ok(Array.isArray(json(flag)));
    const variable = await cmdb(['list', 'router/access-list', '-o', 'json', '--insecure'], {
      env: { ...env, CMDB_HOST: hostPort() },
    });
    assert.equal(variable.code, 0, variable.stderr);
    assert.ok(Array.isArray(json(variable)));
  });

  test('a bare host without port is https://host: not an internal error', async () => {
    const r = await cmdb(['list', 'router/access-list', '--host', 'fw.invalid', '--timeout', '5'], { env });
    assert.equal(r.code, 3, r.stderr);
    assert.ok(!/Invalid URL|internal error/i.test(r.stderr), r.stderr);
    assert.match(r.stderr, /https:\/\/fw\.invalid/);
  });

  test('login with host:port saves https://host:port; the profile is used by the next run', async () => {
    const home = isolatedEnv();
    const login = await cmdb(
      [
        'login',
        '--host',
        hostPort(),
        '-d',
        'bare',
        '--token-stdin',
        '--insecure-storage',
        '--fingerprint',
        emu.fingerprint!,
      ],
      { env: home, stdin: emu.token },
    );
    assert.equal(login.code, 0, login.stderr);
    const show = await cmdb(['device', 'show', 'bare', '-o', 'json'], { env: home });
    assert.equal((json(show) as { host: string }).host, `https://${hostPort()}`);
    const list = await cmdb(['list', 'router/access-list', '-o', 'json', '--host', hostPort()], { env: home });
    assert.equal(list.code, 0, list.stderr);
  });
});
