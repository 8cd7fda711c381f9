// Which device and settings a run uses: flag, then environment, then profile, then default.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { endpointOf, resolveTarget } from '../../src/device/select.js';
import { mergeSettings } from '../../src/device/settings.js';
import type { GlobalOptions } from '../../src/run/context.js';
import { putProfile, readProfiles, writeProfiles, type DeviceProfile } from '../../src/config/profiles.js';
import { type AuthError, EXIT, type UsageError } from '../../src/errors.js';
import { offlineContext } from '../helpers/io.js';
import { tempDir } from '../helpers/temp.js';

const main: DeviceProfile = {
  name: 'main',
  host: 'https://main.example:8443',
  auth: 'token',
  secrets: 'keychain',
  vdom: 'root',
  caFile: '/profile/ca.pem',
  timeout: 12,
  prefix: '/proxy/api/v2/cmdb',
  fingerprint: 'AB:'.repeat(31) + 'AB',
};
const lab: DeviceProfile = {
  name: 'lab',
  host: 'https://lab.example',
  auth: 'session',
  username: 'ops',
  secrets: 'file',
  vdom: 'dmz',
};

function configured(): NodeJS.ProcessEnv {
  const env = { CMDB_CONFIG_DIR: tempDir('cmdb-precedence-') };
  writeProfiles(putProfile(putProfile(readProfiles(env), main), lab));
  return env;
}

const ctx = (options: GlobalOptions, env: NodeJS.ProcessEnv) => offlineContext(options, env).device();

test('without flags or variables: the default profile, with all its settings', () => {
  const env = configured();
  const target = resolveTarget(ctx({}, env));
  assert.equal(target.profile?.name, 'main');
  assert.deepEqual(
    {
      host: target.host,
      prefix: target.prefix,
      caFile: target.caFile,
      timeoutMs: target.timeoutMs,
      fingerprint: target.fingerprint,
      credential: target.credential,
    },
    {
      host: main.host,
      prefix: main.prefix,
      caFile: main.caFile,
      timeoutMs: 12_000,
      fingerprint: main.fingerprint,
      credential: 'profile',
    },
  );
  assert.deepEqual(ctx({}, env).vdoms, ['root']);
});

test('-d beats CMDB_DEVICE, which beats the default', () => {
  const env = configured();
  assert.equal(resolveTarget(ctx({}, { ...env, CMDB_DEVICE: 'lab' })).profile?.name, 'lab');
  assert.equal(resolveTarget(ctx({ device: 'main' }, { ...env, CMDB_DEVICE: 'lab' })).profile?.name, 'main');
  assert.deepEqual(ctx({}, { ...env, CMDB_DEVICE: 'lab' }).vdoms, ['dmz']);
});

test('flags beat variables, which beat the profile, for vdom, CA file and timeout', () => {
  const env = {
    ...configured(),
    CMDB_VDOM: 'env-vdom',
    CMDB_CA_FILE: '/env/ca.pem',
    CMDB_TIMEOUT: '7',
    CMDB_API_PREFIX: '/env/api/v2/cmdb',
  };
  const fromEnv = ctx({}, env);
  const target = resolveTarget(fromEnv);
  assert.deepEqual(
    [fromEnv.vdoms, target.caFile, target.timeoutMs, target.prefix],
    [['env-vdom'], '/env/ca.pem', 7000, '/env/api/v2/cmdb'],
  );
  const fromFlags = ctx({ vdom: 'flag-vdom', caFile: '/flag/ca.pem', timeout: '3' }, env);
  const flagged = resolveTarget(fromFlags);
  assert.deepEqual([fromFlags.vdoms, flagged.caFile, flagged.timeoutMs], [['flag-vdom'], '/flag/ca.pem', 3000]);
});

test('defaults when nothing says otherwise: 30 s, the client prefix, no VDOM', () => {
  const env = { CMDB_CONFIG_DIR: tempDir('cmdb-precedence-'), CMDB_HOST: 'fw.example', CMDB_TOKEN: 't' };
  const c = ctx({}, env);
  const target = resolveTarget(c);
  assert.deepEqual(
    [target.profile, target.host, target.prefix, target.caFile, target.timeoutMs, target.fingerprint, c.vdoms],
    [null, 'https://fw.example', undefined, undefined, 30_000, undefined, undefined],
  );
});

test('--host beats CMDB_HOST, and picks the profile saved for that host', () => {
  const env = { ...configured(), CMDB_HOST: 'https://other.example' };
  const target = resolveTarget(ctx({ host: 'lab.example' }, env));
  assert.equal(target.host, 'https://lab.example');
  assert.equal(target.profile?.name, 'lab');
  assert.deepEqual(ctx({ host: 'lab.example' }, env).vdoms, ['dmz']);
});

test('a host with no profile and no credential in the environment: exit 4', () => {
  assert.throws(
    () => resolveTarget(ctx({ host: 'https://other.example' }, configured())),
    (e: AuthError) => e.exitCode === EXIT.AUTH && /no credential for https:\/\/other.example/.test(e.message),
  );
});

test('a credential in the environment beats the profile, which still gives its settings', () => {
  const env = configured();
  assert.equal(resolveTarget(ctx({}, { ...env, CMDB_TOKEN: 't' })).credential, 'CMDB_TOKEN');
  const session = resolveTarget(ctx({}, { ...env, CMDB_USERNAME: 'u', CMDB_PASSWORD: 'p' }));
  assert.equal(session.credential, 'CMDB_USERNAME');
  assert.equal(session.host, main.host);
  assert.throws(
    () => resolveTarget(ctx({}, { ...env, CMDB_USERNAME: 'u' })),
    (e: AuthError) => e.exitCode === EXIT.AUTH && /CMDB_PASSWORD/.test(e.message),
  );
});

test('a profile and a --host that disagree: a usage error (a saved credential only goes to its own device)', () => {
  assert.throws(
    () => resolveTarget(ctx({ device: 'main', host: 'https://evil.example' }, configured())),
    (e: UsageError) => e.exitCode === EXIT.USAGE && /main.example/.test(e.message),
  );
  assert.equal(resolveTarget(ctx({ device: 'main', host: 'main.example:8443' }, configured())).profile?.name, 'main');
});

test('an unknown -d is a usage error; --demo ignores the profiles', () => {
  assert.throws(
    () => resolveTarget(ctx({ device: 'nope' }, configured())),
    (e: UsageError) => e.exitCode === EXIT.USAGE && /main, lab/.test(e.hint ?? ''),
  );
  assert.equal(ctx({ demo: true, device: 'nope' }, configured()).vdoms, undefined);
});

test('nothing configured at all: exit 4 with the ways to log in', () => {
  const env = { CMDB_CONFIG_DIR: tempDir('cmdb-precedence-') };
  assert.throws(
    () => resolveTarget(ctx({}, env)),
    (e: AuthError) => e.exitCode === EXIT.AUTH && /cmdb login/.test(e.hint ?? '') && /--demo/.test(e.hint ?? ''),
  );
});

test('one precedence for every command, login included: the variables beat the profile, a flag beats both', () => {
  const env = { ...configured(), CMDB_CA_FILE: '/env/ca.pem', CMDB_API_PREFIX: '/env/api/v2/cmdb', CMDB_TIMEOUT: '7' };
  const fromEnv = endpointOf(mergeSettings(ctx({}, env).settings, main), main.host);
  assert.deepEqual([fromEnv.caFile, fromEnv.prefix, fromEnv.timeoutMs], ['/env/ca.pem', '/env/api/v2/cmdb', 7000]);
  const fromFlags = endpointOf(
    mergeSettings(ctx({ caFile: '/flag/ca.pem', timeout: '3' }, env).settings, main, '/flag/api/v2/cmdb'),
    main.host,
  );
  assert.deepEqual(
    [fromFlags.caFile, fromFlags.prefix, fromFlags.timeoutMs],
    ['/flag/ca.pem', '/flag/api/v2/cmdb', 3000],
  );
  const fromProfile = endpointOf(mergeSettings(ctx({}, configured()).settings, main), main.host);
  assert.deepEqual([fromProfile.caFile, fromProfile.prefix, fromProfile.timeoutMs], [main.caFile, main.prefix, 12_000]);
});

test('the settings are computed once and frozen: the environment read at the start is the one the run uses', async () => {
  const { resolveSettings } = await import('../../src/settings.js');
  const env: NodeJS.ProcessEnv = { CMDB_VDOM: 'dmz', CMDB_TIMEOUT: '7', CMDB_OUTPUT: 'json' };
  const settings = resolveSettings({ timeout: '3' }, env);
  env.CMDB_VDOM = 'root';
  env.CMDB_OUTPUT = 'yaml';
  assert.ok(Object.isFrozen(settings) && Object.isFrozen(settings.vdoms));
  assert.deepEqual(
    [settings.vdoms, settings.timeoutMs, settings.format, settings.formatAsked, settings.machineErrors],
    [['dmz'], 3000, 'json', 'CMDB_OUTPUT=json', true],
  );
  assert.throws(() => resolveSettings({ output: 'xml' }, {}), /unknown output format 'xml'/);
  assert.throws(() => resolveSettings({}, { CMDB_TIMEOUT: '0' }), /invalid timeout '0'/);
});
