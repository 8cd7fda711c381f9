// One device's settings, merged once: each option a device profile takes part in (host, VDOM, timeout,
// CA file, API prefix) from its flag, then its variable (the run's Settings), then the profile, then
// its default; beside them the profile's pinned certificate and the run's other settings (the waits
// for the keychain and the locks among them). The one place that precedence is worked out.
import type { DeviceProfile } from '../config/profiles.js';
import { GLOBAL_OPTIONS, parsePrefix, VARIABLE_OPTIONS, VARIABLES, type Settings } from '../settings.js';

/** A device's settings: the run's, with what its profile gives merged in (flag, environment, profile, default). */
export type DeviceSettings = Omit<Settings, 'timeoutMs' | 'apiPrefix'> & {
  /** Per-request timeout in milliseconds: flag, CMDB_TIMEOUT, the profile's, then 30 s. */
  readonly timeoutMs: number;
  /** The API prefix, checked when read: login's own --prefix, CMDB_API_PREFIX, then the profile's. */
  readonly apiPrefix: string | undefined;
  /** The profile's pinned certificate (no flag or variable gives one). */
  readonly fingerprint: string | undefined;
};

/** What a profile gives the merge: a saved one, or (login) the one about to be saved. */
export type ProfileSettings = Partial<
  Pick<DeviceProfile, 'host' | 'vdom' | 'timeout' | 'caFile' | 'prefix' | 'fingerprint'>
>;

/**
 * The settings of a device with this profile (null: none, or --demo, whose device has no profile),
 * frozen. `prefixFlag`: login's own --prefix, which comes before CMDB_API_PREFIX.
 */
export function mergeSettings(
  settings: Settings,
  profile: ProfileSettings | null,
  prefixFlag?: string,
): DeviceSettings {
  const merged: Record<string, unknown> = { ...settings };
  for (const o of [...GLOBAL_OPTIONS, ...VARIABLE_OPTIONS]) {
    if (!o.fromProfile) continue;
    const key = o.setting ?? o.name;
    merged[key] = merged[key] ?? (profile ? o.fromProfile(profile) : undefined) ?? o.default;
  }
  merged.fingerprint = profile?.fingerprint;
  const prefix = prefixFlag !== undefined ? parsePrefix(prefixFlag, '--prefix') : undefined;
  // CMDB_API_PREFIX is checked when the prefix is read, to connect: a device that is never connected
  // to (a run that fails first, or talks to none) does not fail on it.
  Object.defineProperty(merged, 'apiPrefix', {
    enumerable: true,
    get: () =>
      prefix ??
      (settings.apiPrefix !== undefined ? parsePrefix(settings.apiPrefix, VARIABLES.apiPrefix) : profile?.prefix),
  });
  return Object.freeze(merged) as DeviceSettings;
}
