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

/** Every table of every VDOM. */
/**
 * Every VDOM's tables, each made the first time it is asked for (`create`: from the saved state or
 * the seed), so that a start reads none of the catalogue's 472 tables that its requests do not touch.
 */
export class Database {
  private readonly tables = new Map<string, Map<string, TableState>>();

  constructor(
    readonly vdoms: readonly string[],
    private readonly create: (vdom: string, tablePath: string) => TableState,
  ) {
    for (const vdom of vdoms) this.tables.set(vdom, new Map());
  }

  hasVdom(vdom: string): boolean {
    return this.tables.has(vdom);
  }

  table(vdom: string, tablePath: string): TableState {
    const tables = this.tables.get(vdom);
    if (!tables) throw new Error(`no VDOM ${vdom}`);
    let state = tables.get(tablePath);
    if (!state) tables.set(tablePath, (state = this.create(vdom, tablePath)));
    return state;
  }

  install(vdom: string, tablePath: string, state: TableState): void {
    const tables = this.tables.get(vdom);
    if (!tables) throw new Error(`no VDOM ${vdom}`);
    tables.set(tablePath, state);
  }

  /** The tables made so far (the others are still as the saved state or the seed has them). */
  *entries(): Generator<[vdom: string, tablePath: string, state: TableState]> {
    for (const [vdom, tables] of this.tables) {
      for (const [tablePath, state] of tables) yield [vdom, tablePath, state];
    }
  }
}

/** Where operations read and write: the committed database, or a transaction's staged copy of it. */
export interface View {
  read(vdom: string, tablePath: string): TableState;
  /** Runs `change` on a writable table; it returns whether anything changed (and throws before changing anything). */
  write(vdom: string, tablePath: string, change: (state: TableState) => boolean): boolean;
}

/** Writes go straight to the database; each change moves the table's revision and is persisted. */
export class CommittedView implements View {
  constructor(
    private readonly db: Database,
    private readonly onChange: () => void,
  ) {}

  read(vdom: string, tablePath: string): TableState {
    return this.db.table(vdom, tablePath);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => boolean): boolean {
    const state = this.db.table(vdom, tablePath);
    const changed = change(state);
    if (changed) {
      state.revision++;
      this.onChange();
    }
    return changed;
  }
}
