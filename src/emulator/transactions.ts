// Batch transactions of release 6.4 (PROTOCOL.md): writes staged on copies of the tables they touch,
// visible to their own transaction only until commit, with the index of who names what kept alongside.
import { DeviceError } from './envelope.js';
import type { ReferenceIndex } from './references.js';
import { TransactionUses } from './references.js';
import { changedBy, slotOf, type Change, type Database, type Owner, type TableState, type View } from './store.js';

interface Copy {
  owner: Owner;
  tablePath: string;
  state: TableState;
}

interface Transaction {
  id: number;
  timeoutSeconds: number;
  /** When it expires: `timeout` seconds after it started, however busy it was. */
  deadline: number;
  requests: number;
  /** Copy-on-write copies of the tables the transaction wrote to, by slot: the tables it holds. */
  copies: Map<string, Copy>;
  changed: Set<string>;
  /** Who names what once its writes are in. */
  uses: TransactionUses;
}

/** A write to a table that another transaction holds fails: the device locks what a transaction touched. */
function locked(vdom: string, tablePath: string, holder: number): DeviceError {
  return new DeviceError(
    500,
    -1,
    `${tablePath} in vdom ${vdom} is locked by transaction ${holder}; retry after it is committed or aborted`,
  );
}

/** Staged writes: visible to requests of the same transaction only, until commit. */
class TransactionView implements View {
  constructor(
    private readonly manager: TransactionManager,
    private readonly db: Database,
    private readonly tx: Transaction,
  ) {}

  get uses(): TransactionUses {
    return this.tx.uses;
  }

  read(vdom: string, tablePath: string): TableState {
    return (
      this.tx.copies.get(slotOf(this.db.ownerOf(vdom, tablePath), tablePath))?.state ?? this.db.table(vdom, tablePath)
    );
  }

  hold(vdom: string, tablePath: string): void {
    const owner = this.db.ownerOf(vdom, tablePath);
    if (this.tx.copies.has(slotOf(owner, tablePath))) return;
    const holder = this.manager.holder(owner, tablePath);
    if (holder !== undefined) throw locked(vdom, tablePath, holder);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => Change): boolean {
    const owner = this.db.ownerOf(vdom, tablePath);
    const key = slotOf(owner, tablePath);
    let copy = this.tx.copies.get(key);
    if (!copy) {
      this.hold(vdom, tablePath);
      copy = { owner, tablePath, state: this.db.table(vdom, tablePath).copy() };
      this.tx.copies.set(key, copy);
    }
    const done = change(copy.state);
    if (!changedBy(done)) return false;
    if (typeof done !== 'boolean') this.tx.uses.record(owner, tablePath, done);
    copy.state.revision++;
    this.tx.changed.add(key);
    return true;
  }
}

/** Writes outside any transaction, refused on tables an open transaction holds. */
class GuardedView implements View {
  constructor(
    private readonly manager: TransactionManager,
    private readonly db: Database,
    private readonly committed: View,
  ) {}

  get uses() {
    return this.committed.uses;
  }

  read(vdom: string, tablePath: string): TableState {
    return this.committed.read(vdom, tablePath);
  }

  hold(vdom: string, tablePath: string): void {
    const holder = this.manager.holder(this.db.ownerOf(vdom, tablePath), tablePath);
    if (holder !== undefined) throw locked(vdom, tablePath, holder);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => Change): boolean {
    this.hold(vdom, tablePath);
    return this.committed.write(vdom, tablePath, change);
  }
}

export interface TransactionSummary {
  'transaction-id': number;
  timeout: number;
  'expires-in': number;
  requests: number;
}

/**
 * Batch transactions of release 6.4. Writes carrying `X-TRANSACTION-ID` go to
 * copies of the tables they touch, invisible to every other request until
 * commit; the transaction holds those tables, so a write to them from
 * elsewhere fails until it ends. A write that fails leaves the transaction
 * open (the client must abort it). A transaction expires `timeout` seconds
 * after it started: its writes are discarded and its tables released.
 */
export class TransactionManager {
  private readonly open = new Map<number, Transaction>();
  private nextId = 1;

  constructor(
    private readonly db: Database,
    private readonly index: ReferenceIndex,
    private readonly onCommit: () => void,
    private readonly clock: () => number = Date.now,
  ) {}

  start(timeoutSeconds: number): number {
    const id = this.nextId++;
    this.open.set(id, {
      id,
      timeoutSeconds,
      deadline: this.clock() + timeoutSeconds * 1000,
      requests: 0,
      copies: new Map(),
      changed: new Set(),
      uses: new TransactionUses(this.index),
    });
    return id;
  }

  private find(id: number): Transaction | undefined {
    const tx = this.open.get(id);
    if (tx && this.clock() >= tx.deadline) {
      this.open.delete(id);
      return undefined;
    }
    return tx;
  }

  private live(): Transaction[] {
    return [...this.open.keys()].map((id) => this.find(id)).filter((tx): tx is Transaction => tx !== undefined);
  }

  /** The open transaction that holds a table (has written to it), if any. */
  holder(owner: Owner, tablePath: string): number | undefined {
    const key = slotOf(owner, tablePath);
    return this.live().find((tx) => tx.copies.has(key))?.id;
  }

  /** The view for a request carrying `X-TRANSACTION-ID`, or undefined when no such open transaction. */
  view(id: number): View | undefined {
    const tx = this.find(id);
    if (!tx) return undefined;
    tx.requests++;
    return new TransactionView(this, this.db, tx);
  }

  /** The view for requests outside any transaction. */
  guard(committed: View): View {
    return new GuardedView(this, this.db, committed);
  }

  commit(id: number): boolean {
    const tx = this.find(id);
    if (!tx) return false;
    this.open.delete(id);
    for (const key of tx.changed) {
      const { owner, tablePath, state } = tx.copies.get(key)!;
      const old = this.db.tableAt(owner, tablePath);
      state.revision = old.revision + 1;
      this.db.install(owner, tablePath, state);
      this.index.replaced(owner, tablePath, old, state);
    }
    if (tx.changed.size > 0) this.onCommit();
    return true;
  }

  abort(id: number): boolean {
    const found = this.find(id) !== undefined;
    this.open.delete(id);
    return found;
  }

  list(): TransactionSummary[] {
    const now = this.clock();
    return this.live().map((tx) => ({
      'transaction-id': tx.id,
      timeout: tx.timeoutSeconds,
      'expires-in': Math.max(0, Math.ceil((tx.deadline - now) / 1000)),
      requests: tx.requests,
    }));
  }
}
