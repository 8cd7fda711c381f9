// The schema of a device of another release than 6.4.14, kept in the XDG cache folder between runs:
// one file per device serial number, version and build (a new build is a new file), mode 0600 in a
// folder of mode 0700. Nothing secret is in it: the device's description of its tables. Beside it, the
// release of each device known only by its address (CMDB_HOST, no saved profile).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { DeviceRelease, DeviceTreeEntry } from '../catalogue/device-schema.js';
import { writePrivateFile } from '../files.js';
import { schemaCacheDir } from './paths.js';

const FORMAT = 'cmdb-schema-cache';

export interface SchemaCache {
  format: typeof FORMAT;
  device: DeviceRelease;
  /** The whole tree was read; false: the tree was refused, and tables are added as they are read one at a time. */
  complete: boolean;
  tables: DeviceTreeEntry[];
}

/** `FGVM72TEST000001_v7.2.5_1517.json`: the cache of one device's build (characters unsafe in a file name folded). */
export function schemaCacheFile(env: NodeJS.ProcessEnv, device: DeviceRelease): string {
  const name = [device.serial ?? 'unknown', device.version ?? 'unknown', String(device.build ?? 'unknown')]
    .join('_')
    .replace(/[^A-Za-z0-9._-]/g, '-');
  return join(schemaCacheDir(env), `${name}.json`);
}

function readJson(file: string): unknown {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as unknown;
  } catch {
    // Missing or damaged: a cache is read again from the device.
    return undefined;
  }
}

/** The cached schema of a device's build, or undefined when there is none (or it is damaged). */
export function readSchemaCache(env: NodeJS.ProcessEnv, device: DeviceRelease): SchemaCache | undefined {
  const cache = readJson(schemaCacheFile(env, device)) as Partial<SchemaCache> | undefined;
  if (!cache || cache.format !== FORMAT || !Array.isArray(cache.tables) || typeof cache.complete !== 'boolean')
    return undefined;
  return cache as SchemaCache;
}

/**
 * Writes a device's schema cache atomically (0600; its folder 0700). A cache that cannot be written only costs a read
 * next time.
 */
export function writeSchemaCache(
  env: NodeJS.ProcessEnv,
  device: DeviceRelease,
  complete: boolean,
  tables: DeviceTreeEntry[],
): void {
  const cache: SchemaCache = { format: FORMAT, device, complete, tables };
  try {
    writePrivateFile(schemaCacheFile(env, device), JSON.stringify(cache), { durable: false });
  } catch {
    /* read again next time */
  }
}

function releasesFile(env: NodeJS.ProcessEnv): string {
  return join(schemaCacheDir(env), 'releases.json');
}

/** The release last seen at a device address without a saved profile (`CMDB_HOST`). */
export function readHostRelease(env: NodeJS.ProcessEnv, host: string): DeviceRelease | undefined {
  const releases = readJson(releasesFile(env));
  const release = releases && typeof releases === 'object' ? (releases as Record<string, unknown>)[host] : undefined;
  return release && typeof release === 'object' ? (release as DeviceRelease) : undefined;
}

/** Remembers the release seen at a device address without a saved profile. */
export function writeHostRelease(env: NodeJS.ProcessEnv, host: string, release: DeviceRelease): void {
  const releases = readJson(releasesFile(env));
  const all =
    releases && typeof releases === 'object' && !Array.isArray(releases) ? (releases as Record<string, unknown>) : {};
  try {
    writePrivateFile(releasesFile(env), JSON.stringify({ ...all, [host]: release }), { durable: false });
  } catch {
    /* learned again next time */
  }
}
