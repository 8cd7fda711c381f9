// `cmdb __complete` before the program loads (bin/cmdb.js runs this from dist/src/bundle/complete.cjs,
// scripts/bundle.js): every answer that needs no device and no profile file (commands, options, tables,
// fields, values), and keys from a fresh cache entry, written with one write to file descriptor 1.
// Whatever it cannot answer so (keys not cached, device names, VDOMs), it leaves to the program
// (complete.ts), which answers the same request as if this had not run: nothing is written before.
import { existsSync } from 'node:fs';
import { SHIPPED_CATALOGUE, usesShipped } from '../catalogue/provider.js';
import { processEnv, resolveSettings } from '../settings.js';
import { schemaCacheDir } from '../config/paths.js';
import { writeStdout } from '../output/stdout.js';
import { cacheFile, deviceIdentity, readCache } from './cache.js';
import { complete, type Sources } from './engine.js';
import { formatCompletion } from './format.js';
import { SHELLS, type Shell } from '../grammar/types.js';
import { PROGRAM } from './program.js';
import { readRequest } from './words.js';

/** Thrown by a source that needs the program: the request goes to complete.ts. */
class NeedsProgram extends Error {}

const cachedOnly = (env: NodeJS.ProcessEnv): Sources => ({
  // While no device of another release than 6.4.14 was met, every device uses the shipped catalogue;
  // else the profile says (its release), and the program reads the cached schema of another release.
  catalogue: async (line) => {
    if (!existsSync(schemaCacheDir(env))) return SHIPPED_CATALOGUE;
    const profile = (await import('../device/early.js')).selectedProfileEarly(resolveSettings({ ...line }, env), env);
    if (profile === null || (profile && usesShipped(profile))) return SHIPPED_CATALOGUE;
    throw new NeedsProgram();
  },
  // As sources.ts's deviceKeys() reads the cache, from the same settings.
  keys: async (table, line) => {
    const settings = resolveSettings({ ...line }, env);
    const vdom = settings.vdomText ?? '';
    const device = deviceIdentity(settings, env);
    const keys = readCache(cacheFile(env, device, vdom, table.path), Date.now(), device, vdom, table.path);
    if (keys === undefined) {
      // The program asks the device: its credential's keychain read starts now, before the program loads.
      (await import('../device/early.js')).readKeychainEarly(settings, env);
      throw new NeedsProgram();
    }
    return keys ?? [];
  },
  devices: () => Promise.reject(new NeedsProgram()),
  vdoms: () => Promise.reject(new NeedsProgram()),
});

/**
 * Answers `cmdb __complete <shell> -- <words>` (args after `__complete`) if it can without the
 * program; false when the program must. Prints exactly what completeCommand() would.
 */
export async function completeQuickly(args: string[], env: NodeJS.ProcessEnv = processEnv()): Promise<boolean> {
  const shell = args[0] as Shell;
  const separator = args.indexOf('--');
  if (!SHELLS.includes(shell) || separator < 0) return true;
  let text: string;
  try {
    const request = readRequest(shell, args.slice(separator + 1), env);
    if (!request) return true;
    text = formatCompletion(
      shell,
      await complete(PROGRAM, request.words, request.current.value, cachedOnly(env)),
      request.current,
    );
  } catch {
    // Not only NeedsProgram: whatever went wrong here, the program decides (it prints nothing).
    return false;
  }
  if (text) writeStdout(text);
  return true;
}
