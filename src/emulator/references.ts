// Who names what on the emulated device, and the checks a device makes with it (PROTOCOL.md,
// "References and integrity"): a write naming a missing object is refused, an object in use cannot be
// deleted, a renamed object's users follow it. The index of users is built per table the first time a
// question needs it (a delete, `q_ref`, the usage query), then kept up to date by every write.
import { factoryObjects, isFactoryObject } from '../catalogue/factory.js';
import type { TableDef } from '../catalogue/index.js';
import type { Catalogue } from '../catalogue/provider.js';
import { eachReference, namesAt, referenceSites, valuesAt, type ReferenceSite } from '../catalogue/references.js';
import { fail } from './envelope.js';
import type { Obj } from './schema.js';
import {
  KeyedTable,
  keyId,
  slotOf,
  type Database,
  type Edit,
  type Owner,
  type TableState,
  type Use,
  type Uses,
  type View,
} from './store.js';

/** A global object that names objects of a per-VDOM table names them in whichever VDOM has them. */
const ANY_VDOM = '*';
type TargetOwner = Owner | typeof ANY_VDOM;

type UseMap = Map<string, Map<string, Use>>;

function targetId(owner: TargetOwner, tablePath: string, field: string, value: unknown): string {
  return `${slotOf(owner, tablePath)}\0${field}\0${keyId(value)}`;
}

function keyOf(table: TableDef, object: Obj): unknown {
  return table.singleton ? null : object[table.key!];
}

function add(map: UseMap, target: string, use: Use): void {
  let users = map.get(target);
  if (!users) map.set(target, (users = new Map()));
  const userId = `${slotOf(use.owner, use.table)}\0${keyId(use.key)}\0${use.field}`;
  const known = users.get(userId);
  if (!known) users.set(userId, { ...use });
  else if ((known.count += use.count) === 0) users.delete(userId);
  if (users.size === 0) map.delete(target);
}

/** The tables and their owners the index reads: what it needs of the database and the catalogue. */
class Places {
  constructor(
    readonly db: Database,
    readonly catalogue: Catalogue,
  ) {}

  table(tablePath: string): TableDef {
    const table = this.catalogue.find(tablePath);
    if (!table) throw new Error(`no table ${tablePath}`);
    return table;
  }

  isGlobal(tablePath: string): boolean {
    return this.db.ownerOf(this.db.vdoms[0], tablePath) === null;
  }

  /** Where an object of `owner` finds the objects of a target table it names. */
  targetOwner(owner: Owner, tablePath: string): TargetOwner {
    return this.isGlobal(tablePath) ? null : (owner ?? ANY_VDOM);
  }

  /** Every copy of a table: the device's one copy of a global table, else each VDOM's. */
  owners(tablePath: string): Owner[] {
    return this.isGlobal(tablePath) ? [null] : [...this.db.vdoms];
  }

  /** A VDOM whose requests reach an owner's tables. */
  vdomOf(owner: Owner): string {
    return owner ?? this.db.vdoms[0];
  }

  /** What an object names: one entry per name, each under every table its field may name. */
  named(owner: Owner, table: TableDef, object: Obj | undefined, sign: 1 | -1, into: UseMap): void {
    if (!object) return;
    const key = keyOf(table, object);
    eachReference(table, object, (site, name) => {
      const use: Use = { owner, table: table.path, key, field: site.field, count: sign };
      for (const target of site.targets)
        add(into, targetId(this.targetOwner(owner, target.table), target.table, target.field, name), use);
    });
  }
}

/** The users of a target: from the index, and for an object of a VDOM also those naming it from global tables. */
function collect(maps: readonly UseMap[], owner: Owner, tablePath: string, field: string, value: unknown): Use[] {
  const merged: UseMap = new Map();
  const targets = [targetId(owner, tablePath, field, value)];
  if (owner !== null) targets.push(targetId(ANY_VDOM, tablePath, field, value));
  for (const map of maps)
    for (const target of targets) for (const use of map.get(target)?.values() ?? []) add(merged, '', use);
  return [...(merged.get('')?.values() ?? [])].filter((use) => use.count > 0);
}

/** The committed database's users, table by table as questions need them. */
export class ReferenceIndex implements Uses {
  readonly places: Places;
  private readonly users: UseMap = new Map();
  /** The copies of tables read into the index, by slot: kept up to date from then on. */
  private readonly indexed = new Set<string>();
  /** The tables whose every possible user is indexed. */
  private readonly covered = new Set<string>();

  constructor(db: Database, catalogue: Catalogue) {
    this.places = new Places(db, catalogue);
  }

  /** The index itself, after reading every table that can name objects of `tablePath`. */
  mapFor(tablePath: string): UseMap {
    if (!this.covered.has(tablePath)) {
      for (const referrer of this.places.catalogue.referrers(tablePath))
        for (const owner of this.places.owners(referrer.table)) this.read(owner, referrer.table);
      this.covered.add(tablePath);
    }
    return this.users;
  }

  usersOf(owner: Owner, tablePath: string, field: string, value: unknown): Use[] {
    return collect([this.mapFor(tablePath)], owner, tablePath, field, value);
  }

  record(owner: Owner, tablePath: string, edits: readonly Edit[]): void {
    if (!this.indexed.has(slotOf(owner, tablePath))) return;
    const table = this.places.table(tablePath);
    for (const { before, after } of edits) {
      this.places.named(owner, table, before, -1, this.users);
      this.places.named(owner, table, after, 1, this.users);
    }
  }

  /** A table whose content was replaced whole (a transaction's copy, committed). */
  replaced(owner: Owner, tablePath: string, old: TableState, now: TableState): void {
    if (!this.indexed.has(slotOf(owner, tablePath))) return;
    this.scan(owner, tablePath, old, -1);
    this.scan(owner, tablePath, now, 1);
  }

  private read(owner: Owner, tablePath: string): void {
    const slot = slotOf(owner, tablePath);
    if (this.indexed.has(slot)) return;
    this.indexed.add(slot);
    this.scan(owner, tablePath, this.places.db.tableAt(owner, tablePath), 1);
  }

  private scan(owner: Owner, tablePath: string, state: TableState, sign: 1 | -1): void {
    const table = this.places.table(tablePath);
    if (referenceSites(table).length === 0) return;
    const objects = state instanceof KeyedTable ? state.all() : [state.object];
    for (const object of objects) this.places.named(owner, table, object, sign, this.users);
  }
}

/** A transaction's users: the committed ones, with what its staged writes changed. */
export class TransactionUses implements Uses {
  private readonly delta: UseMap = new Map();

  constructor(private readonly committed: ReferenceIndex) {}

  usersOf(owner: Owner, tablePath: string, field: string, value: unknown): Use[] {
    return collect([this.committed.mapFor(tablePath), this.delta], owner, tablePath, field, value);
  }

  record(owner: Owner, tablePath: string, edits: readonly Edit[]): void {
    const table = this.committed.places.table(tablePath);
    for (const { before, after } of edits) {
      this.committed.places.named(owner, table, before, -1, this.delta);
      this.committed.places.named(owner, table, after, 1, this.delta);
    }
  }
}

/** The names an object provides for others to name, by the field (a path through sub-tables) they match. */
function provided(catalogue: Catalogue, table: TableDef): string[] {
  return [...new Set(catalogue.referrers(table.path).map((referrer) => referrer.target))];
}

function namesIn(object: Obj | undefined, field: string): Set<string> {
  if (!object) return new Set();
  return new Set(
    valuesAt(object, field)
      .filter((v) => v !== '')
      .map(keyId),
  );
}

/** A list of users for a refusal's text: `firewall/policy 1 (srcaddr)`. */
function describeUsers(users: readonly Use[]): string {
  return users.map((use) => `${use.table}${use.key === null ? '' : ` ${String(use.key)}`} (${use.field})`).join(', ');
}

/** A copy of an object with a name replaced at a site's path (a multi-value field: in its list of names). */
function renamedAt(value: unknown, site: ReferenceSite, at: number, from: string, to: unknown): unknown {
  if (Array.isArray(value)) return value.map((entry) => renamedAt(entry, site, at, from, to));
  if (at === site.path.length) {
    if (site.kind === 'words' && typeof value === 'string')
      return value
        .split(' ')
        .map((name) => (name === from ? String(to) : name))
        .join(' ');
    return keyId(value) === from ? to : value;
  }
  if (!value || typeof value !== 'object') return value;
  const field = site.path[at];
  const inner = (value as Obj)[field];
  return inner === undefined ? value : { ...(value as Obj), [field]: renamedAt(inner, site, at + 1, from, to) };
}

/**
 * The device's rules about references, for the operations of cmdb.ts: what a write may name, what
 * a delete or a change may take away, what a rename carries along, and what cannot be deleted.
 */
export class Integrity {
  private readonly places: Places;

  constructor(
    index: ReferenceIndex,
    /** The keys of a table's factory objects for an owner (the seed's). */
    private readonly staticKeys: (owner: Owner, table: TableDef) => ReadonlySet<string>,
  ) {
    this.places = index.places;
  }

  private owner(vdom: string, table: TableDef): Owner {
    return this.places.db.ownerOf(vdom, table.path);
  }

  /** A factory object: `q_static`, never deleted nor renamed. */
  isStatic(vdom: string, table: TableDef, key: unknown): boolean {
    return !table.singleton && this.staticKeys(this.owner(vdom, table), table).has(keyId(key));
  }

  /**
   * Refuses a write whose object names an object that does not exist (HTTP 500: -651 for interfaces and
   * zones, -3 otherwise). Only names `before` did not hold are looked at, in the top-level fields the
   * request gave (`given`): the rest was there already or is a default.
   */
  checkNames(view: View, vdom: string, table: TableDef, before: Obj | undefined, after: Obj, given: Iterable<string>) {
    const fields = new Set(given);
    const owner = this.owner(vdom, table);
    for (const site of referenceSites(table)) {
      if (!fields.has(site.field)) continue;
      const had = new Set(before ? namesAt(before, site).map(keyId) : []);
      for (const name of namesAt(after, site)) {
        if (had.has(keyId(name)) || this.resolves(view, owner, table, after, site, name)) continue;
        throw fail.missingReference(site.path[site.path.length - 1], keyId(name), site.interfaces);
      }
    }
  }

  private resolves(view: View, owner: Owner, table: TableDef, after: Obj, site: ReferenceSite, name: unknown) {
    const { databases } = factoryObjects();
    return site.targets.some((target) => {
      // Every device has them: a database's entries, a factory object (`ssl.root` among them).
      if (databases.has(target.table) || isFactoryObject(target.table, name, target.field)) return true;
      // A name inside the object being written (`system/sdwan` members named by its neighbors).
      if (target.table === table.path && namesIn(after, target.field).has(keyId(name))) return true;
      const targetTable = this.places.catalogue.find(target.table);
      if (!targetTable) return false;
      const where = this.places.targetOwner(owner, target.table);
      const vdoms = where === ANY_VDOM ? this.places.db.vdoms : [this.places.vdomOf(where)];
      return vdoms.some((vdom) => holds(view.read(vdom, target.table), targetTable, target.field, name));
    });
  }

  /**
   * Refuses (HTTP 500, -23) a delete, or a change, that takes away a name something else still uses;
   * a factory object is never deleted. A changed key is not taken away: its users follow (`rename`).
   */
  checkRemoved(view: View, vdom: string, table: TableDef, before: Obj, after: Obj | undefined): void {
    const key = keyOf(table, before);
    if (!after && this.isStatic(vdom, table, key)) throw fail.factoryObject(table.path, key);
    const owner = this.owner(vdom, table);
    for (const field of provided(this.places.catalogue, table)) {
      const kept = namesIn(after, field);
      for (const name of namesIn(before, field)) {
        if (kept.has(name) || (after && field === table.key)) continue;
        const users = this.others(view, owner, table, field, name, key);
        if (users.length) throw fail.inUse(table.path, name, describeUsers(users));
      }
    }
  }

  /** The objects other than `self` naming a name. */
  private others(view: View, owner: Owner, table: TableDef, field: string, name: unknown, self: unknown): Use[] {
    return view.uses
      .usersOf(owner, table.path, field, name)
      .filter((use) => !(use.owner === owner && use.table === table.path && keyId(use.key) === keyId(self)));
  }

  /** Refuses renaming a factory object, as the device does for objects it marks `q_no_rename`. */
  checkRename(vdom: string, table: TableDef, key: unknown): void {
    if (this.isStatic(vdom, table, key)) throw fail.noRename(table.path, key);
  }

  /** Every object naming `from` names `to` instead (a rename), through the view: staged in a transaction. */
  renameUsers(view: View, vdom: string, table: TableDef, from: unknown, to: unknown): void {
    const owner = this.owner(vdom, table);
    const users = this.others(view, owner, table, table.key!, from, from);
    const places = new Map(users.map((use) => [slotOf(use.owner, use.table), use]));
    for (const use of places.values()) view.hold(this.places.vdomOf(use.owner), use.table);
    for (const use of places.values()) {
      const userTable = this.places.table(use.table);
      const sites = referenceSites(userTable).filter((site) =>
        site.targets.some((t) => t.table === table.path && t.field === table.key),
      );
      const keys = new Set(
        users.filter((u) => u.table === use.table && u.owner === use.owner).map((u) => keyId(u.key)),
      );
      view.write(this.places.vdomOf(use.owner), use.table, (state) => {
        const edits: Edit[] = [];
        const rows =
          state instanceof KeyedTable
            ? state.all().filter((row) => keys.has(keyId(row[userTable.key!])))
            : [state.object];
        for (const row of rows) {
          const next = sites.reduce<Obj>((object, site) => renamedAt(object, site, 0, keyId(from), to) as Obj, row);
          if (state instanceof KeyedTable) state.replace(row[userTable.key!], next);
          else state.object = next;
          edits.push({ before: row, after: next });
        }
        return edits;
      });
    }
  }

  /** The objects that name an object (`q_ref` counts them; the usage query lists them). */
  usersOfObject(view: View, vdom: string, table: TableDef, object: Obj): Use[] {
    if (table.singleton) return [];
    return this.others(view, this.owner(vdom, table), table, table.key!, keyOf(table, object), keyOf(table, object));
  }
}

/** Whether a table (its state as a view reads it) holds a name in a field (its key, or a path through sub-tables). */
function holds(state: TableState, table: TableDef, field: string, name: unknown): boolean {
  if (state instanceof KeyedTable && field === table.key) return state.has(name);
  const objects = state instanceof KeyedTable ? state.all() : [state.object];
  const wanted = keyId(name);
  return objects.some((object) => namesIn(object, field).has(wanted));
}
