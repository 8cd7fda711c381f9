// The plan that makes a device match a document (creates, updates of the changed fields, moves,
// deletes with --prune), its steps in the order they are sent, each step's request, secrets hidden.
import { devicePicksKey, keepsOrder, type TableDef } from '../catalogue/index.js';
import type { ApiRequest } from '../api/client.js';
import { isFactoryObject } from '../catalogue/factory.js';
import { plainSecretFields, redactSecrets } from '../catalogue/secrets.js';
import { isMetaField } from '../catalogue/validate.js';
import { changedFields, type FieldChange } from '../objects/compare.js';
import { isObject, keyId, keyOf, nameOf, type Obj } from '../objects/normalize.js';
import type { DocumentTable, TableContent } from './document.js';
import { orderMoves, type OrderMove } from './order.js';
import { deletesOf, hasVerb, mergedEntries, movesOf, renamesOf, withListVerbs } from './verbs.js';

/** Where a change happens: `vdom` null for a global table, `key` null for a singleton. */
export interface PlanEntry {
  vdom: string | null;
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
  /**
   * Changes the table's operations cannot make (a create in a table without `C`: imported certificates),
   * left out of the plan whatever `--force` says: not restorable through the API, never a difference.
   */
  notRestorable: Step[];
  /** The document's plain-text secrets on objects the device has, compared as set or not only (no setSecrets). */
  secrets: (PlanEntry & { field: string })[];
  /** Objects under key 0 that nothing finds again (no `name`): created anew by every apply. */
  createdAnew: PlanEntry[];
}

/** The key of a table of a VDOM in PlannedTables.orders. */
export function orderSlot(vdom: string | null, table: string): string {
  return `${vdom}\0${table}`;
}

/**
 * A document table and the device's current content of it (objects with their `q_*` facts when read
 * with them); `defaults`, the table's, for a document that leaves out fields at their default.
 */
export interface Comparison {
  desired: DocumentTable;
  actual: TableContent;
  defaults?: Obj;
  /** The table's defaults for a `.conf`'s `unset` lines: the device's (the catalogue may lack one). */
  unsetTo?: Obj;
}

/** How a plan compares and what it may send (CLI.md "Configuration as code"). */
export interface PlanOptions {
  /** Delete the objects of the document's keyed tables that it does not list, factory objects aside. */
  prune: boolean;
  /** Top-level fields left out of comparisons and writes (`--ignore-fields`; `uuid` from another device). */
  ignoreFields?: ReadonlySet<string>;
  /** Send the document's plain-text secrets as updates (`--set-secrets`). */
  setSecrets?: boolean;
}

export function planIsEmpty(plan: Plan): boolean {
  return plan.create.length + plan.update.length + plan.move.length + plan.delete.length === 0;
}

/** An object the device keeps whatever a document says: a factory object (PROTOCOL.md), or a VDOM. */
function keptByDevice(table: TableDef, object: Obj): boolean {
  const path = table.aliasOf ?? table.path;
  return object.q_static === true || path === 'system/vdom' || isFactoryObject(path, keyOf(table, object));
}

/**
 * The desired object as it is compared and sent: without the fields ignored; with `defaults` (a document
 * that leaves out fields at their default), each field it leaves out that the device shows at that
 * default, its key and UUIDs aside.
 */
function desiredOf(table: TableDef, object: Obj, ignore: ReadonlySet<string>, current?: Obj, defaults?: Obj): Obj {
  const out = ignore.size ? Object.fromEntries(Object.entries(object).filter(([name]) => !ignore.has(name))) : object;
  if (!current || !defaults) return out;
  const filled = { ...out };
  for (const [name, value] of Object.entries(defaults)) {
    if (name in filled || name === table.key || ignore.has(name) || isMetaField(name)) continue;
    if (current[name] === undefined || table.fields[name]?.format === 'uuid') continue;
    filled[name] = value;
  }
  return filled;
}

/**
 * The plan that makes the device match the document, from reads only: creates for objects the device
 * lacks, updates with the fields that differ (CLI.md's comparison rules), moves where the table's
 * order matters and the device's order of the document's objects is not the document's, and with
 * `prune` deletes for objects of the document's keyed tables that the document does not list (never
 * the device's factory objects). An object under key 0 is the device's object of the same `name`.
 * A change the table's operations cannot make is left out (`notRestorable`).
 */
export function computePlan(comparisons: Comparison[], options: PlanOptions): PlannedTables {
  const plan: Plan = { create: [], update: [], move: [], delete: [] };
  const steps: Step[] = [];
  const deletes: Step[][] = [];
  const tables = new Map<string, TableDef>();
  const orders = new Map<string, (string | number)[]>();
  const notRestorable: Step[] = [];
  const secrets: PlannedTables['secrets'] = [];
  const createdAnew: PlanEntry[] = [];
  const ignore = options.ignoreFields ?? new Set<string>();
  /** Whether the table's operations can make a change; one they cannot is set aside, never sent. */
  const allowed = (step: Step, table: TableDef): boolean => {
    if (stepAllowed(step, table)) return true;
    notRestorable.push(step);
    return false;
  };
  /** An update of the fields that differ, the document's plain-text secrets added or noted. */
  const update = (at: PlanEntry, table: TableDef, object: Obj, current: Obj) => {
    const changes = changedFields(table.fields, table.key, object, current);
    for (const field of plainSecretFields(table.fields, object)) {
      if (field in changes) continue;
      if (options.setSecrets) changes[field] = { from: current[field] ?? null, to: object[field] };
      else secrets.push({ ...at, field });
    }
    const step = { action: 'update' as const, ...at, changes };
    if (!Object.keys(changes).length || !allowed(step, table)) return;
    plan.update.push({ ...at, changes });
    steps.push(step);
  };
  const create = (at: PlanEntry, table: TableDef, object: Obj): boolean => {
    const step = { action: 'create' as const, ...at, object };
    if (!allowed(step, table)) return false;
    plan.create.push({ ...at, object });
    steps.push(step);
    return true;
  };
  for (const { desired, actual, defaults, unsetTo } of comparisons) {
    const { vdom, table } = desired;
    tables.set(table.path, table);
    const at = { vdom, table: table.path };
    /** A snippet's object as compared: its sub-table entries merged by key into the device's. */
    const merged = (object: Obj, current: Obj | undefined) =>
      desired.verbs?.mergeEntries ? mergedEntries(table.fields, object, current) : object;
    /** The object with its `unset` fields at the table's defaults as the device gives them. */
    const unset = (object: Obj, index: number) => {
      const names = desired.verbs?.unset.get(index);
      if (!names || !unsetTo) return object;
      const out = { ...object };
      for (const name of names) if (unsetTo[name] !== undefined && !isMetaField(name)) out[name] = unsetTo[name];
      return out;
    };
    if (!Array.isArray(desired.content)) {
      const current = isObject(actual) ? actual : {};
      const object = merged(unset(desired.content, 0), current);
      update({ ...at, key: null }, table, desiredOf(table, object, ignore, current, defaults), current);
      continue;
    }
    // A list the catalogue names no key for has no item path: nothing to match objects by, or write.
    if (!table.key) continue;
    const verbs = desired.verbs;
    let onTable = Array.isArray(actual) ? actual : [];
    if (verbs) {
      // `rename` first: the file's other lines name the objects by their new keys.
      const renamed = renamesOf(table, vdom, verbs, onTable);
      onTable = renamed.onTable;
      for (const { from, to } of renamed.renames) {
        const changes = { [table.key]: { from, to } };
        const step = { action: 'update' as const, ...at, key: from, changes };
        if (!allowed(step, table)) continue;
        plan.update.push({ ...at, key: from, changes });
        steps.push(step);
      }
    }
    const deviceOrder = onTable.map((object) => keyOf(table, object));
    const onDevice = new Map(onTable.map((object) => [keyId(keyOf(table, object)), object]));
    const byName = new Map<string, Obj>();
    for (const object of onTable) {
      const name = nameOf(table, object);
      if (name !== undefined && !byName.has(name)) byName.set(name, object);
    }
    const listed = new Set<string>();
    // Each object's key on the device: an object under key 0 found by its name has the device's.
    const keys: (string | number)[] = [];
    for (const [index, stated] of desired.content.entries()) {
      const lists = verbs?.lists.get(index);
      let key = keyOf(table, stated);
      let current: Obj | undefined;
      let object = unset(stated, index);
      if (devicePicksKey(table, key)) {
        const name = nameOf(table, object);
        current = name === undefined ? undefined : byName.get(name);
        if (lists) object = withListVerbs(table, object, current, lists);
        if (!current) {
          // Created under the key the device picks, at the end of the table; with no name, on every apply.
          if (create({ ...at, key }, table, desiredOf(table, object, ignore)) && name === undefined)
            createdAnew.push({ ...at, key });
          continue;
        }
        key = keyOf(table, current);
      } else {
        current = onDevice.get(keyId(key));
        if (lists) object = withListVerbs(table, object, current, lists);
      }
      keys.push(key);
      listed.add(keyId(key));
      if (!current) {
        // A new object lands at the end of the table.
        if (create({ ...at, key }, table, desiredOf(table, object, ignore))) deviceOrder.push(key);
        continue;
      }
      update({ ...at, key }, table, desiredOf(table, merged(object, current), ignore, current, defaults), current);
    }
    // A file's `move` lines say the order themselves; otherwise a table whose order matters takes the document's.
    const moved = hasVerb(verbs, 'move')
      ? movesOf(table, vdom, verbs!, deviceOrder)
      : keepsOrder(table)
        ? orderMoves(deviceOrder, keys)
        : [];
    // Objects under key 0 that are not on the device yet have no key to place them by: they stay last.
    const moves = moved.map((move: OrderMove): MoveEntry => ({ ...at, ...move }));
    if (moves.length && !hasVerb(verbs, 'move')) orders.set(orderSlot(vdom, table.path), keys);
    plan.move.push(...moves);
    steps.push(...moves.map((move) => ({ action: 'move' as const, ...move })));
    // `delete <key>` lines, and `purge`: --prune for this table alone.
    const purge = options.prune || hasVerb(verbs, 'purge');
    const deleted = verbs
      ? new Set(deletesOf(table, vdom, verbs, new Set(onDevice.keys()), listed).map(keyId))
      : new Set<string>();
    const gone = onTable
      .filter((object) => {
        const id = keyId(keyOf(table, object));
        return deleted.has(id) || (purge && !listed.has(id) && !keptByDevice(table, object));
      })
      .map((object): Step => ({ action: 'delete', ...at, key: keyOf(table, object) }))
      .filter((step) => allowed(step, table));
    if (!gone.length) continue;
    plan.delete.push(...gone.map(({ action: _, ...entry }) => entry));
    deletes.push(gone);
  }
  for (const group of deletes.reverse()) steps.push(...group.reverse());
  return { plan, steps, tables, orders, notRestorable, secrets, createdAnew };
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
  const base = {
    tablePath: table.path,
    group: table.group,
    query: step.vdom === null ? {} : { vdom: [step.vdom] },
  };
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
