// The saved device profiles (config.yaml): read and checked, changed under its lock, written
// readable by hand; never a secret.
import { displayFingerprint, isFingerprint } from '../api/fingerprint.js';
import { normalizeBaseUrl, prefixProblem, redactAddress } from '../api/url.js';
import { UsageError } from '../errors.js';
import { writePrivateFile } from '../files.js';
import { fileError, readYamlTree, yaml } from './files.js';
import { isMapping, type PlainEntry } from './plain-yaml.js';
import { lockFileFor, withLock } from './lock.js';
import { profilesPath } from './paths.js';

export { profilesPath };

export type AuthKind = 'token' | 'session';
/** Where a device's secrets live: the OS keychain, or credentials.yaml with --insecure-storage. */
export type SecretsKind = 'keychain' | 'file';

/** One saved device. Never holds a secret: those live in the keychain (or credentials.yaml). */
export interface DeviceProfile {
  name: string;
  /** Normalised base URL: `https://host[:port]`, IPv6 in brackets. */
  host: string;
  prefix?: string;
  auth: AuthKind;
  username?: string;
  vdom?: string;
  caFile?: string;
  /** Pinned certificate SHA-256, stored as shown (`AB:CD:...`). */
  fingerprint?: string;
  /** Per-request timeout in seconds. */
  timeout?: number;
  secrets: SecretsKind;
  /** The login banner was accepted at `cmdb login`, so a re-login accepts it again. */
  acceptDisclaimer?: boolean;
  /** The device's release (`v7.2.5`), build and serial number, as it last answered: which catalogue it uses. */
  version?: string;
  build?: number;
  serial?: string;
  /** The user acknowledged that this device's secret is in plain text (--insecure-storage): no warning each run. */
  plainTextOk?: boolean;
}

export interface ProfileSet {
  path: string;
  defaultName: string | null;
  devices: DeviceProfile[];
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_.:@[\]-]{0,127}$/;
const FIX_HINT = "fix that line, or delete the file and log in again with 'cmdb login'";

type Check = (value: unknown) => unknown;
const text =
  (what: string, valid: (s: string) => boolean = () => true): Check =>
  (v) => {
    if (typeof v !== 'string' || !v.trim() || !valid(v)) throw new Error(what);
    return v;
  };

/** Every profile setting as written in config.yaml: its key there, its field here, and its check. */
const SETTINGS: { key: string; field: Exclude<keyof DeviceProfile, 'name'>; check: Check }[] = [
  {
    key: 'host',
    field: 'host',
    check: (v) => {
      text('host must be an address like https://fw.example:8443')(v);
      try {
        return normalizeBaseUrl(v as string);
      } catch {
        throw new Error(
          `host '${redactAddress(v as string)}' is not an address like https://fw.example:8443 (without ` +
            `user name or password)`,
        );
      }
    },
  },
  {
    key: 'prefix',
    field: 'prefix',
    check: text('prefix must be a path like /api/v2/cmdb', (s) => prefixProblem(s) === null),
  },
  {
    key: 'auth',
    field: 'auth',
    check: text("auth must be 'token' or 'session'", (s) => s === 'token' || s === 'session'),
  },
  { key: 'username', field: 'username', check: text('username must be text') },
  { key: 'vdom', field: 'vdom', check: text("vdom must be a VDOM name, a list like root,dmz, or '*'") },
  { key: 'ca-file', field: 'caFile', check: text('ca-file must be the path of a PEM file') },
  {
    key: 'fingerprint',
    field: 'fingerprint',
    check: (v) =>
      displayFingerprint(
        text('fingerprint must be a SHA-256 (64 hex digits, colons optional)', isFingerprint)(v) as string,
      ),
  },
  {
    key: 'timeout',
    field: 'timeout',
    check: (v) => {
      if (typeof v !== 'number' || !(v > 0)) throw new Error('timeout must be a number of seconds greater than 0');
      return v;
    },
  },
  {
    key: 'secrets',
    field: 'secrets',
    check: text("secrets must be 'keychain' or 'file'", (s) => s === 'keychain' || s === 'file'),
  },
  {
    key: 'accept-disclaimer',
    field: 'acceptDisclaimer',
    check: (v) => {
      if (typeof v !== 'boolean') throw new Error('accept-disclaimer must be true or false');
      return v;
    },
  },
  { key: 'version', field: 'version', check: text('version must be a release like v7.2.5') },
  {
    key: 'build',
    field: 'build',
    check: (v) => {
      if (!Number.isInteger(v) || (v as number) < 0) throw new Error('build must be a whole number');
      return v;
    },
  },
  { key: 'serial', field: 'serial', check: text('serial must be text') },
  {
    key: 'plain-text-ok',
    field: 'plainTextOk',
    check: (v) => {
      if (typeof v !== 'boolean') throw new Error('plain-text-ok must be true or false');
      return v;
    },
  },
];

/** The settings `cmdb device set` changes (the others come from `cmdb login`). */
export const SETTABLE = ['vdom', 'timeout', 'ca-file', 'prefix', 'plain-text-ok'] as const;
export type Settable = (typeof SETTABLE)[number];

/**
 * A profile with one setting changed from its text (`timeout=10`), checked as config.yaml's value
 * is; an empty text removes the setting. A bad value is a usage error.
 */
export function withSetting(profile: DeviceProfile, key: Settable, text: string): DeviceProfile {
  const setting = SETTINGS.find((s) => s.key === key)!;
  const changed: Record<string, unknown> = { ...profile };
  if (text === '') {
    delete changed[setting.field];
    return changed as unknown as DeviceProfile;
  }
  try {
    const typed =
      key === 'timeout'
        ? /^\s*[\d.]+\s*$/.test(text)
          ? Number(text)
          : text
        : key === 'plain-text-ok'
          ? (({ true: true, yes: true, false: false, no: false } as Record<string, boolean>)[
              text.trim().toLowerCase()
            ] ?? text)
          : text;
    changed[setting.field] = setting.check(typed);
  } catch (err) {
    throw new UsageError(`invalid ${key} '${text}': ${(err as Error).message}`, `or '${key}=' to remove the setting`);
  }
  return changed as unknown as DeviceProfile;
}

export function isValidProfileName(name: string): boolean {
  return NAME.test(name);
}

export function checkProfileName(name: string): string {
  if (!isValidProfileName(name)) {
    throw new UsageError(
      `invalid device name '${name}'`,
      'use letters, digits and _ . : @ - [ ] (no spaces or slashes), at most 128 characters',
    );
  }
  return name;
}

/** The name `cmdb login` gives a profile without -d: the host with its port, e.g. `fw.example:8443`. */
export function profileNameFor(baseUrl: string): string {
  return new URL(normalizeBaseUrl(baseUrl)).host;
}

function parseDevice(path: string, entry: PlainEntry): DeviceProfile {
  const name = entry.key;
  if (!isValidProfileName(name)) throw fileError(path, entry.keyLine, `invalid device name '${name}'`, FIX_HINT);
  if (!isMapping(entry.value))
    throw fileError(
      path,
      entry.keyLine,
      `device '${name}' must be a mapping of settings (host:, auth:, ...)`,
      FIX_HINT,
    );
  const profile: Record<string, unknown> = { name };
  for (const item of entry.value.value) {
    const setting = SETTINGS.find((s) => s.key === item.key);
    if (!setting)
      throw fileError(
        path,
        item.keyLine,
        `unknown setting '${item.key}' in device '${name}'`,
        `known settings: ${SETTINGS.map((s) => s.key).join(', ')}`,
      );
    try {
      profile[setting.field] = setting.check(item.value.value);
    } catch (err) {
      throw fileError(path, item.value.line, `device '${name}': ${(err as Error).message}`, FIX_HINT);
    }
  }
  if (!profile.host) throw fileError(path, entry.keyLine, `device '${name}' has no host`, FIX_HINT);
  if (!profile.auth) throw fileError(path, entry.keyLine, `device '${name}' has no auth (token or session)`, FIX_HINT);
  if (profile.auth === 'session' && !profile.username)
    throw fileError(path, entry.keyLine, `device '${name}' uses session login but has no username`, FIX_HINT);
  profile.secrets ??= 'keychain';
  return profile as unknown as DeviceProfile;
}

/**
 * Reads config.yaml (synchronously: the profile's VDOM is needed before the first request is built),
 * as cmdb writes it without the yaml package. A missing file is an empty set; a broken one is an
 * error naming the file and line.
 */
export function readProfiles(env: NodeJS.ProcessEnv): ProfileSet {
  const path = profilesPath(env);
  const root = readYamlTree(path, FIX_HINT);
  const set: ProfileSet = { path, defaultName: null, devices: [] };
  if (!root || root.value === null) return set;
  if (!isMapping(root)) throw fileError(path, root.line, 'expected a mapping with default: and devices:', FIX_HINT);
  let defaultLine = 1;
  for (const item of root.value) {
    if (item.key === 'default') {
      defaultLine = item.value.line;
      const value = item.value.value;
      if (value !== null && typeof value !== 'string')
        throw fileError(path, item.value.line, 'default must be the name of a device', FIX_HINT);
      set.defaultName = value;
    } else if (item.key === 'devices') {
      if (item.value.value === null) continue;
      if (!isMapping(item.value))
        throw fileError(path, item.value.line, 'devices must be a mapping of device names to settings', FIX_HINT);
      set.devices = item.value.value.map((entry) => parseDevice(path, entry));
    } else {
      throw fileError(path, item.keyLine, `unknown setting '${item.key}'`, 'the file holds default: and devices:');
    }
  }
  if (set.defaultName !== null && !set.devices.some((d) => d.name === set.defaultName)) {
    throw fileError(path, defaultLine, `default names device '${set.defaultName}', which is not in devices`, FIX_HINT);
  }
  return set;
}

/** Writes config.yaml atomically with mode 0600. */
export function writeProfiles(set: ProfileSet): void {
  const devices: Record<string, Record<string, unknown>> = {};
  for (const profile of set.devices) {
    const entry: Record<string, unknown> = {};
    for (const { key, field } of SETTINGS) {
      if (profile[field] !== undefined) entry[key] = profile[field];
    }
    devices[profile.name] = entry;
  }
  const header = '# cmdb device profiles (cmdb login, cmdb device). No secret is ever kept in this file.\n';
  writePrivateFile(set.path, header + yaml().stringify({ default: set.defaultName, devices }));
}

/**
 * Reads config.yaml, changes it and writes it back while holding its lock, so that cmdb processes
 * running at once (xargs -P, cron, CI) never lose each other's changes. Returns the set written.
 * `waitMs`: how long to wait for another process holding the lock (CMDB_LOCK_TIMEOUT; default the lock's).
 */
export function updateProfiles(
  env: NodeJS.ProcessEnv,
  waitMs: number | undefined,
  change: (set: ProfileSet) => ProfileSet,
): Promise<ProfileSet> {
  return withLock(
    lockFileFor(profilesPath(env)),
    () => {
      const changed = change(readProfiles(env));
      writeProfiles(changed);
      return changed;
    },
    { waitMs },
  );
}

/** The named profile, or a usage error that lists the saved ones. */
export function getProfile(set: ProfileSet, name: string): DeviceProfile {
  const profile = set.devices.find((d) => d.name === name);
  if (profile) return profile;
  const names = set.devices.map((d) => d.name);
  throw new UsageError(
    `no device named '${name}'`,
    names.length
      ? `saved devices: ${names.join(', ')} ('cmdb device list')`
      : "save one with 'cmdb login --host <url>'",
  );
}

export function defaultProfile(set: ProfileSet): DeviceProfile | null {
  return set.devices.find((d) => d.name === set.defaultName) ?? null;
}

/** Adds or replaces a profile; the first one saved becomes the default. */
export function putProfile(set: ProfileSet, profile: DeviceProfile): ProfileSet {
  const devices = set.devices.some((d) => d.name === profile.name)
    ? set.devices.map((d) => (d.name === profile.name ? profile : d))
    : [...set.devices, profile];
  return { ...set, devices, defaultName: set.defaultName ?? profile.name };
}

/** Removes a profile; when it was the default there is no default afterwards. */
export function dropProfile(set: ProfileSet, name: string): ProfileSet {
  getProfile(set, name);
  return {
    ...set,
    devices: set.devices.filter((d) => d.name !== name),
    defaultName: set.defaultName === name ? null : set.defaultName,
  };
}
