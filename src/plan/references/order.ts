// The order references require (CLI.md "References between tables", "Order"): every create or update
// after the steps that bring what it names, within a table and across tables and VDOMs, and every
// delete after the steps that stop naming its object. Where references do not decide, the given
// order stands (global tables first): the steps are taken in that order and each one first pulls in,
// just before itself, what it still waits for, so an object moves only as far forward as it must.
// A circle is opened where it closes: the object that would wait on an object already waiting on
// it is written without those fields, and a closing update adds them once their objects exist.
import {
  evaluatesTopDown,
  oldValues,
  referencesOf,
  Tables,
  type FindTable,
  type Key,
  type Obj,
  type RefStep,
} from './fields.js';
import { lookup, readSteps } from './steps.js';

/** The second half of a step split to open a circle: the fields it was first written without. */
export interface ClosingUpdate {
  action: 'update';
  vdom: string | null;
  table: string;
  key: Key | null;
  changes: Record<string, { from: unknown; to: unknown }>;
  /** Marks the update that closes a circle (the fields were left out of the step before). */
  closes: true;
}

export interface OrderOptions {
  find?: FindTable;
  /**
   * The device's current object under a delete's key: what a delete stops naming (a group before
   * its members). Without it, deletes wait only for the updates that stop naming their objects.
   */
  current?: (vdom: string | null, table: string, key: Key) => Obj | undefined;
}

/** What a step waits for: another node, and the field of the reference that makes it wait (null: not a reference). */
interface Dep {
  node: number;
  field: string | null;
}

/**
 * The steps (a plan's, in its order: tables in document order, global first, creates and updates,
 * then a table's moves; then the deletes, tables reversed, objects in the reverse of the device's)
 * in the order references require:
 * - a create or update after the create (or rename) of every object it names, sub-table entries
 *   (`system/sdwan` `zone.name`) included; an object naming itself waits for nothing (one write);
 * - a delete after every update whose old values name its object and every delete of an object
 *   that names it (`current`); deletes stay after every create and update;
 * - the steps of a table the device evaluates top-down keep their order among themselves; another
 *   table's moves come after that table's creates;
 * - two objects that name each other: the one that would wait on an object already waiting on it
 *   is written without those fields, and a ClosingUpdate right after the circle adds them;
 * - a circle no field can open (deletes of objects that name each other) is left in the order met:
 *   the device refuses one of those deletes whatever the order.
 * Deterministic; O((steps + references) log steps).
 */
export function orderSteps<S extends RefStep>(
  steps: readonly S[],
  options: OrderOptions = {},
): Array<S | ClosingUpdate> {
  const tables = new Tables(options.find);
  const facts = readSteps(steps, tables);
  const n = steps.length;
  const deps: Dep[][] = steps.map(() => []);
  // The given order, global tables first among creates and updates and last among deletes.
  const rank = steps.map((step, i) => {
    const global = facts.steps[i].global;
    const group = step.action === 'delete' ? (global ? 3 : 2) : global ? 0 : 1;
    return group * (n + 1) + i;
  });

  facts.steps.forEach((f, i) => {
    for (const ref of f.refs)
      for (const target of ref.targets)
        for (const p of lookup(facts.providers, tables, target, f.where, ref.value))
          if (p !== i) deps[i].push({ node: p, field: ref.field });
  });
  // A delete waits for the steps that stop naming its object.
  steps.forEach((step, i) => {
    const f = facts.steps[i];
    let named: Obj | undefined;
    if (step.action === 'update' && step.changes) named = oldValues(step.changes);
    else if (step.action === 'delete' && step.key !== null) named = options.current?.(step.vdom, step.table, step.key);
    if (!f.def || !named) return;
    for (const ref of referencesOf(f.def, named))
      for (const target of ref.targets)
        for (const d of lookup(facts.deletes, tables, target, f.where, ref.value))
          if (d !== i) deps[d].push({ node: i, field: null });
  });
  // A table's steps in one VDOM: a top-down table's keep their order; another's moves wait for its creates.
  const slots = facts.steps.map((f) => `${f.where ?? ''}\0${f.where === null}\0${f.table}`);
  const lastOfTable = new Map<string, number>();
  const createsOf = new Map<string, Dep[]>();
  steps.forEach((step, i) => {
    const { def } = facts.steps[i];
    if (!def || step.action === 'delete') return;
    if (evaluatesTopDown(def)) {
      const last = lastOfTable.get(slots[i]);
      if (last !== undefined) deps[i].push({ node: last, field: null });
      lastOfTable.set(slots[i], i);
    } else if (step.action === 'create') {
      const creates = createsOf.get(slots[i]);
      if (creates) creates.push({ node: i, field: null });
      else createsOf.set(slots[i], [{ node: i, field: null }]);
    }
  });
  // One node stands for "every create of the table", which each of its moves waits for.
  const barriers = new Map<string, number>();
  steps.forEach((step, i) => {
    const creates = createsOf.get(slots[i]);
    if (step.action !== 'move' || !creates) return;
    let barrier = barriers.get(slots[i]);
    if (barrier === undefined) {
      barrier = deps.length;
      deps.push(creates);
      rank.push(rank[i] - 0.5);
      barriers.set(slots[i], barrier);
    }
    deps[i].push({ node: barrier, field: null });
  });

  const state: number[] = new Array(deps.length).fill(0);
  const deferred: (Set<string> | undefined)[] = [];
  const closingOf = new Map<number, number>();
  const out: number[] = [];
  const pending: number[] = [];
  const byRank = (a: Dep, b: Dep) => rank[a.node] - rank[b.node];
  const canDefer = (node: number, field: string) => {
    const step = steps[node];
    if (node >= n || (step.action !== 'create' && step.action !== 'update')) return false;
    return field !== facts.steps[node].def?.key;
  };
  const visit = (root: number) => {
    const stack: [number, number][] = [[root, 0]];
    state[root] = 1;
    deps[root].sort(byRank);
    while (stack.length) {
      const top = stack[stack.length - 1];
      const node = top[0];
      const list = deps[node];
      if (top[1] < list.length) {
        const dep = list[top[1]++];
        if (dep.field !== null && deferred[node]?.has(dep.field)) continue;
        if (state[dep.node] === 0) {
          state[dep.node] = 1;
          deps[dep.node].sort(byRank);
          stack.push([dep.node, 0]);
        } else if (state[dep.node] === 1 && dep.field !== null && canDefer(node, dep.field)) {
          // dep.node waits (through the stack) for this node: this field closes a circle.
          const set = deferred[node] ?? new Set<string>();
          set.add(dep.field);
          deferred[node] = set;
        }
        continue;
      }
      stack.pop();
      state[node] = 2;
      out.push(node);
      if (deferred[node]) {
        const closing = deps.length;
        const fields = deferred[node];
        deps.push([{ node, field: null }, ...list.filter((d) => d.field !== null && fields.has(d.field))]);
        rank.push(rank[node]);
        state.push(0);
        closingOf.set(closing, node);
        pending.push(closing);
      }
    }
  };
  const roots = Array.from({ length: n }, (_, i) => i).sort((a, b) => rank[a] - rank[b]);
  for (const root of roots) {
    if (state[root] === 0) visit(root);
    // A circle's closing updates, once every object they name is written.
    while (pending.length) visit(pending.shift()!);
  }

  const result: Array<S | ClosingUpdate> = [];
  for (const node of out) {
    const closed = closingOf.get(node);
    if (closed !== undefined) result.push(closingUpdate(steps[closed], deferred[closed]!));
    else if (node < n) {
      const step = deferred[node] ? without(steps[node], deferred[node]) : steps[node];
      if (step) result.push(step);
    }
  }
  return result;
}

/** A step without some fields; undefined for an update left with no change. */
function without<S extends RefStep>(step: S, fields: Set<string>): S | undefined {
  if (step.action === 'create' && step.object)
    return { ...step, object: Object.fromEntries(Object.entries(step.object).filter(([f]) => !fields.has(f))) };
  const changes = Object.entries(step.changes ?? {}).filter(([f]) => !fields.has(f));
  return changes.length ? { ...step, changes: Object.fromEntries(changes) } : undefined;
}

function closingUpdate(step: RefStep, fields: Set<string>): ClosingUpdate {
  const changes: ClosingUpdate['changes'] = {};
  for (const field of fields)
    changes[field] = step.action === 'create' ? { from: null, to: step.object?.[field] } : { ...step.changes![field] };
  return { action: 'update', vdom: step.vdom, table: step.table, key: step.key, changes, closes: true };
}
