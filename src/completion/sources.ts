import { Readable } from 'node:stream';
import type { TableDef } from '../catalogue/index.js';
import { SHIPPED_CATALOGUE, type Catalogue } from '../catalogue/provider.js';
import { Context, type IO } from '../cli/context.js';
import { completionTimeout } from '../cli/options.js';
import { writePrivateFile } from '../files.js';
import { readProfiles } from '../config/profiles.js';
import { cacheFile, deviceIdentity, readCache, type CacheEntry } from './cache.js';
import type { LineOptions, Sources } from './engine.js';

const discard = { write: () => true };
/** Completion must print nothing but candidates: warnings, --verbose exchanges and errors go nowhere. */
const SILENT: IO = { stdout: discard, stderr: discard, stdin: Readable.from([]) as IO['stdin'] };

/** Options that would not suit completion are dropped: verbose output, a long timeout. */
function completionContext(env: NodeJS.ProcessEnv, line: LineOptions): Context {
  return new Context(SILENT, env, { ...line, timeout: completionTimeout(env), verbose: false });
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
async function askDevice(ctx: Context, tablePath: string, keyField: string, global: boolean): Promise<string[]> {
  const client = await ctx.client();
  const vdom = global ? undefined : ctx.vdoms();
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

/** A Context for the device the line names, resolved as commands resolve it (the device layer loads on connect). */
async function lineContext(env: NodeJS.ProcessEnv, line: LineOptions): Promise<Context> {
  return completionContext(env, line);
}

/** The keys of a table on the device the line names, from the cache when fresh; [] when anything fails. */
async function deviceKeys(ctx: Context, request: KeyRequest): Promise<string[]> {
  const now = Date.now();
  const vdom = request.global ? '' : (ctx.settings.vdomText ?? '');
  const device = deviceIdentity(ctx.settings, ctx.env);
  const file = cacheFile(ctx.env, device, vdom, request.tablePath);
  const cached = readCache(file, now, device, vdom, request.tablePath);
  if (cached !== undefined) return cached ?? [];
  let keys: string[] | null = null;
  try {
    keys = await withDeadline(
      askDevice(ctx, request.tablePath, request.keyField, !!request.global),
      ctx.timeoutMs() + 500,
    );
  } catch {
    keys = null;
  } finally {
    await withDeadline(ctx.close(), 200).catch(() => undefined);
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
  const ctx = await lineContext(env, line);
  if (ctx.demo) return DEMO_VDOMS;
  const [saved, device] = await Promise.all([
    profiles(env),
    deviceKeys(ctx, { tablePath: 'system/vdom', keyField: 'name', global: true }),
  ]);
  const fromEnv = (ctx.settings.vdomText ?? '').split(',').map((v) => v.trim());
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
          return cachedCatalogue(completionContext(env, line)) ?? SHIPPED_CATALOGUE;
        } catch {
          return SHIPPED_CATALOGUE;
        }
      })),
    keys: async (table: TableDef, line: LineOptions) =>
      deviceKeys(await lineContext(env, line), { tablePath: table.path, keyField: table.key! }),
    devices: async () => (await profiles(env)).names,
    vdoms: (line: LineOptions) => vdomNames(env, line),
  };
}
