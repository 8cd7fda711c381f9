// Who names what, from the content of tables read from a device: the users of an object (`cmdb refs`
// where the device's usage query does not answer, and the explanation of a `-23` refusal), and the
// objects nothing names (`cmdb unused`), with the order to delete them. The tables to read for either
// are those the catalogue says can name them (`catalogue.referrers(table)`).
import type { TableDef } from '../../catalogue/index.js';
import { referencesOf, tablesNamedBy, valuesAt } from '../../catalogue/references.js';
import {
  canonical,
  isGlobal,
  isObject,
  isSubTableField,
  keyId,
  Places,
  Tables,
  whereOf,
  type FindTable,
  type Key,
  type Obj,
  type TableReading,
} from './fields.js';
import type { RefUser } from './messages.js';
import { orderSteps } from './order.js';
import { lookup } from './steps.js';

/** An object of a keyed table: where (null for a global table), table and key. */
export interface ObjectAt {
  vdom: string | null;
  table: string;
  key: Key;
}

/** Whether an object is one of the device's factory objects (the catalogue's `isFactoryObject`). */
export type IsFactory = (table: string, key: Key, field?: string) => boolean;

interface ReadObject {
  def: TableDef;
  table: string;
  where: string | null;
  key: Key | null;
  object: Obj;
}

/** Every object of the readings that could be read, with where it lives and its key (null: a singleton). */
function objectsOf(readings: readonly TableReading[], tables: Tables): ReadObject[] {
  const out: ReadObject[] = [];
  for (const reading of readings) {
    const def = tables.get(reading.table);
    if (!def || reading.content === null) continue;
    const table = canonical(def, reading.table);
    const where = whereOf(def, reading.vdom);
    for (const object of Array.isArray(reading.content) ? reading.content : [reading.content]) {
      if (!isObject(object)) continue;
      const key = def.singleton || !def.key ? null : (object[def.key] as Key | undefined);
      if (key !== undefined) out.push({ def, table, where, key, object });
    }
  }
  return out;
}

/** The objects that name each object of some tables, as read from a device. */
export class UsageIndex {
  private readonly tables: Tables;
  private readonly users = new Places<RefUser>();
  /** The readings that could not be read: the tables they could name may have users nobody saw. */
  private readonly unread: { where: string | null; names: Set<string> }[] = [];

  /** From the content of the tables that can name the objects asked about (`catalogue.referrers`), per VDOM, global. */
  constructor(readings: readonly TableReading[], options: { find?: FindTable } = {}) {
    this.tables = new Tables(options.find);
    for (const reading of readings) {
      const def = this.tables.get(reading.table);
      if (def && reading.content === null)
        this.unread.push({ where: whereOf(def, reading.vdom), names: new Set(tablesNamedBy(def)) });
    }
    for (const o of objectsOf(readings, this.tables)) {
      const seen = new Set<string>();
      for (const ref of referencesOf(o.def, o.object))
        for (const t of ref.targets) {
          // One row per object, field and object named.
          const id = `${ref.field}\0${t.table}\0${t.field}\0${keyId(ref.value)}`;
          if (seen.has(id)) continue;
          seen.add(id);
          const tw = whereOf(this.tables.get(t.table), o.where);
          this.users.add(tw, t.table, t.field, ref.value, {
            vdom: o.where,
            table: o.table,
            key: o.key,
            field: ref.field,
          });
        }
    }
  }

  /**
   * The objects that name an object (one per object and top-level field), in the order read; a
   * per-VDOM object's users include global objects that name its key. null when a table that can
   * name it could not be read there.
   */
  usersOf(vdom: string | null, table: string, key: Key): RefUser[] | null {
    const def = this.tables.get(table);
    const path = canonical(def, table);
    const where = whereOf(def, vdom);
    if (this.unread.some((u) => u.names.has(path) && (u.where === where || u.where === null || where === null)))
      return null;
    const found = this.users.find(where, isGlobal(def), path, '', key);
    return where === null ? [...found] : [...found, ...this.users.exactly(null, path, '', key)];
  }
}

export interface Unused {
  /** The objects nothing names, in the order read (tables as read, objects in the device's order). */
  unused: ObjectAt[];
  /** The same in the order to delete them: an object before the objects it names (a group before its members). */
  deleteOrder: ObjectAt[];
  /** Tables that could not be read: an object they name may be listed although used. */
  unread: { vdom: string | null; table: string }[];
}

/**
 * The objects of some tables that nothing names (`cmdb unused`), an object named only by unused
 * objects counting as unused (a group nothing uses and members nothing else uses; two objects that
 * name only each other too). `readings` holds those tables and every table that can name them
 * (`catalogue.referrers`), per VDOM and global. Factory objects (`isFactory`, or `q_static` as the device
 * marks them) are never listed, and what they name is used.
 */
export function findUnused(
  readings: readonly TableReading[],
  tablesAsked: readonly string[],
  options: { find?: FindTable; isFactory?: IsFactory } = {},
): Unused {
  const tables = new Tables(options.find);
  const asked = new Set(tablesAsked.map((p) => canonical(tables.get(p), p)));
  const objects = objectsOf(readings, tables);
  const places = new Places<number>();
  const candidates: ReadObject[] = [];
  const candidateOf = objects.map((o) => {
    if (!asked.has(o.table) || o.key === null || o.object.q_static === true) return -1;
    if (options.isFactory?.(o.table, o.key)) return -1;
    places.add(o.where, o.table, '', o.key, candidates.length);
    return candidates.push(o) - 1;
  });
  // A table's sub-table entries (`system/object-tagging` `tags.name`) are filed once something names them.
  const filed = new Set<string>();
  const fileEntries = (table: string, field: string) => {
    if (filed.has(`${table}\0${field}`)) return;
    filed.add(`${table}\0${field}`);
    candidates.forEach((c, i) => {
      if (c.table === table) for (const v of valuesAt(c.object, field)) places.add(c.where, table, field, v, i);
    });
  };
  const names: number[][] = candidates.map(() => []);
  const used = new Uint8Array(candidates.length);
  const queue: number[] = [];
  objects.forEach((o, i) => {
    const self = candidateOf[i];
    for (const ref of referencesOf(o.def, o.object))
      for (const t of ref.targets) {
        if (!asked.has(t.table)) continue;
        if (isSubTableField(t.field)) fileEntries(t.table, t.field);
        for (const c of lookup(places, tables, t, o.where, ref.value)) {
          if (c === self) continue;
          if (self >= 0) names[self].push(c);
          else if (!used[c]) {
            used[c] = 1;
            queue.push(c);
          }
        }
      }
  });
  // Used: named by a kept object, or by an object that is used.
  while (queue.length) {
    for (const c of names[queue.pop()!])
      if (!used[c]) {
        used[c] = 1;
        queue.push(c);
      }
  }
  const unusedObjects = candidates.filter((_, i) => !used[i]);
  const at = (o: ReadObject): ObjectAt => ({ vdom: o.where, table: o.table, key: o.key! });
  const byKey = new Map(unusedObjects.map((o) => [`${o.where}\0${o.table}\0${keyId(o.key)}`, o.object]));
  const deletes = [...unusedObjects].reverse().map((o) => ({ action: 'delete' as const, ...at(o) }));
  const ordered = orderSteps(deletes, {
    find: options.find,
    current: (vdom, table, key) => byKey.get(`${vdom}\0${table}\0${keyId(key)}`),
  });
  const unread = readings
    .filter((r) => r.content === null)
    .map((r) => ({ vdom: whereOf(tables.get(r.table), r.vdom), table: r.table }));
  return {
    unused: unusedObjects.map(at),
    deleteOrder: ordered.steps.map((s) => ({ vdom: s.vdom, table: s.table, key: s.key! })),
    unread,
  };
}
