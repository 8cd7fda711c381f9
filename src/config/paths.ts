import { homedir } from 'node:os';
import { join } from 'node:path';

function xdg(env: NodeJS.ProcessEnv, variable: string, fallback: string): string {
  const value = env[variable];
  // The XDG spec says relative paths are invalid and must be ignored.
  return value && value.startsWith('/') ? join(value, 'cmdb') : join(env.HOME || homedir(), fallback, 'cmdb');
}

/** Profiles and (with --insecure-storage) credentials: CMDB_CONFIG_DIR, else $XDG_CONFIG_HOME/cmdb. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return env.CMDB_CONFIG_DIR || xdg(env, 'XDG_CONFIG_HOME', '.config');
}

/** State that survives runs but is not configuration: the --demo device. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return xdg(env, 'XDG_STATE_HOME', join('.local', 'state'));
}

/** Disposable data: completion key caches. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return xdg(env, 'XDG_CACHE_HOME', '.cache');
}
