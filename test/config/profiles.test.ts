import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  dropProfile,
  getProfile,
  profileNameFor,
  profilesPath,
  putProfile,
  readProfiles,
  writeProfiles,
  type DeviceProfile,
} from '../../src/config/profiles.js';
import { EXIT, UsageError } from '../../src/errors.js';
import { plainYaml } from '../../src/config/plain-yaml.js';
import { tempDir } from '../helpers/temp.js';

function configEnv(): NodeJS.ProcessEnv {
  return { CMDB_CONFIG_DIR: join(tempDir('cmdb-profiles-'), 'cmdb') };
}

const FP = 'ab'.repeat(32);
const fw1: DeviceProfile = {
  name: 'fw1',
  host: 'https://fw1.example:8443',
  auth: 'token',
  secrets: 'keychain',
  vdom: 'root',
  fingerprint: FP.toUpperCase().match(/../g)!.join(':'),
  timeout: 10,
  caFile: '/etc/ca.pem',
  prefix: '/api/v2/cmdb',
};
const fw2: DeviceProfile = {
  name: 'fw2',
  host: 'https://[2001:db8::1]',
  auth: 'session',
  username: 'admin',
  secrets: 'file',
  acceptDisclaimer: true,
};

function writeConfig(env: NodeJS.ProcessEnv, text: string): string {
  const path = profilesPath(env);
  mkdirSync(join(path, '..'), { recursive: true });
  writeFileSync(path, text);
  return path;
}

function fileError(env: NodeJS.ProcessEnv, text: string, line: number, message: RegExp): void {
  const path = writeConfig(env, text);
  assert.throws(
    () => readProfiles(env),
    (e: UsageError) => {
      assert.ok(e instanceof UsageError);
      assert.equal(e.exitCode, EXIT.USAGE);
      assert.ok(e.message.startsWith(`${path}:${line}: `), e.message);
      assert.match(e.message, message);
      return true;
    },
  );
}

test('no file is no profile', () => {
  const set = readProfiles(configEnv());
  assert.deepEqual([set.defaultName, set.devices], [null, []]);
});

test('profiles round-trip through config.yaml; the first saved becomes the default', () => {
  const env = configEnv();
  let set = putProfile(readProfiles(env), fw1);
  set = putProfile(set, fw2);
  writeProfiles(set);
  const read = readProfiles(env);
  assert.equal(read.defaultName, 'fw1');
  assert.deepEqual(read.devices, [fw1, fw2]);
});

test('config.yaml is written with mode 0600 in a 0700 folder, with no temp file left behind', () => {
  const env = configEnv();
  writeProfiles(putProfile(readProfiles(env), fw1));
  writeProfiles(putProfile(readProfiles(env), { ...fw1, vdom: 'dmz' }));
  const path = profilesPath(env);
  assert.equal(statSync(path).mode & 0o777, 0o600);
  assert.equal(statSync(join(path, '..')).mode & 0o777, 0o700);
  assert.deepEqual(readdirSync(join(path, '..')), ['config.yaml']);
  assert.equal(readProfiles(env).devices[0].vdom, 'dmz');
});

test('the file is readable by hand: kebab-case settings, no secrets', () => {
  const env = configEnv();
  writeProfiles(putProfile(readProfiles(env), fw2));
  const text = readFileSync(profilesPath(env), 'utf8');
  assert.match(text, /^default: fw2$/m);
  assert.match(text, /^ {4}accept-disclaimer: true$/m);
  assert.match(text, /^ {4}host: https:\/\/\[2001:db8::1\]$/m);
});

test('replacing a profile keeps its place; removing the default leaves none', () => {
  const env = configEnv();
  let set = putProfile(putProfile(readProfiles(env), fw1), fw2);
  set = putProfile(set, { ...fw1, auth: 'session', username: 'ops' });
  assert.deepEqual(
    set.devices.map((d) => [d.name, d.auth]),
    [
      ['fw1', 'session'],
      ['fw2', 'session'],
    ],
  );
  set = dropProfile(set, 'fw1');
  assert.equal(set.defaultName, null);
  assert.deepEqual(
    set.devices.map((d) => d.name),
    ['fw2'],
  );
  assert.throws(() => dropProfile(set, 'fw1'), /no device named 'fw1'/);
});

test('an unknown device name lists the saved ones', () => {
  const set = putProfile(putProfile(readProfiles(configEnv()), fw1), fw2);
  assert.throws(
    () => getProfile(set, 'fw3'),
    (e: UsageError) => e.exitCode === EXIT.USAGE && /fw1, fw2/.test(e.hint ?? ''),
  );
});

test('a profile is named after the host with its port; IPv6 in brackets', () => {
  assert.equal(profileNameFor('https://fw.example:8443'), 'fw.example:8443');
  assert.equal(profileNameFor('fw.example'), 'fw.example');
  assert.equal(profileNameFor('https://[2001:db8::1]:10443/'), '[2001:db8::1]:10443');
  assert.equal(profileNameFor('2001:db8::1'), '[2001:db8::1]');
});

test('fingerprints in the file are accepted with or without colons, in any case, and kept as shown', () => {
  const env = configEnv();
  writeConfig(env, `devices:\n  a:\n    host: fw\n    auth: token\n    fingerprint: ${FP}\n`);
  assert.equal(readProfiles(env).devices[0].fingerprint, fw1.fingerprint);
  assert.equal(readProfiles(env).devices[0].host, 'https://fw');
});

test('a hand-broken file names the file and the line', () => {
  fileError(configEnv(), 'default: a\ndevices:\n  a:\n    host: [unclosed\n', 5, /not valid YAML/);
  fileError(
    configEnv(),
    'devices:\n  a:\n    host: fw\n    auth: token\n    hots: x\n',
    5,
    /unknown setting 'hots' in device 'a'/,
  );
  fileError(
    configEnv(),
    'devices:\n  a:\n    host: fw\n    auth: token\n    timeout: soon\n',
    5,
    /timeout must be a number/,
  );
  fileError(configEnv(), 'devices:\n  a:\n    host: fw\n    auth: password\n', 4, /auth must be 'token' or 'session'/);
  fileError(configEnv(), 'devices:\n  a:\n    host: fw\n    auth: session\n', 2, /no username/);
  fileError(configEnv(), 'devices:\n  a:\n    host: fw\n    auth: token\n    fingerprint: abc\n', 5, /SHA-256/);
  fileError(
    configEnv(),
    'default: b\ndevices:\n  a:\n    host: fw\n    auth: token\n',
    1,
    /'b', which is not in devices/,
  );
  fileError(
    configEnv(),
    'devices:\n  a:\n    host: fw\n    auth: token\n  a:\n    host: fw2\n    auth: token\n',
    5,
    /not valid YAML/,
  );
  fileError(configEnv(), '- just\n- a list\n', 1, /expected a mapping/);
});

test('config.yaml as cmdb writes it is read without the yaml package, to the same profiles and errors', () => {
  const env = configEnv();
  const path = profilesPath(env);
  const named = (name: string, host: string): DeviceProfile => ({ name, host, auth: 'token', secrets: 'keychain' });
  const written = putProfile(
    putProfile(
      putProfile(putProfile({ path, defaultName: null, devices: [] }, fw1), fw2),
      named('10.0.0.1:8443', 'https://10.0.0.1:8443'),
    ),
    named('[::1]:8443', 'https://[::1]:8443'),
  );
  writeProfiles({
    ...written,
    devices: written.devices.map((d) => (d.name === 'fw2' ? { ...d, username: 'true', vdom: '123' } : d)),
  });
  const text = readFileSync(path, 'utf8');
  assert.ok(plainYaml(text), 'what writeProfiles writes is plain');
  assert.equal(plainYaml(`${text}...\n`), null, 'a document end marker is left to the yaml package');
  const samples = [
    text,
    'default: null\ndevices: {}\n',
    '# a comment\n\ndefault: fw1\ndevices:\n    fw1:\n        host: "https://fw1.example"\n        auth: \'token\'\n        timeout: 2.5\n        accept-disclaimer: false\n',
    'default: fw9\ndevices:\n  fw1:\n    host: https://fw1\n    auth: token\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: tokn\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: token\n    timeout: 0\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: token\n    timeout: "30"\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: token\n    colour: red\n',
    'devices:\n  fw1:\n    host: https://fw1\n  fw2:\n    auth: session\n    host: https://fw2\n',
    'devices:\n  fw1: https://fw1\n',
    'devices:\n  "bad name":\n    host: https://fw1\n    auth: token\n',
    'devices: 5\n',
    'default: 7\ndevices: {}\n',
    'extra: 1\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: token\n    accept-disclaimer: yes\n',
    'devices:\n  fw1:\n    host: https://fw1\n    auth: token\n    fingerprint: nothex\n',
  ];
  const outcome = (body: string) => {
    writeFileSync(path, body);
    try {
      return readProfiles(env);
    } catch (err) {
      return (err as Error).message;
    }
  };
  for (const sample of samples) {
    assert.ok(plainYaml(sample), `plain: ${sample}`);
    assert.deepEqual(outcome(sample), outcome(`${sample}...\n`), sample);
  }
});
