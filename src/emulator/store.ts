// The emulated device's tables in memory: keyed tables (ordered, indexed by key) and singletons, per
// VDOM or once for the device (global tables), and the views operations read and write them through.
import { createHash } from 'node:crypto';
import type { Obj } from './schema.js';

/** Map key of an object key: integer keys and their decimal text are the same entry. */
export function keyId(value: unknown): string {
  return String(value);
}

/**
 * A keyed table: objects in their configured order plus an index by key, so
 * that a page is a slice (its cost depends on the page size, not its depth).
 * Objects are never changed in place (an update stores a new object), so a
 * copy of the table shares them safely.
 */
export class KeyedTable {
  readonly kind = 'keyed';
  private readonly rows: Obj[];
  private readonly index: Map<string, Obj>;

  constructor(
    readonly keyField: string,
    rows: Obj[] = [],
    public revision = 1,
  ) {
    this.rows = rows;
    this.index = new Map(rows.map((row) => [keyId(row[keyField]), row]));
  }

  get size(): number {
    return this.rows.length;
  }

  all(): readonly Obj[] {
    return this.rows;
  }

  get(key: unknown): Obj | undefined {
    return this.index.get(keyId(key));
  }

  has(key: unknown): boolean {
    return this.index.has(keyId(key));
  }

  /** Entries `start`..`start+count` of those matching `match` (all when no predicate). */
  page(start: number, count: number | undefined, match?: (row: Obj) => boolean): Obj[] {
    const end = count === undefined ? undefined : start + count;
    if (!match) return this.rows.slice(start, end);
    const out: Obj[] = [];
    let seen = 0;
    for (const row of this.rows) {
      if (end !== undefined && seen >= end) break;
      if (!match(row)) continue;
      if (seen++ >= start) out.push(row);
    }
    return out;
  }

  insert(row: Obj): void {
    this.rows.push(row);
    this.index.set(keyId(row[this.keyField]), row);
  }

  /** Replaces the object stored under `key` in place in the order (its key may change). */
  replace(key: unknown, row: Obj): void {
    const old = this.index.get(keyId(key));
    if (!old) return;
    this.rows[this.rows.indexOf(old)] = row;
    this.index.delete(keyId(key));
    this.index.set(keyId(row[this.keyField]), row);
  }

  remove(key: unknown): void {
    const old = this.index.get(keyId(key));
    if (!old) return;
    this.rows.splice(this.rows.indexOf(old), 1);
    this.index.delete(keyId(key));
  }

  /** Moves `key` before or after `target`; returns whether the order changed. */
  move(key: unknown, target: unknown, where: 'before' | 'after'): boolean {
    const row = this.index.get(keyId(key));
    const anchor = this.index.get(keyId(target));
    if (!row || !anchor || row === anchor) return false;
    const before = this.rows.indexOf(row);
    this.rows.splice(before, 1);
    const at = this.rows.indexOf(anchor) + (where === 'after' ? 1 : 0);
    this.rows.splice(at, 0, row);
    return at !== before;
  }

  copy(): KeyedTable {
    return new KeyedTable(this.keyField, [...this.rows], this.revision);
  }
}

export class SingletonTable {
  readonly kind = 'singleton';

  constructor(
    public object: Obj,
    public revision = 1,
  ) {}

  copy(): SingletonTable {
    return new SingletonTable(this.object, this.revision);
  }
}

export type TableState = KeyedTable | SingletonTable;

/** The device's revision text for a table's change counter. */
export function revisionText(vdom: string, tablePath: string, revision: number): string {
  return createHash('md5').update(`${vdom}/${tablePath}#${revision}`).digest('hex');
}

/** Whose a table is: a VDOM's, or null for a table the device holds once (scope `global`). */
export type Owner = string | null;

/** A table's place in the database, as one string: its owner and its path. */
export function slotOf(owner: Owner, tablePath: string): string {
  return `${owner ?? ''}\0${tablePath}`;
}

/**
 * Every VDOM's tables and the device's global ones, each made the first time it is asked for
 * (`create`: from the saved state or the seed), so that a start reads none of the catalogue's 472
 * tables that its requests do not touch. A global table is one for every VDOM: asked for in any
 * VDOM, it is the same table.
 */
export class Database {
  private readonly tables = new Map<string, { owner: Owner; tablePath: string; state: TableState }>();
  /** Whether each table asked for so far is global (every request and index update asks). */
  private readonly global = new Map<string, boolean>();

  constructor(
    readonly vdoms: readonly string[],
    private readonly create: (owner: Owner, tablePath: string) => TableState,
    private readonly isGlobal: (tablePath: string) => boolean = () => false,
  ) {}

  hasVdom(vdom: string): boolean {
    return this.vdoms.includes(vdom);
  }

  /** Where a VDOM's requests find a table: in the VDOM, or the device's one copy of a global table. */
  ownerOf(vdom: string, tablePath: string): Owner {
    let global = this.global.get(tablePath);
    if (global === undefined) this.global.set(tablePath, (global = this.isGlobal(tablePath)));
    return global ? null : vdom;
  }

  table(vdom: string, tablePath: string): TableState {
    if (!this.hasVdom(vdom)) throw new Error(`no VDOM ${vdom}`);
    return this.tableAt(this.ownerOf(vdom, tablePath), tablePath);
  }

  tableAt(owner: Owner, tablePath: string): TableState {
    const slot = slotOf(owner, tablePath);
    let entry = this.tables.get(slot);
    if (!entry) this.tables.set(slot, (entry = { owner, tablePath, state: this.create(owner, tablePath) }));
    return entry.state;
  }

  install(owner: Owner, tablePath: string, state: TableState): void {
    this.tables.set(slotOf(owner, tablePath), { owner, tablePath, state });
  }

  /** The tables made so far (the others are still as the saved state or the seed has them). */
  *entries(): Generator<[owner: Owner, tablePath: string, state: TableState]> {
    for (const { owner, tablePath, state } of this.tables.values()) yield [owner, tablePath, state];
  }
}

/** One object a write changed: as it was (none: it was created) and as it is (none: it was deleted). */
export interface Edit {
  before?: Obj;
  after?: Obj;
}

/** What a write did: the objects it changed, or (a move) whether the order changed. */
export type Change = readonly Edit[] | boolean;

/** One object that names another: where it is, its key (null for a singleton), the top-level field. */
export interface Use {
  owner: Owner;
  table: string;
  key: unknown;
  field: string;
  /** How many times it names it there (a list may name it more than once). */
  count: number;
}

/** Who names what, as a view sees it (references.ts). */
export interface Uses {
  /** The objects that name `value` in the field `field` of the objects of a table (`owner`'s copy of it). */
  usersOf(owner: Owner, tablePath: string, field: string, value: unknown): Use[];
  /** Takes a write into account. */
  record(owner: Owner, tablePath: string, edits: readonly Edit[]): void;
}

/** Where operations read and write: the committed database, or a transaction's staged copy of it. */
export interface View {
  read(vdom: string, tablePath: string): TableState;
  /**
   * Runs `change` on a writable table; it returns what it changed (and throws before changing
   * anything). Returns whether anything changed.
   */
  write(vdom: string, tablePath: string, change: (state: TableState) => Change): boolean;
  /** Throws as a write would when another transaction holds the table: before writes that must all happen. */
  hold(vdom: string, tablePath: string): void;
  /** Who names what, as this view sees it. */
  readonly uses: Uses;
}

/** Whether a change changed anything. */
export function changedBy(change: Change): boolean {
  return typeof change === 'boolean' ? change : change.length > 0;
}

/** Writes go straight to the database; each change moves the table's revision and is persisted. */
export class CommittedView implements View {
  constructor(
    private readonly db: Database,
    private readonly onChange: () => void,
    readonly uses: Uses,
  ) {}

  read(vdom: string, tablePath: string): TableState {
    return this.db.table(vdom, tablePath);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => Change): boolean {
    const state = this.db.table(vdom, tablePath);
    const done = change(state);
    if (!changedBy(done)) return false;
    if (typeof done !== 'boolean') this.uses.record(this.db.ownerOf(vdom, tablePath), tablePath, done);
    state.revision++;
    this.onChange();
    return true;
  }

  hold(): void {}
}
