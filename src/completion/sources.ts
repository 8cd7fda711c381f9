// The candidates only the device or the profiles know: saved devices, VDOMs, a table's keys (read
// from the device within Tab's deadline, and cached).
import type { TableDef } from '../catalogue/index.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { Device } from '../device/device.js';
import { resolveSettings, variableSetting } from '../settings.js';
import { writePrivateFile } from '../files.js';
import { readProfiles } from '../config/profiles.js';
import { cacheFile, deviceIdentity, readCache, type CacheEntry } from './cache.js';
import type { LineOptions, Sources } from './engine.js';

/**
 * The device the line names, resolved as commands resolve it. Options that would not suit completion
 * are dropped (verbose output, a long timeout), and it must print nothing but candidates: warnings go
 * nowhere, and nobody is asked anything.
 */
function lineDevice(env: NodeJS.ProcessEnv, line: LineOptions): Device {
  return new Device({
    settings: resolveSettings({ ...line, timeout: variableSetting(env, 'completionTimeout'), verbose: false }, env),
    env,
    warn: () => undefined,
    exchange: () => undefined,
    ask: async () => null,
  });
}

/** Written to a temporary file and renamed, so a concurrent Tab never reads half a file. */
function writeCache(file: string, entry: CacheEntry): void {
  try {
    // A cache: not flushed to disk (a lost or unreadable entry is a miss).
    writePrivateFile(file, JSON.stringify(entry), { durable: false });
  } catch {
    /* a cache that cannot be written only costs speed */
  }
}

/** Settles with the work, or rejects once `ms` have passed (the work is left to its own timeout). */
async function withDeadline<T>(work: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('completion deadline')), ms);
  });
  work.catch(() => undefined);
  try {
    return await Promise.race([work, deadline]);
  } finally {
    clearTimeout(timer);
  }
}

/** `GET <table>?format=<key>`: only the key field of every object, in every VDOM asked for. */
async function askDevice(device: Device, tablePath: string, keyField: string, global: boolean): Promise<string[]> {
  const client = await device.client();
  const vdom = global ? undefined : device.vdoms;
  const result = await client.request({
    method: 'GET',
    tablePath,
    query: { ...(vdom ? { vdom } : {}), format: [keyField] },
  });
  const keys = result.envelopes.flatMap((e) =>
    (Array.isArray(e.results) ? (e.results as Record<string, unknown>[]) : []).map((r) => r[keyField]),
  );
  return keys.filter((k) => typeof k === 'string' || typeof k === 'number').map(String);
}

interface KeyRequest {
  tablePath: string;
  keyField: string;
  /** A table outside any VDOM (system/vdom): no vdom parameter, one cache entry per device. */
  global?: boolean;
}

/** The keys of a table on the device the line names, from the cache when fresh; [] when anything fails. */
async function deviceKeys(target: Device, request: KeyRequest): Promise<string[]> {
  const now = Date.now();
  const vdom = request.global ? '' : (target.settings.vdomText ?? '');
  const device = deviceIdentity(target.settings, target.env);
  const file = cacheFile(target.env, device, vdom, request.tablePath);
  const cached = readCache(file, now, device, vdom, request.tablePath);
  if (cached !== undefined) return cached ?? [];
  let keys: string[] | null = null;
  try {
    keys = await withDeadline(
      askDevice(target, request.tablePath, request.keyField, !!request.global),
      target.timeoutMs + 500,
    );
  } catch {
    keys = null;
  } finally {
    await withDeadline(target.close(), 200).catch(() => undefined);
  }
  writeCache(file, { fetchedAt: now, keys, device, vdom, table: request.tablePath });
  return keys ?? [];
}

/** Names and VDOMs of the saved device profiles; none when the file is missing or broken. */
async function profiles(env: NodeJS.ProcessEnv): Promise<{ names: string[]; vdoms: string[] }> {
  try {
    const { devices } = readProfiles(env);
    return { names: devices.map((d) => d.name), vdoms: devices.flatMap((d) => (d.vdom ? d.vdom.split(',') : [])) };
  } catch {
    return { names: [], vdoms: [] };
  }
}

/** The VDOMs of the `--demo` device: the emulator's defaults, as connect() starts it. */
const DEMO_VDOMS = ['root', 'dmz'];

/**
 * VDOM names. The demo's are known. Otherwise `root`, those of the profiles and CMDB_VDOM, and the
 * device's own from `system/vdom` (one cached request, like keys; a device without that table adds none).
 */
async function vdomNames(env: NodeJS.ProcessEnv, line: LineOptions): Promise<string[]> {
  const target = lineDevice(env, line);
  if (target.demo) return DEMO_VDOMS;
  const [saved, device] = await Promise.all([
    profiles(env),
    deviceKeys(target, { tablePath: 'system/vdom', keyField: 'name', global: true }),
  ]);
  const fromEnv = (target.settings.vdomText ?? '').split(',').map((v) => v.trim());
  return [...new Set(['root', ...saved.vdoms, ...fromEnv, ...device])].filter((v) => v && v !== '*');
}

/** Candidates that come from outside the catalogue: the device and the profile file. */
export function deviceSources(env: NodeJS.ProcessEnv): Sources {
  let catalogue: Promise<Catalogue> | undefined;
  return {
    // Tab sends nothing for it: the device's cached schema, else the shipped catalogue.
    catalogue: (line: LineOptions) =>
      (catalogue ??= import('../device/catalogue.js').then(({ cachedCatalogue }) => {
        try {
          return cachedCatalogue(lineDevice(env, line)) ?? SHIPPED_CATALOGUE;
        } catch {
          return SHIPPED_CATALOGUE;
        }
      })),
    // A line whose options cannot be read (a bad --timeout, say) completes no keys and no VDOMs of the device.
    keys: async (table: TableDef, line: LineOptions) =>
      deviceKeys(lineDevice(env, line), { tablePath: table.path, keyField: table.key! }).catch(() => []),
    devices: async () => (await profiles(env)).names,
    vdoms: (line: LineOptions) => vdomNames(env, line).catch(() => []),
  };
}
