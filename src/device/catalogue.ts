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
import type { Context } from '../cli/context.js';
import { updateProfiles, type DeviceProfile } from '../config/profiles.js';
import { readHostRelease, readSchemaCache, writeHostRelease, writeSchemaCache } from '../config/schema-cache.js';
import { selectedProfile } from './select.js';

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
export function knownRelease(ctx: Context): DeviceRelease | undefined {
  if (ctx.demo) return undefined;
  const profile = selectedProfile(ctx);
  if (profile) return profileRelease(profile);
  const host = ctx.settings.host;
  return host ? readHostRelease(ctx.env, hostKey(host)) : undefined;
}

/** One table's schema from the device (`GET <table>?action=schema`); undefined when the device has none to give. */
async function readTableSchema(ctx: Context, tablePath: string): Promise<DeviceTableSchema | undefined> {
  try {
    const result = await (await ctx.client()).request({ method: 'GET', tablePath, query: { action: 'schema' } });
    const schema = result.envelopes[0]?.results;
    return isObject(schema) && !isTreeAnswer(result.body) ? schema : undefined;
  } catch (err) {
    // A table the device lacks, or whose schema the caller may not read: sent as a path nobody knows.
    if (err instanceof ApiError) return undefined;
    throw err;
  }
}

/** The shipped catalogue, with a table it lacks looked up in the device's schema (the release is not known yet). */
function assumedShipped(ctx: Context): Catalogue {
  return {
    ...SHIPPED_CATALOGUE,
    lookup: async (path) => {
      const schema = await readTableSchema(ctx, path);
      return schema ? new DeviceCatalogue({}).add(entryOf(path, schema)) : undefined;
    },
  };
}

/** Tables read one at a time (the tree was refused): each added to the catalogue and to its cache. */
function lookingUp(ctx: Context, catalogue: DeviceCatalogue): DeviceCatalogue {
  catalogue.lookup = async (path): Promise<TableDef | undefined> => {
    const schema = await readTableSchema(ctx, path);
    if (!schema) return undefined;
    catalogue.add(entryOf(path, schema));
    writeSchemaCache(ctx.env, catalogue.device, false, catalogue.tree());
    return catalogue.find(path);
  };
  return catalogue;
}

/**
 * The whole tree from the device (`GET <prefix>?action=schema`), written to the cache of the release
 * its answer reports; a device that refuses it (403, or a release without it) is read a table at a time.
 */
async function readDeviceSchema(ctx: Context, assumed: DeviceRelease): Promise<Catalogue> {
  const client = await ctx.client();
  try {
    const result = await client.request({ method: 'GET', tablePath: '', query: { action: 'schema' } });
    if (isTreeAnswer(result.body)) return treeCatalogue(ctx, { ...assumed, ...releaseOf(result.body) }, result.body);
  } catch (err) {
    if (!(err instanceof ApiError) || err.status === 401 || err.status >= 500) throw err;
  }
  const device = { ...assumed, ...client.release };
  // No release to key a cache by: the shipped catalogue, a table it lacks looked up.
  if (usesShipped(device)) return device.version ? SHIPPED_CATALOGUE : assumedShipped(ctx);
  const cached = readSchemaCache(ctx.env, device);
  writeSchemaCache(ctx.env, device, false, cached?.tables ?? []);
  return lookingUp(ctx, new DeviceCatalogue(device, cached?.tables ?? []));
}

/** The catalogue of a whole-tree answer, written to its release's cache; a 6.4.14 device's is the shipped one. */
function treeCatalogue(ctx: Context, device: DeviceRelease, answer: unknown): Catalogue {
  if (usesShipped(device) && device.version) return SHIPPED_CATALOGUE;
  const entries = treeEntries(answer);
  writeSchemaCache(ctx.env, device, true, entries);
  return new DeviceCatalogue(device, entries);
}

/**
 * `cmdb schema --all`: the whole tree as the device answers it (for --raw), which also rewrites the
 * cache of a device of another release.
 */
export async function readSchemaTree(ctx: Context): Promise<ApiResult> {
  const result = await (await ctx.client()).request({ method: 'GET', tablePath: '', query: { action: 'schema' } });
  if (isTreeAnswer(result.body)) treeCatalogue(ctx, { ...knownRelease(ctx), ...releaseOf(result.body) }, result.body);
  return result;
}

/** `cmdb schema <table> --refresh`: one table's schema answer put in the cache of a device of another release. */
export function refreshTableSchema(ctx: Context, tablePath: string, result: ApiResult): void {
  const device = { ...knownRelease(ctx), ...releaseOf(result.body) };
  const schema = result.envelopes[0]?.results;
  if ((usesShipped(device) && device.version) || !isObject(schema)) return;
  const cached = readSchemaCache(ctx.env, device);
  const catalogue = new DeviceCatalogue(device, cached?.tables ?? []);
  catalogue.add(entryOf(tablePath, schema));
  writeSchemaCache(ctx.env, device, cached?.complete ?? false, catalogue.tree());
}

/** The catalogue of a device of another release: its cached schema, else read from it now. */
async function deviceSchema(ctx: Context, release: DeviceRelease, refresh: boolean): Promise<Catalogue> {
  const cached = refresh ? undefined : readSchemaCache(ctx.env, release);
  if (cached) {
    const catalogue = new DeviceCatalogue(cached.device, cached.tables);
    return cached.complete ? catalogue : lookingUp(ctx, catalogue);
  }
  return readDeviceSchema(ctx, release);
}

/**
 * The catalogue of the run's device, as a plain value for the command. `refresh` reads a device of
 * another release's schema again (and rewrites its cache).
 */
export async function catalogueFor(ctx: Context, options: { refresh?: boolean } = {}): Promise<Catalogue> {
  if (ctx.demo) return SHIPPED_CATALOGUE;
  const release = knownRelease(ctx);
  if (usesShipped(release)) {
    if (release?.version) return SHIPPED_CATALOGUE;
    return options.refresh ? readDeviceSchema(ctx, {}) : assumedShipped(ctx);
  }
  return deviceSchema(ctx, release!, !!options.refresh);
}

/**
 * The catalogue of the run's device without sending anything (`cmdb tables -d fw`, Tab): the shipped
 * one for a 6.4.14 device (or one whose release is not known yet), else the device's cached schema;
 * undefined when none is cached.
 */
export function cachedCatalogue(ctx: Context): Catalogue | undefined {
  const release = knownRelease(ctx);
  if (usesShipped(release)) return SHIPPED_CATALOGUE;
  const cached = readSchemaCache(ctx.env, release!);
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
export async function rememberRelease(ctx: Context, seen: DeviceRelease): Promise<void> {
  try {
    if (ctx.demo) return;
    const profile = selectedProfile(ctx);
    const release = { version: seen.version, build: seen.build, serial: seen.serial };
    if (profile) {
      if (sameCatalogue(profileRelease(profile), release)) return;
      await updateProfiles(ctx.env, (set) => ({
        ...set,
        devices: set.devices.map((d) => (d.name === profile.name ? { ...d, ...release } : d)),
      }));
    } else if (ctx.settings.host) {
      const host = hostKey(ctx.settings.host);
      if (!sameCatalogue(readHostRelease(ctx.env, host), release)) writeHostRelease(ctx.env, host, release);
    }
  } catch {
    /* learned again next run */
  }
}
