// Which device a run talks to: the saved profile -d names (or the one saved for --host, or the
// default), several when -d names a list or patterns, where its connection goes, and where its
// credential comes from.
import { join } from 'node:path';
import { normalizeBaseUrl } from '../api/url.js';
import { stateDir } from '../config/paths.js';
import { defaultProfile, getProfile, readProfiles, type DeviceProfile, type ProfileSet } from '../config/profiles.js';
import { AuthError, UsageError } from '../errors.js';
import { environmentCredential, type Settings } from '../settings.js';
import type { DeviceSettings } from './settings.js';
import type { DeviceSetup } from './setup.js';

/** Where the credential of this run comes from: the environment wins over the profile. */
export type CredentialSource = 'CMDB_TOKEN' | 'CMDB_USERNAME' | 'profile';

/** Where a connection goes and how, from a device's merged settings. No secret here. */
export interface Endpoint {
  host: string;
  prefix: string | undefined;
  caFile: string | undefined;
  fingerprint: string | undefined;
  timeoutMs: number;
}

/** Which device, where its connection goes, and where its credential comes from. */
export interface Target extends Endpoint {
  profile: DeviceProfile | null;
  credential: CredentialSource;
}

/** The endpoint at `host` with a device's merged settings (flag, environment, profile, default). */
export function endpointOf(settings: DeviceSettings, host: string): Endpoint {
  return {
    host,
    prefix: settings.apiPrefix,
    caFile: settings.caFile,
    fingerprint: settings.fingerprint,
    timeoutMs: settings.timeoutMs,
  };
}

/** The --demo device's state file; deleting it resets the demo. */
export function demoStateFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), 'demo-state.json');
}

/** `fw.example` → `https://fw.example`, for comparing with a profile's host; unparsable input is kept as is. */
export function sameHost(a: string, b: string): boolean {
  const norm = (h: string) => {
    try {
      return normalizeBaseUrl(h);
    } catch {
      return h;
    }
  };
  return norm(a) === norm(b);
}

/** The profile of the device named (-d/CMDB_DEVICE), else of the host (--host/CMDB_HOST), else the default. */
export function profileFor(set: ProfileSet, name: string | undefined, host: string | undefined): DeviceProfile | null {
  if (!name) return host ? (set.devices.find((d) => sameHost(host, d.host)) ?? null) : defaultProfile(set);
  const profile = getProfile(set, name);
  if (host && !sameHost(host, profile.host)) {
    throw new UsageError(
      `device '${name}' is ${profile.host}, but --host/CMDB_HOST names ${host}`,
      'a saved credential is only sent to its own device: drop --host (or CMDB_HOST), or -d (or CMDB_DEVICE)',
    );
  }
  return profile;
}

/** The saved device profile, or a usage error when there is none to act on. */
export function requireProfile(device: Pick<DeviceSetup, 'profile'>, command: string): DeviceProfile {
  const profile = device.profile;
  if (!profile)
    throw new UsageError(
      `no saved device to ${command}`,
      "name one with -d <name> (see 'cmdb device list'), or log in first with 'cmdb login'",
    );
  return profile;
}

/** The device this run talks to, with its credential's source; exit 4 when there is none. */
export function resolveTarget(device: DeviceSetup): Target {
  const profile = device.profile;
  const host = device.settings.host ?? profile?.host;
  if (!host) {
    throw new AuthError(
      'no device to talk to',
      "log in with 'cmdb login --host <url> --token-stdin', set CMDB_HOST and CMDB_TOKEN, " +
        'or try the built-in device with --demo',
    );
  }
  const fromEnv = environmentCredential(device.settings);
  const credential: CredentialSource | null =
    fromEnv?.kind === 'token'
      ? 'CMDB_TOKEN'
      : fromEnv?.kind === 'session'
        ? 'CMDB_USERNAME'
        : profile
          ? 'profile'
          : null;
  if (!credential) {
    throw new AuthError(
      `no credential for ${host}`,
      `set CMDB_TOKEN to an API token, or log in with 'cmdb login --host ${host}'`,
    );
  }
  if (fromEnv?.kind === 'session' && !fromEnv.password) {
    throw new AuthError(
      'CMDB_USERNAME is set but CMDB_PASSWORD is not',
      'set both for a session login from the environment, or unset CMDB_USERNAME',
    );
  }
  return { ...endpointOf(device.merged, host), profile, credential };
}

const GLOB = /[*?[]/;

/** Whether -d/CMDB_DEVICE may name several devices (a comma list or a pattern); a plain name never does. */
export function namesSeveral(value: string | undefined): boolean {
  return value !== undefined && (value.includes(',') || GLOB.test(value));
}

/** A shell-style pattern (`*`, `?`, `[a-z]`, `[!0-9]`) as an anchored regular expression. */
export function globPattern(pattern: string): RegExp {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else if (c === '[') {
      const end = pattern.indexOf(']', i + 2);
      if (end < 0) source += '\\[';
      else {
        let set = pattern.slice(i + 1, end);
        if (set.startsWith('!')) set = '^' + set.slice(1);
        source += `[${set.replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else source += c.replace(/[.+^${}()|\\\]]/g, '\\$&');
  }
  return new RegExp(`^${source}$`);
}

/**
 * The saved profiles -d/CMDB_DEVICE names when it names several: each comma-separated item is a
 * saved name, or a shell-style pattern matched against the saved names (in the file's order). A
 * name or pattern that matches no saved profile is a usage error listing them; nothing is sent.
 * Returns null when the value is one plain name (or absent): the run is about one device.
 */
export function selectedProfiles(settings: Settings, env: NodeJS.ProcessEnv): DeviceProfile[] | null {
  const value = settings.device;
  if (!namesSeveral(value)) return null;
  const set = readProfiles(env);
  const names = set.devices.map((d) => d.name);
  const saved = names.length
    ? `saved devices: ${names.join(', ')} ('cmdb device list')`
    : "no device is saved yet: add one with 'cmdb login --host <url>'";
  const items = value!.split(',').map((item) => item.trim());
  const chosen = new Map<string, DeviceProfile>();
  for (const item of items) {
    if (!item)
      throw new UsageError(`-d '${value}' has an empty name`, 'separate device names and patterns with single commas');
    const exact = set.devices.find((d) => d.name === item);
    const matches = exact ? [exact] : GLOB.test(item) ? set.devices.filter((d) => globPattern(item).test(d.name)) : [];
    if (!matches.length)
      throw new UsageError(GLOB.test(item) ? `no saved device matches '${item}'` : `no device named '${item}'`, saved);
    for (const profile of matches) chosen.set(profile.name, profile);
  }
  if (settings.host) {
    throw new UsageError(
      `-d '${value}' names several devices, but --host/CMDB_HOST names one`,
      'a saved credential is only sent to its own device: drop --host (or CMDB_HOST)',
    );
  }
  return [...chosen.values()];
}
