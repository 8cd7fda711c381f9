// The catalogue of a run's device (CLI.md, "Every table the device has"): the shipped 6.4.14 one for a
// 6.4.14 device; the device's own schema, cached per serial number, version and build, for any other
// release; the shipped one while the release is not known yet, with each table it lacks looked up in the
// device's schema before anything is sent to it. The release is known before any request: the profile
// keeps it (`cmdb login`), and every answer's envelope carries it, remembered when the run ends.
import type { ApiResult } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { normalizeBaseUrl } from '../api/url.js';
import {
  isTreeAnswer,
  releaseOf,
  treeEntries,
  type DeviceRelease,
  type DeviceTableSchema,
} from '../catalogue/device-schema.js';
import type { TableDef } from '../catalogue/index.js';
import { DeviceCatalogue, entryOf, SHIPPED_CATALOGUE, usesShipped, type Catalogue } from '../catalogue/provider.js';
import { updateProfiles, type DeviceProfile } from '../config/profiles.js';
import { readHostRelease, readSchemaCache, writeHostRelease, writeSchemaCache } from '../config/schema-cache.js';
import type { DeviceSetup } from './setup.js';

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function hostKey(host: string): string {
  try {
    return normalizeBaseUrl(host);
  } catch {
    return host;
  }
}

function profileRelease(profile: DeviceProfile): DeviceRelease | undefined {
  return profile.version ? { version: profile.version, build: profile.build, serial: profile.serial } : undefined;
}

/**
 * The release of the run's device as known before any request: its profile's, else the one last seen at its address.
 */
export function knownRelease(dev: DeviceSetup): DeviceRelease | undefined {
  if (dev.demo) return undefined;
  const profile = dev.profile;
  if (profile) return profileRelease(profile);
  const host = dev.settings.host;
  return host ? readHostRelease(dev.env, hostKey(host)) : undefined;
}

/** One table's schema from the device (`GET <table>?action=schema`); undefined when the device has none to give. */
async function readTableSchema(dev: DeviceSetup, tablePath: string): Promise<DeviceTableSchema | undefined> {
  try {
    const result = await (await dev.client()).request({ method: 'GET', tablePath, query: { action: 'schema' } });
    const schema = result.envelopes[0]?.results;
    return isObject(schema) && !isTreeAnswer(result.body) ? schema : undefined;
  } catch (err) {
    // A table the device lacks, or whose schema the caller may not read: sent as a path nobody knows.
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** The shipped catalogue, with a table it lacks looked up in the device's schema (the release is not known yet). */
function assumedShipped(dev: DeviceSetup): Catalogue {
  return {
    ...SHIPPED_CATALOGUE,
    lookup: async (path) => {
      const schema = await readTableSchema(dev, path);
      return schema ? new DeviceCatalogue({}).add(entryOf(path, schema)) : undefined;
    },
  };
}

/** Tables read one at a time (the tree was refused): each added to the catalogue and to its cache. */
function lookingUp(dev: DeviceSetup, catalogue: DeviceCatalogue): DeviceCatalogue {
  catalogue.lookup = async (path): Promise<TableDef | undefined> => {
    const schema = await readTableSchema(dev, path);
    if (!schema) return undefined;
    catalogue.add(entryOf(path, schema));
    writeSchemaCache(dev.env, catalogue.device, false, catalogue.tree());
    return catalogue.find(path);
  };
  return catalogue;
}

/**
 * The whole tree from the device (`GET <prefix>?action=schema`), written to the cache of the release
 * its answer reports; a device that refuses it (403, or a release without it) is read a table at a time.
 */
async function readDeviceSchema(dev: DeviceSetup, assumed: DeviceRelease): Promise<Catalogue> {
  const client = await dev.client();
  try {
    const result = await client.request({ method: 'GET', tablePath: '', query: { action: 'schema' } });
    if (isTreeAnswer(result.body)) return treeCatalogue(dev, { ...assumed, ...releaseOf(result.body) }, result.body);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 401 || err.status >= 500) throw err;
  }
  const device = { ...assumed, ...client.release };
  // No release to key a cache by: the shipped catalogue, a table it lacks looked up.
  if (usesShipped(device)) return device.version ? SHIPPED_CATALOGUE : assumedShipped(dev);
  const cached = readSchemaCache(dev.env, device);
  writeSchemaCache(dev.env, device, false, cached?.tables ?? []);
  return lookingUp(dev, new DeviceCatalogue(device, cached?.tables ?? []));
}

/** The catalogue of a whole-tree answer, written to its release's cache; a 6.4.14 device's is the shipped one. */
function treeCatalogue(dev: DeviceSetup, device: DeviceRelease, answer: unknown): Catalogue {
  if (usesShipped(device) && device.version) return SHIPPED_CATALOGUE;
  const entries = treeEntries(answer);
  writeSchemaCache(dev.env, device, true, entries);
  return new DeviceCatalogue(device, entries);
}

/**
 * `cmdb schema --all`: the whole tree as the device answers it (for --raw), which also rewrites the
 * cache of a device of another release.
 */
export async function readSchemaTree(dev: DeviceSetup): Promise<ApiResult> {
  const result = await (await dev.client()).request({ method: 'GET', tablePath: '', query: { action: 'schema' } });
  if (isTreeAnswer(result.body)) treeCatalogue(dev, { ...knownRelease(dev), ...releaseOf(result.body) }, result.body);
  return result;
}

/** `cmdb schema <table> --refresh`: one table's schema answer put in the cache of a device of another release. */
export function refreshTableSchema(dev: DeviceSetup, tablePath: string, result: ApiResult): void {
  const device = { ...knownRelease(dev), ...releaseOf(result.body) };
  const schema = result.envelopes[0]?.results;
  if ((usesShipped(device) && device.version) || !isObject(schema)) return;
  const cached = readSchemaCache(dev.env, device);
  const catalogue = new DeviceCatalogue(device, cached?.tables ?? []);
  catalogue.add(entryOf(tablePath, schema));
  writeSchemaCache(dev.env, device, cached?.complete ?? false, catalogue.tree());
}

/** The catalogue of a device of another release: its cached schema, else read from it now. */
async function deviceSchema(dev: DeviceSetup, release: DeviceRelease, refresh: boolean): Promise<Catalogue> {
  const cached = refresh ? undefined : readSchemaCache(dev.env, release);
  if (cached) {
    const catalogue = new DeviceCatalogue(cached.device, cached.tables);
    return cached.complete ? catalogue : lookingUp(dev, catalogue);
  }
  return readDeviceSchema(dev, release);
}

/**
 * The catalogue of the run's device, as a plain value for the command. `refresh` reads a device of
 * another release's schema again (and rewrites its cache).
 */
export async function catalogueFor(dev: DeviceSetup, options: { refresh?: boolean } = {}): Promise<Catalogue> {
  if (dev.demo) return SHIPPED_CATALOGUE;
  const release = knownRelease(dev);
  if (usesShipped(release)) {
    if (release?.version) return SHIPPED_CATALOGUE;
    return options.refresh ? readDeviceSchema(dev, {}) : assumedShipped(dev);
  }
  return deviceSchema(dev, release!, !!options.refresh);
}

/**
 * The catalogue of the run's device without sending anything (`cmdb tables -d fw`, Tab): the shipped
 * one for a 6.4.14 device (or one whose release is not known yet), else the device's cached schema;
 * undefined when none is cached.
 */
export function cachedCatalogue(dev: DeviceSetup): Catalogue | undefined {
  const release = knownRelease(dev);
  if (usesShipped(release)) return SHIPPED_CATALOGUE;
  const cached = readSchemaCache(dev.env, release!);
  return cached ? new DeviceCatalogue(cached.device, cached.tables) : undefined;
}

/**
 * Whether two releases call for the same catalogue file: 6.4.14 (or not known) both, or the same build of the same
 * device.
 */
function sameCatalogue(known: DeviceRelease | undefined, seen: DeviceRelease): boolean {
  if (usesShipped(known) && usesShipped(seen)) return true;
  return known?.version === seen.version && known?.build === seen.build && known?.serial === seen.serial;
}

/**
 * At the end of a run: the release the device's answers carried, kept for the next run when it calls
 * for another catalogue than the one known (a device upgraded, another device at the same address, a
 * first run). In the profile, else by address in the cache folder. Never fails the run.
 */
export async function rememberRelease(dev: DeviceSetup, seen: DeviceRelease): Promise<void> {
  try {
    if (dev.demo) return;
    const profile = dev.profile;
    const release = { version: seen.version, build: seen.build, serial: seen.serial };
    if (profile) {
      if (sameCatalogue(profileRelease(profile), release)) return;
      await updateProfiles(dev.env, dev.settings.lockTimeoutMs, (set) => ({
        ...set,
        devices: set.devices.map((d) => (d.name === profile.name ? { ...d, ...release } : d)),
      }));
    } else if (dev.settings.host) {
      const host = hostKey(dev.settings.host);
      if (!sameCatalogue(readHostRelease(dev.env, host), release)) writeHostRelease(dev.env, host, release);
    }
  } catch {
    /* learned again next run */
  }
}
