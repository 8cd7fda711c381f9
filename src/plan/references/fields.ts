// What the values of an object name (CLI.md "References between tables"): the catalogue's `references`
// read out of plain objects, where each named object lives (the target table's scope), the words that
// name no object, and an index of objects by the place a reference looks in. The ground the rest of
// the reference library (order, checks, usage) stands on; pure functions of the catalogue and values.
import {
  entryKeyOf,
  findTable,
  isGlobal,
  type FieldSchema,
  type TableDef,
  type TableSummary,
} from '../../catalogue/index.js';
import type { FieldReference } from '../../catalogue/types.js';

export type Obj = Record<string, unknown>;
export type Key = string | number;
/** How table paths are looked up: the catalogue of the device at hand (default the shipped one). */
export type FindTable = (path: string) => TableDef | undefined;
export type { FieldReference };

/** One value of an object that names another object. */
export interface ObjectReference {
  /** The top-level field that holds it: `srcaddr`. */
  field: string;
  /** Where in the object: `srcaddr[].name`, `ipv6[].ip6-upstream-interface`, `device`. */
  path: string;
  value: Key;
  /** The tables (and their field) one of which must hold an object with this value. */
  targets: FieldReference[];
}

/** A change of a plan: only `action`, where and what are read (plan.ts's steps fit). */
export interface RefStep {
  action: 'create' | 'update' | 'delete' | 'move';
  /** null for a table whose scope is global. */
  vdom: string | null;
  table: string;
  /** null for a singleton. */
  key: Key | null;
  object?: Obj;
  changes?: Record<string, { from: unknown; to: unknown }>;
}

/** A table's content as read from the device in one VDOM (null: global); `content` null: it could not be read. */
export interface TableReading {
  vdom: string | null;
  table: string;
  content: Obj[] | Obj | null;
}

/** The interface of the SSL VPN tunnel, which every device has (PROTOCOL.md "Words that are not objects"). */
export const SSL_VPN_INTERFACE = 'ssl.root';
const INTERFACES = 'system/interface';

export function isObject(value: unknown): value is Obj {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Keys compare by value: `7` and `"7"` name the same object. */
export function keyId(key: unknown): string {
  return String(key);
}

/** The catalogue's own path of a table (the device's name of a table SPEC.md renamed is the same table). */
export function canonical(table: TableDef | undefined, path: string): string {
  return table?.aliasOf ?? table?.path ?? path;
}

export { isGlobal };

/**
 * Where the objects of a table live, seen from VDOM `vdom`: null (the whole device) for a global table,
 * else that VDOM. A global object's reference to a per-VDOM table is null too: the object may be in any VDOM.
 */
export function whereOf(table: TableSummary | undefined, vdom: string | null): string | null {
  return isGlobal(table) ? null : vdom;
}

/**
 * The tables the device evaluates top-down, first match wins (CLI.md): the `*policy*` tables with an
 * integer key, `firewall/central-snat-map`, `firewall/acl` and `firewall/acl6`.
 */
export function evaluatesTopDown(table: TableSummary): boolean {
  const name = table.path.slice(table.path.indexOf('/') + 1);
  if (['firewall/central-snat-map', 'firewall/acl', 'firewall/acl6'].includes(table.path)) return true;
  return !table.singleton && table.keyType === 'integer' && name.includes('policy');
}

type LeafKind = 'value' | 'integer' | 'words' | 'entries';

/** A field that carries references, as read out of values. */
interface Leaf {
  kind: LeafKind;
  path: string;
  targets: FieldReference[];
  /** `entries`: the field of each entry that names (`name`). */
  entryKey?: string;
  /** An interface reference: also takes `any`, which names nothing. */
  interfaces: boolean;
}

/** One field of a table or sub-table that holds references itself or in its entries. */
interface Walker {
  name: string;
  leaf?: Leaf;
  items?: Walkers;
}

/** A table's or sub-table's fields that hold references: in the catalogue's order, and by name. */
interface Walkers {
  list: Walker[];
  byName: Map<string, Walker>;
}

const walkersOf = new WeakMap<Record<string, FieldSchema>, Walkers>();

/**
 * A sub-table's own entries are not references to themselves: `system/sdwan` `zone` (marked as naming
 * `zone.name`), `members[].seq-num` (naming `members.seq-num`), a key naming its own table.
 */
function definesItself(table: string, dotted: string, target: FieldReference): boolean {
  return target.table === table && (target.field === dotted || target.field.startsWith(`${dotted}.`));
}

function compile(table: string, fields: Record<string, FieldSchema>, path: string, dotted: string): Walkers {
  const out: Walkers = { list: [], byName: new Map() };
  for (const [name, field] of Object.entries(fields)) {
    const here = path ? `${path}[].${name}` : name;
    const hereDotted = dotted ? `${dotted}.${name}` : name;
    const walker: Walker = { name };
    const targets = (field.references ?? []).filter((t) => !definesItself(table, hereDotted, t));
    if (targets.length) {
      const interfaces = targets.some((t) => t.table === INTERFACES);
      if (field.type === 'array') {
        const entryKey = field.items ? entryKeyOf(field.items) : undefined;
        walker.leaf = {
          kind: 'entries',
          path: entryKey ? `${here}[].${entryKey}` : here,
          targets,
          entryKey,
          interfaces,
        };
      } else
        walker.leaf = {
          kind: field.multiple ? 'words' : field.type === 'integer' ? 'integer' : 'value',
          path: here,
          targets,
          interfaces,
        };
    }
    if (field.items) {
      const items = compile(table, field.items, here, hereDotted);
      if (items.list.length) walker.items = items;
      // Marked on the list and on its entries' key alike: read once, from the entries.
      if (walker.leaf?.kind === 'entries' && walker.leaf.entryKey && items.byName.get(walker.leaf.entryKey)?.leaf)
        delete walker.leaf;
    }
    if (walker.leaf || walker.items) {
      out.list.push(walker);
      out.byName.set(name, walker);
    }
  }
  return out;
}

/** The fields of a table that carry references, compiled once per field set. */
function walkers(table: TableDef): Walkers {
  let compiled = walkersOf.get(table.fields);
  if (!compiled) {
    compiled = compile(canonical(table, table.path), table.fields, '', '');
    walkersOf.set(table.fields, compiled);
  }
  return compiled;
}

/** Whether a value names nothing: empty, or a word no table holds (`any` for an interface). */
function namesNothing(leaf: Leaf, value: unknown): boolean {
  if (value === undefined || value === null || value === '') return true;
  if (typeof value !== 'string' && typeof value !== 'number') return true;
  if (leaf.kind === 'integer' && Number(value) === 0) return true;
  return leaf.interfaces && value === 'any';
}

/** What is told each value that names: the top-level field, the path, the value and where to look. */
export type ReferenceVisitor = (field: string, path: string, value: Key, targets: FieldReference[]) => void;

function emit(leaf: Leaf, field: string, value: unknown, visit: ReferenceVisitor): void {
  if (leaf.kind === 'entries') {
    if (Array.isArray(value))
      for (const e of value) {
        const v = isObject(e) && leaf.entryKey ? e[leaf.entryKey] : e;
        if (!namesNothing(leaf, v)) visit(field, leaf.path, v as Key, leaf.targets);
      }
  } else if (leaf.kind === 'words') {
    if (typeof value === 'string')
      for (const word of value.split(/\s+/)) if (!namesNothing(leaf, word)) visit(field, leaf.path, word, leaf.targets);
  } else if (!namesNothing(leaf, value)) visit(field, leaf.path, value as Key, leaf.targets);
}

function visitField(walker: Walker, value: unknown, field: string, visit: ReferenceVisitor): void {
  if (value === undefined || value === null) return;
  if (walker.leaf) emit(walker.leaf, field, value, visit);
  if (walker.items && Array.isArray(value))
    for (const entry of value) if (isObject(entry)) collect(walker.items, entry, field, visit);
}

function collect(list: Walkers, object: Obj, top: string | undefined, visit: ReferenceVisitor): void {
  // A few fields that name (a member list's entry: `name`): read each; else look up each field the object holds.
  if (list.list.length <= 4) {
    for (let k = 0; k < list.list.length; k++) {
      const walker = list.list[k];
      visitField(walker, object[walker.name], top ?? walker.name, visit);
    }
    return;
  }
  for (const name in object) {
    const walker = list.byName.get(name);
    if (walker) visitField(walker, object[name], top ?? name, visit);
  }
}

/** Each value of an object that names another object, told to `visit` in the object's field order (referencesOf). */
export function eachReference(table: TableDef, object: Obj, visit: ReferenceVisitor): void {
  collect(walkers(table), object, undefined, visit);
}

/**
 * Every value of an object that names another object: single fields, member lists, fields of
 * sub-table entries at any depth, multi-value fields (split on spaces), integer references. `""`,
 * `[]`, `0` and an interface reference's `any` name nothing. In the object's field order.
 */
export function referencesOf(table: TableDef, object: Obj): ObjectReference[] {
  const out: ObjectReference[] = [];
  eachReference(table, object, (field, path, value, targets) => out.push({ field, path, value, targets }));
  return out;
}

/** Whether any field of the table carries references (cheap: compiled once per table). */
export function hasReferences(table: TableDef): boolean {
  return walkers(table).list.length > 0;
}

const targetsOfFields = new WeakMap<Walkers, FieldReference[]>();

/** Every table and field a table's fields can name, each once, first seen first. */
export function targetsOf(table: TableDef): FieldReference[] {
  const list = walkers(table);
  let targets = targetsOfFields.get(list);
  if (!targets) {
    const seen = new Map<string, FieldReference>();
    const visit = (ws: Walkers) => {
      for (const w of ws.list) {
        for (const t of w.leaf?.targets ?? [])
          if (!seen.has(`${t.table}\0${t.field}`)) seen.set(`${t.table}\0${t.field}`, t);
        if (w.items) visit(w.items);
      }
    };
    visit(list);
    targets = [...seen.values()];
    targetsOfFields.set(list, targets);
  }
  return targets;
}

/** The tables a table's fields can name (catalogue paths, first seen first). */
export function tablesNamedBy(table: TableDef): string[] {
  return [...new Set(targetsOf(table).map((t) => t.table))];
}

/** The object's value as the plan sends it in an update: each changed field's new value. */
export function newValues(changes: Record<string, { from: unknown; to: unknown }>): Obj {
  const out: Obj = {};
  for (const name in changes) out[name] = changes[name].to;
  return out;
}

/** Each changed field's value before the update. */
export function oldValues(changes: Record<string, { from: unknown; to: unknown }>): Obj {
  const out: Obj = {};
  for (const name in changes) out[name] = changes[name].from;
  return out;
}

/**
 * The values an object holds at a reference's target field: its key (`name`), or the keys of its
 * sub-table entries for a path through sub-tables (`zone.name`: each `zone` entry's `name`).
 */
export function valuesAt(object: Obj, field: string): Key[] {
  const parts = field.split('.');
  let level: unknown[] = [object];
  for (const part of parts.slice(0, -1))
    level = level.flatMap((o) => (isObject(o) && Array.isArray(o[part]) ? (o[part] as unknown[]) : []));
  const last = parts[parts.length - 1];
  const out: Key[] = [];
  for (const o of level) {
    const value = isObject(o) ? o[last] : undefined;
    if (typeof value === 'string' || typeof value === 'number') out.push(value);
  }
  return out;
}

/** Whether a target field is a path through sub-tables (`zone.name`), not a table's key. */
export function isSubTableField(field: string): boolean {
  return field.includes('.');
}

/** A target as people read it: `firewall/address`, or `system/sdwan zone` for a sub-table's entries. */
export function targetName(target: FieldReference): string {
  return isSubTableField(target.field)
    ? `${target.table} ${target.field.slice(0, target.field.lastIndexOf('.'))}`
    : target.table;
}

/**
 * The catalogue's `required` fields a body lacks (absent, `""` or `[]`), leaving out those the device
 * fills with a default of its own. A hint for explaining a device's refusal of a create, never a
 * check before sending: many are required only where they apply (CLI.md, issue "references" item 7).
 */
export function missingRequired(table: TableDef, body: Obj): string[] {
  return Object.entries(table.fields)
    .filter(([name, field]) => {
      if (!field.required) return false;
      const value = body[name];
      const lacking = value === undefined || value === null || value === '' || (Array.isArray(value) && !value.length);
      return lacking && (field.default === undefined || field.default === '');
    })
    .map(([name]) => name);
}

/** The table definitions a run meets, each looked up once. */
export class Tables {
  private readonly known = new Map<string, TableDef | undefined>();
  constructor(readonly find: FindTable = findTable) {}

  get(path: string): TableDef | undefined {
    if (!this.known.has(path)) this.known.set(path, this.find(path));
    return this.known.get(path);
  }
}

// A target field that is not a path through sub-tables is the table's key: filed as such ('').
const slot = (field: string) => (isSubTableField(field) ? field : '');
const NONE: never[] = [];

/** One item filed under a value: where, table and target field (`''`: the key). */
export interface Filed<T> {
  where: string | null;
  table: string;
  field: string;
  item: T;
}

/**
 * Items (plan steps, objects) filed under the place a reference looks in: where (a VDOM, or null
 * for the whole device), table, target field (the key, or a path through sub-tables) and value.
 * Filed by value first: most names (factory objects, objects already on the device) find nothing
 * with one look.
 */
export class Places<T> {
  // One item alone is filed as it is (most values name one object): no list for it.
  private readonly byValue = new Map<string, Filed<T> | Filed<T>[]>();

  add(where: string | null, table: string, field: string, key: Key, item: T): void {
    const filed = { where, table, field: slot(field), item };
    const id = keyId(key);
    const there = this.byValue.get(id);
    if (!there) this.byValue.set(id, filed);
    else if (Array.isArray(there)) there.push(filed);
    else this.byValue.set(id, [there, filed]);
  }

  /** Everything filed under a value, in any place (undefined: nothing): for a loop that matches places itself. */
  under(key: Key): Filed<T> | Filed<T>[] | undefined {
    return this.byValue.get(keyId(key));
  }

  /** The items at a place; where null for a table that is not global: in any VDOM. */
  find(where: string | null, global: boolean, table: string, field: string, key: Key): T[] {
    return this.filter(where === null && !global ? undefined : where, table, field, key);
  }

  /** The items filed under exactly this place (null: filed for the whole device). */
  exactly(where: string | null, table: string, field: string, key: Key): T[] {
    return this.filter(where, table, field, key);
  }

  /** `where` undefined: any. */
  private filter(where: string | null | undefined, table: string, field: string, key: Key): T[] {
    const there = this.byValue.get(keyId(key));
    if (!there) return NONE;
    if (!Array.isArray(there)) return filedAt(there, where, table, field) ? [there.item] : NONE;
    return there.filter((e) => filedAt(e, where, table, field)).map((e) => e.item);
  }
}

/** Whether an item is filed at a place (`where` undefined: in any VDOM or globally). */
export function filedAt<T>(e: Filed<T>, where: string | null | undefined, table: string, field: string): boolean {
  return e.table === table && e.field === slot(field) && (where === undefined || e.where === where);
}
