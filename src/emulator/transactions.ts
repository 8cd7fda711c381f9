import { DeviceError } from './envelope.js';
import type { Database, TableState, View } from './store.js';

interface Transaction {
  id: number;
  timeoutSeconds: number;
  /** When it expires: `timeout` seconds after it started, however busy it was. */
  deadline: number;
  requests: number;
  /** Copy-on-write copies of the tables the transaction wrote to, by `vdom\0tablePath`: the tables it holds. */
  copies: Map<string, TableState>;
  changed: Set<string>;
}

const slot = (vdom: string, tablePath: string) => `${vdom}\0${tablePath}`;

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

  read(vdom: string, tablePath: string): TableState {
    return this.tx.copies.get(slot(vdom, tablePath)) ?? this.db.table(vdom, tablePath);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => boolean): boolean {
    const key = slot(vdom, tablePath);
    let state = this.tx.copies.get(key);
    if (!state) {
      const holder = this.manager.holder(vdom, tablePath);
      if (holder !== undefined) throw locked(vdom, tablePath, holder);
      state = this.db.table(vdom, tablePath).copy();
      this.tx.copies.set(key, state);
    }
    const changed = change(state);
    if (changed) {
      state.revision++;
      this.tx.changed.add(key);
    }
    return changed;
  }
}

/** Writes outside any transaction, refused on tables an open transaction holds. */
class GuardedView implements View {
  constructor(
    private readonly manager: TransactionManager,
    private readonly committed: View,
  ) {}

  read(vdom: string, tablePath: string): TableState {
    return this.committed.read(vdom, tablePath);
  }

  write(vdom: string, tablePath: string, change: (state: TableState) => boolean): boolean {
    const holder = this.manager.holder(vdom, tablePath);
    if (holder !== undefined) throw locked(vdom, tablePath, holder);
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
  holder(vdom: string, tablePath: string): number | undefined {
    const key = slot(vdom, tablePath);
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
    return new GuardedView(this, committed);
  }

  commit(id: number): boolean {
    const tx = this.find(id);
    if (!tx) return false;
    this.open.delete(id);
    for (const key of tx.changed) {
      const [vdom, tablePath] = key.split('\0');
      const state = tx.copies.get(key)!;
      state.revision = this.db.table(vdom, tablePath).revision + 1;
      this.db.install(vdom, tablePath, state);
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
