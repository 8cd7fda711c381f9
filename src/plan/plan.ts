// The plan that makes a device match a document (creates, updates of the changed fields, moves,
// deletes with --prune), its steps in the order they are sent, each step's request, secrets hidden.
import { devicePicksKey, keepsOrder, type TableDef } from '../catalogue/index.js';
import type { ApiRequest } from '../api/client.js';
import { redactSecrets } from '../catalogue/secrets.js';
import { changedFields, type FieldChange } from '../objects/compare.js';
import { isObject, keyId, keyOf, type Obj } from '../objects/normalize.js';
import type { DocumentTable, TableContent } from './document.js';
import { orderMoves, type OrderMove } from './order.js';

/** Where a change happens: `key` null for a singleton. */
export interface PlanEntry {
  vdom: string;
  table: string;
  key: string | number | null;
}

export interface CreateEntry extends PlanEntry {
  object: Obj;
}

export interface UpdateEntry extends PlanEntry {
  changes: Record<string, FieldChange>;
}

/**
 * An object of a table whose order matters (keepsOrder) to place right before or after another: `{"before": k}` or
 * `{"after": k}`.
 */
export type MoveEntry = PlanEntry & { key: string | number } & (
    | { before: string | number }
    | { after: string | number }
  );

/** CLI.md's plan object: what `diff -o json` prints. */
export interface Plan {
  create: CreateEntry[];
  update: UpdateEntry[];
  move: MoveEntry[];
  delete: PlanEntry[];
}

/** One write of a plan, in the order apply sends them. */
export type Step =
  | ({ action: 'create' } & CreateEntry)
  | ({ action: 'update' } & UpdateEntry)
  | ({ action: 'move' } & MoveEntry)
  | ({ action: 'delete' } & PlanEntry);

export interface PlannedTables {
  plan: Plan;
  /**
   * Table by table in document order, its creates and updates in document order, then its moves
   * (once the new objects exist, at the end of the table); then the deletes: tables in reverse
   * document order, objects in reverse device order.
   */
  steps: Step[];
  /** The catalogue entry of every table the plan touches, by path. */
  tables: Map<string, TableDef>;
  /**
   * The document's order of the keys of each table with moves, by `orderSlot(vdom, table)`: what the moves together
   * must leave.
   */
  orders: Map<string, (string | number)[]>;
}

/** The key of a table of a VDOM in PlannedTables.orders. */
export function orderSlot(vdom: string, table: string): string {
  return `${vdom}\0${table}`;
}

/** A document table and the device's current content of it. */
export interface Comparison {
  desired: DocumentTable;
  actual: TableContent;
}

export function planIsEmpty(plan: Plan): boolean {
  return plan.create.length + plan.update.length + plan.move.length + plan.delete.length === 0;
}

/**
 * The plan that makes the device match the document, from reads only: creates for objects the device
 * lacks, updates with the fields that differ (CLI.md's comparison rules), moves where the table's
 * order matters and the device's order of the document's objects is not the document's, and with
 * `prune` deletes for objects of the document's keyed tables that the document does not list.
 */
export function computePlan(comparisons: Comparison[], options: { prune: boolean }): PlannedTables {
  const plan: Plan = { create: [], update: [], move: [], delete: [] };
  const steps: Step[] = [];
  const deletes: Step[][] = [];
  const tables = new Map<string, TableDef>();
  const orders = new Map<string, (string | number)[]>();
  for (const { desired, actual } of comparisons) {
    const { vdom, table } = desired;
    tables.set(table.path, table);
    const at = { vdom, table: table.path };
    if (!Array.isArray(desired.content)) {
      const changes = changedFields(table.fields, null, desired.content, isObject(actual) ? actual : {});
      if (Object.keys(changes).length) {
        plan.update.push({ ...at, key: null, changes });
        steps.push({ action: 'update', ...at, key: null, changes });
      }
      continue;
    }
    // A list the catalogue names no key for has no item path: nothing to match objects by, or write.
    if (!table.key) continue;
    const deviceOrder = (Array.isArray(actual) ? actual : []).map((object) => keyOf(table, object));
    const onDevice = new Map(
      (Array.isArray(actual) ? actual : []).map((object) => [keyId(keyOf(table, object)), object]),
    );
    const listed = new Set<string>();
    for (const object of desired.content) {
      const key = keyOf(table, object);
      if (devicePicksKey(table, key)) {
        // Key 0: created each time, under the key the device picks, at the end of the table.
        plan.create.push({ ...at, key, object });
        steps.push({ action: 'create', ...at, key, object });
        continue;
      }
      listed.add(keyId(key));
      const current = onDevice.get(keyId(key));
      if (!current) {
        plan.create.push({ ...at, key, object });
        steps.push({ action: 'create', ...at, key, object });
        // A new object lands at the end of the table.
        deviceOrder.push(key);
        continue;
      }
      const changes = changedFields(table.fields, table.key, object, current);
      if (Object.keys(changes).length) {
        plan.update.push({ ...at, key, changes });
        steps.push({ action: 'update', ...at, key, changes });
      }
    }
    if (keepsOrder(table)) {
      // Objects under key 0 have no key to place them by until the device picks one: they stay last.
      const order = desired.content.map((object) => keyOf(table, object)).filter((key) => !devicePicksKey(table, key));
      const moves = orderMoves(deviceOrder, order).map((move: OrderMove): MoveEntry => ({ ...at, ...move }));
      if (moves.length) orders.set(orderSlot(vdom, table.path), order);
      plan.move.push(...moves);
      steps.push(...moves.map((move) => ({ action: 'move' as const, ...move })));
    }
    if (!options.prune) continue;
    const gone = [...onDevice.values()]
      .filter((object) => !listed.has(keyId(keyOf(table, object))))
      .map((object) => ({ ...at, key: keyOf(table, object) }));
    plan.delete.push(...gone);
    deletes.push(gone.map((entry) => ({ action: 'delete' as const, ...entry })));
  }
  for (const group of deletes.reverse()) steps.push(...group.reverse());
  return { plan, steps, tables, orders };
}

const NEEDS = { create: 'C', update: 'U', move: 'U', delete: 'D' } as const;

/** Whether the catalogue lists the operation a step needs for its table. */
export function stepAllowed(step: Step, table: TableDef): boolean {
  return table.operations.includes(table.singleton ? 'P' : NEEDS[step.action]);
}

/**
 * The request that carries out one step: POST the object, PUT only the changed fields, PUT action=move, DELETE by key.
 */
export function requestOf(step: Step, table: TableDef): ApiRequest {
  const base = { tablePath: table.path, group: table.group, query: { vdom: [step.vdom] } };
  const mkey = step.key === null ? undefined : step.key;
  switch (step.action) {
    case 'create':
      return { ...base, method: 'POST', body: step.object };
    case 'update':
      return {
        ...base,
        method: 'PUT',
        mkey,
        body: Object.fromEntries(Object.entries(step.changes).map(([name, change]) => [name, change.to])),
      };
    case 'move':
      return {
        ...base,
        method: 'PUT',
        mkey,
        query: {
          ...base.query,
          action: 'move',
          ...('before' in step ? { before: String(step.before) } : { after: String(step.after) }),
        },
      };
    case 'delete':
      return { ...base, method: 'DELETE', mkey };
  }
}

function redactChanges(table: TableDef | undefined, changes: Record<string, FieldChange>): Record<string, FieldChange> {
  const from = redactSecrets(
    table?.fields,
    Object.fromEntries(Object.entries(changes).map(([name, c]) => [name, c.from])),
  );
  const to = redactSecrets(table?.fields, Object.fromEntries(Object.entries(changes).map(([name, c]) => [name, c.to])));
  return Object.fromEntries(Object.keys(changes).map((name) => [name, { from: from[name], to: to[name] }]));
}

/** A plan entry or step as it may be printed: secrets hidden. */
export function redactStep<T extends Partial<CreateEntry & UpdateEntry> & PlanEntry>(
  entry: T,
  tables: Map<string, TableDef>,
): T {
  const table = tables.get(entry.table);
  const out = { ...entry };
  if (entry.object) out.object = redactSecrets(table?.fields, entry.object);
  if (entry.changes) out.changes = redactChanges(table, entry.changes);
  return out;
}

export function redactPlan(planned: PlannedTables): Plan {
  const { plan, tables } = planned;
  return {
    create: plan.create.map((e) => redactStep(e, tables)),
    update: plan.update.map((e) => redactStep(e, tables)),
    move: plan.move,
    delete: plan.delete,
  };
}
