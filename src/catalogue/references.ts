// Where an object names objects of other tables (the catalogue's `references`, a device schema's
// `datasource`), read as places in an object, and the reverse: which tables can name a table. Pure
// functions of table definitions: the emulator checks and indexes references with them, and the client
// can order writes and find users with the same facts.
import { entryKeyOf } from './index.js';
import type { FieldReference, FieldSchema, TableDef } from './types.js';

type Obj = Record<string, unknown>;

/** One place in a table's objects where a value names another object. */
export interface ReferenceSite {
  /** The top-level field it sits in (`srcaddr`). */
  field: string;
  /** The path to the value through list fields: `['srcaddr', 'name']`, `['schedule']`. */
  path: readonly string[];
  /** The field holds several names in one string, separated by spaces (`system/ha` `monitor`). */
  multiple: boolean;
  /** The tables (and their field, a path through sub-tables for `system/sdwan` `zone.name`) it may name. */
  targets: readonly FieldReference[];
}

/** A table that can name objects of another one, and where. */
export interface Referrer {
  /** The naming table's path. */
  table: string;
  /** Its top-level field and the path to the value, as in a `ReferenceSite`. */
  field: string;
  path: readonly string[];
  /** The field of the named table the value matches (`name`, `zone.name`). */
  target: string;
}

/** Interfaces and zones: a reference to one of them is checked as the CLI layer parses it. */
const INTERFACE_TABLES = new Set(['system/interface', 'system/zone']);

const sitesCache = new WeakMap<object, ReferenceSite[]>();

function collectSites(
  tablePath: string,
  fields: Record<string, FieldSchema>,
  prefix: string[],
  out: ReferenceSite[],
): void {
  for (const [name, field] of Object.entries(fields)) {
    const at = [...prefix, name];
    if (field.references?.length) {
      // A mark on a list field names by its entries' key (`router/rip` `interface[].name`).
      const path = field.type === 'array' && field.items ? [...at, entryKeyOf(field.items) ?? 'name'] : at;
      // A field marked as naming itself defines the names (`system/sdwan` `zone[].name`): no reference.
      const targets = field.references.filter((r) => r.table !== tablePath || r.field !== path.join('.'));
      if (targets.length) out.push({ field: at[0], path, multiple: !!field.multiple, targets });
    }
    if (field.type === 'array' && field.items) collectSites(tablePath, field.items, at, out);
  }
}

/** Every place where a table's objects name other objects, in field order. */
export function referenceSites(table: Pick<TableDef, 'path' | 'fields'>): readonly ReferenceSite[] {
  let sites = sitesCache.get(table);
  if (!sites) {
    sites = [];
    collectSites(table.path, table.fields, [], sites);
    sitesCache.set(table, sites);
  }
  return sites;
}

/** The values at a path of an object, through every entry of its list fields. */
export function valuesAt(object: unknown, path: readonly string[], from = 0): unknown[] {
  if (from === path.length) return [object];
  if (Array.isArray(object)) return object.flatMap((entry) => valuesAt(entry, path, from));
  if (!object || typeof object !== 'object') return [];
  const value = (object as Obj)[path[from]];
  return value === undefined ? [] : valuesAt(value, path, from + 1);
}

/** An empty reference names nothing: `""`, `0` (an integer reference), no value. */
export function isEmptyReference(value: unknown): boolean {
  return value === undefined || value === null || value === '' || value === 0 || value === '0';
}

/** The names a site holds in an object, empty ones left out (a multi-value field split into its names). */
export function namesAt(object: unknown, site: ReferenceSite): unknown[] {
  const values = valuesAt(object, site.path);
  const names = site.multiple
    ? values.flatMap((value) => (typeof value === 'string' ? value.split(' ') : [value]))
    : values;
  return names.filter((name) => !isEmptyReference(name));
}

/**
 * A site that names interfaces or zones: the device refuses a missing one as a value it cannot parse
 * (`-651`), and takes `any` and its SSL VPN tunnel interface `ssl.root` there (PROTOCOL.md).
 */
export function namesInterfaces(site: ReferenceSite): boolean {
  return site.targets.some((target) => INTERFACE_TABLES.has(target.table));
}

/** Words an interface reference takes that no table holds: every interface, and the SSL VPN tunnel. */
export const INTERFACE_WORDS: ReadonlySet<string> = new Set(['any', 'ssl.root']);

/** For every table that something can name, the tables that can name it (build time, or a device's schema). */
export function referrerMap(tables: readonly Pick<TableDef, 'path' | 'fields'>[]): Record<string, Referrer[]> {
  const out: Record<string, Referrer[]> = {};
  for (const table of tables) {
    for (const site of referenceSites(table)) {
      for (const target of site.targets) {
        const list = (out[target.table] ??= []);
        const known = list.some(
          (r) => r.table === table.path && r.target === target.field && r.path.join('.') === site.path.join('.'),
        );
        if (!known) list.push({ table: table.path, field: site.field, path: site.path, target: target.field });
      }
    }
  }
  return out;
}
