// The plan's side of references (CLI.md "References between tables"): where each named object lives
// (the target table's scope), the steps and readings the library takes, and an index of items by the
// place a reference looks in. What an object names is the catalogue's (src/catalogue/references.ts).
// The ground the rest of the reference library (order, checks, usage) stands on; pure functions.
import { findTable, isGlobal, type TableDef, type TableSummary } from '../../catalogue/index.js';
import type { FieldReference } from '../../catalogue/types.js';

export type Obj = Record<string, unknown>;
export type Key = string | number;
/** How table paths are looked up: the catalogue of the device at hand (default the shipped one). */
export type FindTable = (path: string) => TableDef | undefined;
export type { FieldReference };

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
