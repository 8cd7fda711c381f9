// Where an object names objects of other tables (the catalogue's `references`, a device schema's
// `datasource`), read as places in an object, the values that name nothing, and the reverse: which
// tables can name a table. Pure functions of table definitions and values, compiled once per table:
// the emulator checks and indexes references with them, the client's reference library (src/plan/
// references) orders, checks and finds users with the same facts.
import { entryKeyOf } from './index.js';
import type { FieldReference, FieldSchema, TableDef } from './types.js';

type Obj = Record<string, unknown>;
/** A value that names an object: a key, or a sub-table entry's key. */
export type NamedValue = string | number;

/**
 * How a place holds its names: one value, an integer (0 names nothing), several words in one string
 * (`system/ha` `monitor`), or a list whose entries are the names (a list marked itself).
 */
export type SiteKind = 'value' | 'integer' | 'words' | 'entries';

/** One place in a table's objects where a value names another object. */
export interface ReferenceSite {
  /** The top-level field it sits in (`srcaddr`). */
  field: string;
  /** The path to the value through list fields: `['srcaddr', 'name']`, `['schedule']`. */
  path: readonly string[];
  /** The same as people read it: `srcaddr[].name`, `ipv6[].ip6-upstream-interface`, `schedule`. */
  at: string;
  kind: SiteKind;
  /** `entries`: the field of each entry that names (`name`); none: the entries are the names. */
  entryKey?: string;
  /**
   * It names interfaces or zones: the device refuses a missing one as a value it cannot parse
   * (`-651`), and takes `any` there, which names nothing (PROTOCOL.md "Words that are not objects").
   */
  interfaces: boolean;
  /** The tables (and their field, a path through sub-tables for `system/sdwan` `zone.name`) it may name. */
  targets: readonly FieldReference[];
}

/** One value of an object that names another object. */
export interface ObjectReference {
  /** The top-level field that holds it: `srcaddr`. */
  field: string;
  /** Where in the object (its site's `at`): `srcaddr[].name`, `ipv6[].ip6-upstream-interface`, `device`. */
  path: string;
  value: NamedValue;
  /** The tables (and their field) one of which must hold an object with this value. */
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

/** What reading needs of a table: its path (the catalogue's, `aliasOf` for a renamed one) and fields. */
type Readable = Pick<TableDef, 'path' | 'fields'> & { aliasOf?: string };

/** Interfaces and zones: a reference to one of them is checked as the CLI layer parses it. */
const INTERFACE_TABLES = new Set(['system/interface', 'system/zone']);

/** One field of a table or sub-table that holds references itself or in its entries. */
interface Walker {
  name: string;
  site?: ReferenceSite;
  items?: Walkers;
}

/** A table's or sub-table's fields that hold references: in the catalogue's order, and by name. */
interface Walkers {
  list: Walker[];
  byName: Map<string, Walker>;
}

/** A table's compiled reading: the walkers, its sites in field order, and every target once. */
interface Compiled {
  walkers: Walkers;
  sites: ReferenceSite[];
  targets?: FieldReference[];
  tables?: string[];
}

const compiledOf = new WeakMap<Record<string, FieldSchema>, Compiled>();

function isObject(value: unknown): value is Obj {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/**
 * A sub-table's own entries are not references to themselves: `system/sdwan` `zone` (marked as naming
 * `zone.name`), `members[].seq-num` (naming `members.seq-num`), a key naming its own table.
 */
function definesItself(table: string, dotted: string, target: FieldReference): boolean {
  return target.table === table && (target.field === dotted || target.field.startsWith(`${dotted}.`));
}

function compileFields(
  table: string,
  fields: Record<string, FieldSchema>,
  prefix: { path: string[]; at: string; dotted: string },
  sites: ReferenceSite[],
): Walkers {
  const out: Walkers = { list: [], byName: new Map() };
  for (const [name, field] of Object.entries(fields)) {
    const path = [...prefix.path, name];
    const at = prefix.at ? `${prefix.at}[].${name}` : name;
    const dotted = prefix.dotted ? `${prefix.dotted}.${name}` : name;
    const walker: Walker = { name };
    const targets = (field.references ?? []).filter((t) => !definesItself(table, dotted, t));
    if (targets.length) {
      const interfaces = targets.some((t) => INTERFACE_TABLES.has(t.table));
      // A mark on a list field names by its entries' key (`router/rip` `interface[].name`).
      const entryKey = field.type === 'array' && field.items ? entryKeyOf(field.items) : undefined;
      const kind =
        field.type === 'array' ? 'entries' : field.multiple ? 'words' : field.type === 'integer' ? 'integer' : 'value';
      // One shape for every site: the walk reads them all in one place.
      walker.site = {
        field: path[0],
        path: entryKey ? [...path, entryKey] : path,
        at: entryKey ? `${at}[].${entryKey}` : at,
        kind,
        entryKey,
        interfaces,
        targets,
      };
    }
    const own = sites.length;
    if (walker.site) sites.push(walker.site);
    if (field.items) {
      const items = compileFields(table, field.items, { path, at, dotted }, sites);
      if (items.list.length) walker.items = items;
      // Marked on the list and on its entries' key alike: read once, from the entries.
      if (walker.site?.entryKey && items.byName.get(walker.site.entryKey)?.site) {
        sites.splice(own, 1);
        delete walker.site;
      }
    }
    if (walker.site || walker.items) {
      out.list.push(walker);
      out.byName.set(name, walker);
    }
  }
  return out;
}

/** A table's reading, compiled once per field set. */
function compiled(table: Readable): Compiled {
  let found = compiledOf.get(table.fields);
  if (!found) {
    const sites: ReferenceSite[] = [];
    const walkers = compileFields(table.aliasOf ?? table.path, table.fields, { path: [], at: '', dotted: '' }, sites);
    found = { walkers, sites };
    compiledOf.set(table.fields, found);
  }
  return found;
}

/** Every place where a table's objects name other objects, in field order (none: the table names nothing). */
export function referenceSites(table: Readable): readonly ReferenceSite[] {
  return compiled(table).sites;
}

/**
 * Whether a value at a site names nothing (PROTOCOL.md "Empty references", "Words that are not
 * objects"): no value, `""`, `0` in an integer reference, `any` in an interface reference.
 */
export function namesNothing(site: ReferenceSite, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string' && typeof value !== 'number') return true;
  if (site.kind === 'integer' && Number(value) === 0) return true;
  return site.interfaces && value === 'any';
}

/** What is told each value that names: its site and the value. */
export type ReferenceVisitor = (site: ReferenceSite, value: NamedValue) => void;

/** Each name one value at a site holds (a multi-value field: each of its words). */
function eachName(site: ReferenceSite, value: unknown, visit: ReferenceVisitor): void {
  if (site.kind === 'words') {
    if (typeof value === 'string')
      for (const word of value.split(/\s+/)) if (!namesNothing(site, word)) visit(site, word);
  } else if (!namesNothing(site, value)) visit(site, value as NamedValue);
}

function visitField(walker: Walker, value: unknown, visit: ReferenceVisitor): void {
  if (value === undefined || value === null) return;
  const site = walker.site;
  if (site) {
    if (site.kind !== 'entries') eachName(site, value, visit);
    else if (Array.isArray(value))
      for (const e of value) eachName(site, isObject(e) && site.entryKey ? e[site.entryKey] : e, visit);
  }
  if (walker.items && Array.isArray(value))
    for (const entry of value) if (isObject(entry)) collect(walker.items, entry, visit);
}

function collect(list: Walkers, object: Obj, visit: ReferenceVisitor): void {
  // A few fields that name (a member list's entry: `name`): read each; else look up each field the object holds.
  if (list.list.length <= 4) {
    for (let k = 0; k < list.list.length; k++) {
      const walker = list.list[k];
      visitField(walker, object[walker.name], visit);
    }
    return;
  }
  for (const name in object) {
    const walker = list.byName.get(name);
    if (walker) visitField(walker, object[name], visit);
  }
}

/** Each value of an object that names another object, told to `visit` in the object's field order. */
export function eachReference(table: Readable, object: Obj, visit: ReferenceVisitor): void {
  collect(compiled(table).walkers, object, visit);
}

/**
 * Every value of an object that names another object: single fields, member lists, fields of
 * sub-table entries at any depth, multi-value fields (split on spaces), integer references; none of
 * the values that name nothing (namesNothing). In the object's field order.
 */
export function referencesOf(table: Readable, object: Obj): ObjectReference[] {
  const out: ObjectReference[] = [];
  eachReference(table, object, (site, value) =>
    out.push({ field: site.field, path: site.at, value, targets: site.targets }),
  );
  return out;
}

/** The values at a path of an object, through every entry of its list fields. */
function pathValues(object: unknown, path: readonly string[], from: number): unknown[] {
  if (from === path.length) return [object];
  if (Array.isArray(object)) return object.flatMap((entry) => pathValues(entry, path, from));
  if (!isObject(object)) return [];
  const value = object[path[from]];
  return value === undefined ? [] : pathValues(value, path, from + 1);
}

/** The names one site holds in an object, in order (what eachReference tells of that site). */
export function namesAt(object: unknown, site: ReferenceSite): NamedValue[] {
  const out: NamedValue[] = [];
  const push = (_site: ReferenceSite, value: NamedValue) => out.push(value);
  for (const value of pathValues(object, site.path, 0)) eachName(site, value, push);
  return out;
}

/**
 * The values an object holds at a reference's target field: its key (`name`), or the keys of its
 * sub-table entries for a path through sub-tables (`zone.name`: each `zone` entry's `name`).
 */
export function valuesAt(object: unknown, field: string): NamedValue[] {
  return pathValues(object, field.split('.'), 0).filter(
    (value): value is NamedValue => typeof value === 'string' || typeof value === 'number',
  );
}

/** Every table and field a table's fields can name, each once, first seen first. */
export function targetsOf(table: Readable): readonly FieldReference[] {
  const found = compiled(table);
  if (!found.targets) {
    const seen = new Map<string, FieldReference>();
    for (const site of found.sites)
      for (const t of site.targets) if (!seen.has(`${t.table}\0${t.field}`)) seen.set(`${t.table}\0${t.field}`, t);
    found.targets = [...seen.values()];
  }
  return found.targets;
}

/** The tables a table's fields can name (catalogue paths, first seen first). */
export function tablesNamedBy(table: Readable): readonly string[] {
  const found = compiled(table);
  found.tables ??= [...new Set(targetsOf(table).map((t) => t.table))];
  return found.tables;
}

/**
 * For every table that something can name, the tables that can name it and where: what
 * `catalogue.referrers(path)` answers (compiled at build time, or worked out from a device's schema).
 */
export function referrerMap(tables: readonly Readable[]): Record<string, Referrer[]> {
  const out: Record<string, Referrer[]> = {};
  for (const table of tables) {
    for (const site of referenceSites(table)) {
      for (const target of site.targets) {
        const list = (out[target.table] ??= []);
        const known = list.some((r) => r.table === table.path && r.target === target.field && r.path === site.path);
        if (!known) list.push({ table: table.path, field: site.field, path: site.path, target: target.field });
      }
    }
  }
  return out;
}
