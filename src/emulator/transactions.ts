import type { Database, TableState, View } from './store.js';

interface Transaction {
  id: number;
  timeoutSeconds: number;
  lastUsed: number;
  requests: number;
  /** Copy-on-write copies of the tables the transaction touched, by `vdom\0tablePath`. */
  copies: Map<string, TableState>;
  changed: Set<string>;
}

const slot = (vdom: string, tablePath: string) => `${vdom}\0${tablePath}`;

/** Staged writes: visible to requests of the same transaction only, until commit. */
class TransactionView implements View {
  constructor(
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

export interface TransactionSummary {
  'transaction-id': number;
  timeout: number;
  'expires-in': number;
  requests: number;
}

/**
 * Batch transactions of release 6.4. A transaction expires after `timeout`
 * seconds without a request. At commit each touched table is replaced by the
 * transaction's copy: a table changed outside the transaction meanwhile
 * loses those changes (last writer wins, per table).
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
    this.open.set(id, { id, timeoutSeconds, lastUsed: this.clock(), requests: 0, copies: new Map(), changed: new Set() });
    return id;
  }

  private find(id: number): Transaction | undefined {
    const tx = this.open.get(id);
    if (tx && this.clock() - tx.lastUsed > tx.timeoutSeconds * 1000) {
      this.open.delete(id);
      return undefined;
    }
    return tx;
  }

  /** The view for a request carrying `X-TRANSACTION-ID`, or undefined when no such open transaction. */
  view(id: number): View | undefined {
    const tx = this.find(id);
    if (!tx) return undefined;
    tx.lastUsed = this.clock();
    tx.requests++;
    return new TransactionView(this.db, tx);
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
    return [...this.open.keys()]
      .map((id) => this.find(id))
      .filter((tx): tx is Transaction => tx !== undefined)
      .map((tx) => ({
        'transaction-id': tx.id,
        timeout: tx.timeoutSeconds,
        'expires-in': Math.max(0, Math.ceil((tx.lastUsed + tx.timeoutSeconds * 1000 - now) / 1000)),
        requests: tx.requests,
      }));
  }
}
