// The order references require (CLI.md "References between tables", "Order"): every create or update
// after the steps that bring what it names, within a table and across tables and VDOMs, and every
// delete after the steps that stop naming its object. Where references do not decide, the given
// order stands (global tables first): the steps are taken in that order and each one first pulls in,
// just before itself, what it still waits for, so an object moves only as far forward as it must.
// A circle is opened where it closes: the object that would wait on an object already waiting on
// it is written without those fields, and a closing update adds them once their objects exist.
import {
  eachReference,
  evaluatesTopDown,
  oldValues,
  Tables,
  type FindTable,
  type Key,
  type Obj,
  type ReferenceVisitor,
  type RefStep,
} from './fields.js';
import { eachNamed, lookup, readSteps } from './steps.js';

const NONE: number[] = [];

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
  // The given order, global tables first among creates and updates and last among deletes.
  const rank = steps.map((step, i) => {
    const global = facts.steps[i].global;
    const group = step.action === 'delete' ? (global ? 3 : 2) : global ? 0 : 1;
    return group * (n + 1) + i;
  });
  // One visitor for every step (the hot path: no closure per step); most names find nothing at once.
  let current = 0;
  let keep: (field: string) => boolean = () => true;
  let into: number[] = NONE;
  const intoList = (p: number) => {
    if (p === current) return;
    if (into === NONE) into = [];
    into.push(p);
  };
  const intoProviders: ReferenceVisitor = (field, _path, value, targets) => {
    if (keep(field)) eachNamed(facts.providers, tables, targets, facts.steps[current].where, value, intoList);
  };
  /** The steps that bring what step i's values name, in the fields `only` allows. */
  const providersOf = (i: number, only: (field: string) => boolean, out: number[] = NONE) => {
    const { def, values } = facts.steps[i];
    if (!def || !values) return out;
    current = i;
    keep = only;
    into = out;
    eachReference(def, values, intoProviders);
    return into;
  };
  const all = () => true;
  const deps: number[][] = steps.map((_, i) => providersOf(i, all));
  /** Node waits for another (most nodes wait for nothing: they share one empty list until then). */
  const wait = (node: number, on: number) => {
    if (deps[node] === NONE) deps[node] = [on];
    else deps[node].push(on);
  };
  // A delete waits for the steps that stop naming its object.
  const waitFor = (d: number) => {
    if (d !== current) wait(d, current);
  };
  const intoDeletes: ReferenceVisitor = (_field, _path, value, targets) =>
    eachNamed(facts.deletes, tables, targets, facts.steps[current].where, value, waitFor);
  steps.forEach((step, i) => {
    const { def } = facts.steps[i];
    let named: Obj | undefined;
    if (step.action === 'update' && step.changes) named = oldValues(step.changes);
    else if (step.action === 'delete' && step.key !== null) named = options.current?.(step.vdom, step.table, step.key);
    if (def && named) {
      current = i;
      eachReference(def, named, intoDeletes);
    }
  });
  // A table's steps in one VDOM: a top-down table's keep their order; another's moves wait for its creates.
  let slotCount = 0;
  const slotIds = new Map<string, Map<string | null, number>>();
  const slots = facts.steps.map((f) => {
    let byWhere = slotIds.get(f.table);
    if (!byWhere) slotIds.set(f.table, (byWhere = new Map()));
    let id = byWhere.get(f.where);
    if (id === undefined) byWhere.set(f.where, (id = slotCount++));
    return id;
  });
  const previous = new Map<number, number>();
  const lastOfTable = new Map<number, number>();
  const createsOf = new Map<number, number[]>();
  const topDown = new Map<number, boolean>();
  steps.forEach((step, i) => {
    const { def } = facts.steps[i];
    if (!def || step.action === 'delete') return;
    let ordered = topDown.get(slots[i]);
    if (ordered === undefined) topDown.set(slots[i], (ordered = evaluatesTopDown(def)));
    if (ordered) {
      const last = lastOfTable.get(slots[i]);
      if (last !== undefined) {
        wait(i, last);
        previous.set(i, last);
      }
      lastOfTable.set(slots[i], i);
    } else if (step.action === 'create') {
      const creates = createsOf.get(slots[i]);
      if (creates) creates.push(i);
      else createsOf.set(slots[i], [i]);
    }
  });
  // One node stands for "every create of the table", which each of its moves waits for.
  const barriers = new Map<number, number>();
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
    wait(i, barrier);
  });

  const state: number[] = new Array(deps.length).fill(0);
  const deferred: (Set<string> | undefined)[] = [];
  const closingOf = new Map<number, number>();
  const out: number[] = [];
  const pending: number[] = [];
  /** A node's waits in the given order, each once. */
  const prepare = (node: number) => {
    const list = deps[node];
    if (list.length < 2) return;
    list.sort((a, b) => rank[a] - rank[b]);
    let kept = 1;
    for (let k = 1; k < list.length; k++) if (list[k] !== list[kept - 1]) list[kept++] = list[k];
    list.length = kept;
  };
  /** The fields of step `node` naming what `other` brings (never the key): what opens the circle through it. */
  const closingFields = (node: number, other: number) => {
    const { def, values, where } = facts.steps[node];
    const fields = new Set<string>();
    const step = steps[node];
    if (node >= n || !def || !values || (step.action !== 'create' && step.action !== 'update')) return fields;
    eachReference(def, values, (field, _path, value, targets) => {
      if (field !== def.key && targets.some((t) => lookup(facts.providers, tables, t, where, value).includes(other)))
        fields.add(field);
    });
    return fields;
  };
  const nodes: number[] = [];
  const positions: number[] = [];
  const visit = (root: number) => {
    nodes.push(root);
    positions.push(0);
    state[root] = 1;
    prepare(root);
    while (nodes.length) {
      const top = nodes.length - 1;
      const node = nodes[top];
      const list = deps[node];
      if (positions[top] < list.length) {
        const dep = list[positions[top]++];
        if (state[dep] === 0) {
          state[dep] = 1;
          prepare(dep);
          nodes.push(dep);
          positions.push(0);
        } else if (state[dep] === 1) {
          // dep waits (through the stack) for this node: the fields naming it close a circle.
          const fields = closingFields(node, dep);
          if (fields.size) {
            const set = deferred[node] ?? new Set<string>();
            for (const f of fields) set.add(f);
            deferred[node] = set;
            const before = previous.get(node);
            deps[node] = providersOf(node, (f) => !set.has(f), before === undefined ? [] : [before]);
            prepare(node);
            positions[top] = 0;
          }
          // Otherwise a circle no field opens (deletes naming each other): the order met stands.
        }
        continue;
      }
      nodes.pop();
      positions.pop();
      state[node] = 2;
      out.push(node);
      const fields = deferred[node];
      if (fields) {
        const closing = deps.length;
        deps.push(providersOf(node, (f) => fields.has(f), [node]));
        rank.push(rank[node]);
        state.push(0);
        closingOf.set(closing, node);
        pending.push(closing);
      }
    }
  };
  // The given order by groups (a rank is its group's base plus the step's index): no sort needed.
  const roots: number[] = [];
  for (let group = 0; group < 4; group++)
    for (let i = 0; i < n; i++) if (Math.floor(rank[i] / (n + 1)) === group) roots.push(i);
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
