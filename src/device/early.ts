// The keychain read of a run's saved credential, started as soon as the run knows its device: the lookup
// tool's child (config/lookup.ts, ~15-40 ms) then runs while the rest of the program and the HTTP stack
// load, and the read the device layer makes later takes it over. Tab (completion/quick.ts) starts it on a
// key cache miss, before the program is loaded; main() once the command line is read.
import type { Settings } from '../settings.js';
import { credentialAccount, sessionAccount, startEarlyLookup } from '../config/lookup.js';
import { readProfiles, type DeviceProfile } from '../config/profiles.js';
import { profileFor } from './select.js';

/**
 * For Tab before the program loads: the saved profile these settings select (null: none, or --demo),
 * or undefined when the device is known only by its address or the profile file cannot be read (the
 * program decides).
 */
export function selectedProfileEarly(settings: Settings, env: NodeJS.ProcessEnv): DeviceProfile | null | undefined {
  if (settings.demo) return null;
  try {
    const profile = profileFor(readProfiles(env), settings.device, settings.host);
    return profile ?? (settings.host ? undefined : null);
  } catch {
    return undefined;
  }
}

/**
 * Starts reading the keychain for the device these settings select, as resolveTarget() selects it, when
 * that is where its credential comes from: a token profile's token, a session profile's saved session
 * (read first; the password only if the session has ended). Never throws: whatever is wrong (no such
 * device, a broken profile file) is the run's to report, in its turn.
 */
export function readKeychainEarly(
  settings: Settings,
  env: NodeJS.ProcessEnv,
  // How the run selects its profile: main() passes its Device's, which the command then reuses
  // (the profile file is read once).
  select: () => DeviceProfile | null = () => profileFor(readProfiles(env), settings.device, settings.host),
): void {
  try {
    if (settings.demo || settings.credential) return;
    const profile = select();
    if (profile?.secrets !== 'keychain') return;
    startEarlyLookup(
      profile.auth === 'token' ? credentialAccount(profile.name) : sessionAccount(profile.name),
      env,
      settings.keychainTimeoutMs,
    );
  } catch {
    // reported by the run
  }
}
