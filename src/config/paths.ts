// Where cmdb keeps its files: the configuration, state and cache folders (XDG, or CMDB_CONFIG_DIR).
import { homedir } from 'node:os';
import { join } from 'node:path';
import { variable, type Variable } from '../settings.js';

function xdg(env: NodeJS.ProcessEnv, name: Variable, fallback: string): string {
  const value = variable(env, name);
  // The XDG spec says relative paths are invalid and must be ignored.
  return value?.startsWith('/') ? join(value, 'cmdb') : join(variable(env, 'home') || homedir(), fallback, 'cmdb');
}

/** Profiles and (with --insecure-storage) credentials: CMDB_CONFIG_DIR, else $XDG_CONFIG_HOME/cmdb. */
export function configDir(env: NodeJS.ProcessEnv): string {
  return variable(env, 'configDir') || xdg(env, 'xdgConfig', '.config');
}

/** The profile file (config.yaml) in the configuration folder. */
export function profilesPath(env: NodeJS.ProcessEnv): string {
  return join(configDir(env), 'config.yaml');
}

/** State that survives runs but is not configuration: the --demo device. */
export function stateDir(env: NodeJS.ProcessEnv): string {
  return xdg(env, 'xdgState', join('.local', 'state'));
}

/** Disposable data: completion key caches. */
export function cacheDir(env: NodeJS.ProcessEnv): string {
  return xdg(env, 'xdgCache', '.cache');
}

/** The schemas of devices of other releases than 6.4.14 (absent while no such device was met). */
export function schemaCacheDir(env: NodeJS.ProcessEnv): string {
  return join(cacheDir(env), 'schema');
}
