// The key cache of Tab completion (one small JSON file per device, VDOM and table, in the XDG cache
// folder): read by `cmdb __complete` before the program loads (quick.ts), written by sources.ts after
// asking the device. Only node:fs and node:path: a warm Tab reads it on every keypress.
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { cacheDir, profilesPath } from '../config/paths.js';
import type { Settings } from '../settings.js';

/** Keys read from a device stay fresh this long; a failure is remembered for less, so Tab stays quick. */
const FRESH_MS = 60_000;
const FAILURE_MS = 10_000;

export interface CacheEntry {
  fetchedAt: number;
  /** null: the device could not be asked. */
  keys: string[] | null;
  device: string;
  vdom: string;
  table: string;
}

function mtime(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}

/**
 * Which device keys come from, without connecting: the demo, a host, or a profile. The profile file's
 * modification time is part of it, so `cmdb device use` or a new login never serves stale keys.
 */
export function deviceIdentity(settings: Settings, env: NodeJS.ProcessEnv): string {
  return JSON.stringify([settings.demo, settings.host ?? '', settings.device ?? '', mtime(profilesPath(env))]);
}

/** FNV-1a (32 bits) of the text's UTF-16 units from a given basis, as 8 hex digits. */
function fnv(text: string, basis: number): string {
  let hash = basis | 0;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(16).padStart(8, '0');
}

/**
 * The entry's file. Its name only spreads entries over files (no cryptographic hash: node:crypto would
 * load on every Tab); which device, VDOM and table an entry is for is checked against its content.
 */
export function cacheFile(env: NodeJS.ProcessEnv, device: string, vdom: string, table: string): string {
  const text = `${device}\0${vdom}\0${table}`;
  return join(cacheDir(env), 'keys', `${fnv(text, 0x811c9dc5)}${fnv(text, 0x050c5d1f)}.json`);
}

/** The keys (null: a remembered failure) when the entry is fresh and is this one's; undefined: ask the device. */
export function readCache(
  file: string,
  now: number,
  device: string,
  vdom: string,
  table: string,
): string[] | null | undefined {
  try {
    const entry = JSON.parse(readFileSync(file, 'utf8')) as CacheEntry;
    if (entry.device !== device || entry.vdom !== vdom || entry.table !== table) return undefined;
    const age = now - entry.fetchedAt;
    if (age >= 0 && age < (entry.keys ? FRESH_MS : FAILURE_MS)) return entry.keys;
  } catch {
    /* missing or unreadable: ask the device */
  }
  return undefined;
}
