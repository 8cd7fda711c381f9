// The order references require (CLI.md "References between tables", "Order"): every create or update
// after the steps that bring what it names, within a table and across tables and VDOMs, and every
// delete after the steps that stop naming its object. Where references do not decide, the given
// order stands (global tables first): the steps are taken in that order and each one first pulls in,
// just before itself, what it still waits for, so an object moves only as far forward as it must.
// A circle is opened where it closes: the object that would wait on an object already waiting on
// it is written without those fields, and a closing update adds them once their objects exist.
import { eachReference, type ReferenceVisitor } from '../../catalogue/references.js';
import { evaluatesTopDown, oldValues, Tables, type FindTable, type Key, type Obj, type RefStep } from './fields.js';
import { eachNamed, lookup, readSteps, type PlanFacts } from './steps.js';

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
export function orderSteps<S extends RefStep>(steps: readonly S[], options: OrderOptions = {}): OrderedSteps<S> {
  const order = new Order(steps, options);
  const walked = order.walk();
  const ordered: Array<S | ClosingUpdate> = [];
  const nodes: number[] = [];
  for (const node of walked) {
    const closed = order.closingOf.get(node);
    let step: S | ClosingUpdate | undefined;
    if (closed !== undefined) step = closingUpdate(steps[closed], order.deferred[closed]!);
    else if (node < steps.length) {
      const fields = order.deferred[node];
      step = fields ? without(steps[node], fields) : steps[node];
    }
    if (step) {
      ordered.push(step);
      nodes.push(node);
    }
  }
  let waits: number[][] | undefined;
  return { steps: ordered, waits: () => (waits ??= order.waits(nodes)) };
}

/** A plan's steps in the order references require, and what each waits for. */
export interface OrderedSteps<S> {
  steps: Array<S | ClosingUpdate>;
  /**
   * For each step, the positions (in `steps`, all before it) of the steps it waits for: what a
   * writer running several steps at once must have finished before starting it (computed when asked).
   */
  waits(): number[][];
}

/**
 * The graph of a plan's steps (node i: step i; then one node per table whose moves wait for its
 * creates, and one per closing update) and the depth-first walk that orders it. A class, so that
 * its hot methods are compiled once for every plan.
 */
class Order {
  private readonly tables: Tables;
  private readonly facts: PlanFacts;
  private readonly n: number;
  /** The given order: a group (global writes, other writes, other deletes, global deletes), then the index. */
  private readonly rank: number[];
  /** What each node waits for; most nodes wait for nothing and share one empty list until then. */
  private readonly deps: number[][];
  /** A top-down table's previous step: what a step rebuilt after opening a circle still waits for. */
  private readonly previous = new Map<number, number>();
  private readonly state: number[];
  /** The fields a step is written without, to open a circle. */
  readonly deferred: (Set<string> | undefined)[] = [];
  /** Closing update node → the step it closes. */
  readonly closingOf = new Map<number, number>();
  private readonly out: number[] = [];
  private readonly pending: number[] = [];
  private readonly nodes: number[] = [];
  private readonly positions: number[] = [];
  // The step being read, and where its providers go (one visitor for every step: no closure per step).
  private current = 0;
  private keep: (field: string) => boolean = all;
  private into: number[] = NONE;
  private readonly intoProviders: ReferenceVisitor;
  private readonly intoDeletes: ReferenceVisitor;

  constructor(
    private readonly steps: readonly RefStep[],
    private readonly options: OrderOptions,
  ) {
    this.tables = new Tables(options.find);
    this.facts = readSteps(steps, this.tables);
    const facts = this.facts;
    const n = (this.n = steps.length);
    this.rank = steps.map((step, i) => {
      const global = facts.steps[i].global;
      return (step.action === 'delete' ? (global ? 3 : 2) : global ? 0 : 1) * (n + 1) + i;
    });
    const addProvider = (p: number) => {
      if (p === this.current) return;
      if (this.into === NONE) this.into = [];
      this.into.push(p);
    };
    this.intoProviders = (site, value) => {
      if (this.keep(site.field))
        eachNamed(facts.providers, this.tables, site.targets, facts.steps[this.current].where, value, addProvider);
    };
    const waitFor = (d: number) => {
      if (d !== this.current) this.wait(d, this.current);
    };
    this.intoDeletes = (site, value) =>
      eachNamed(facts.deletes, this.tables, site.targets, facts.steps[this.current].where, value, waitFor);
    this.deps = steps.map((_, i) => this.providersOf(i, all));
    this.waitForStopNaming();
    this.waitInTables();
    this.state = new Array(this.deps.length).fill(0);
  }

  /** The steps that bring what step i's values name, in the fields `only` allows, added to `out`. */
  private providersOf(i: number, only: (field: string) => boolean, out: number[] = NONE): number[] {
    const { def, values } = this.facts.steps[i];
    if (!def || !values) return out;
    this.current = i;
    this.keep = only;
    this.into = out;
    eachReference(def, values, this.intoProviders);
    return this.into;
  }

  private wait(node: number, on: number): void {
    if (this.deps[node] === NONE) this.deps[node] = [on];
    else this.deps[node].push(on);
  }

  /** A delete waits for the steps that stop naming its object: updates, deletes of its users. */
  private waitForStopNaming(): void {
    this.steps.forEach((step, i) => {
      const { def } = this.facts.steps[i];
      let named: Obj | undefined;
      if (step.action === 'update' && step.changes) named = oldValues(step.changes);
      else if (step.action === 'delete' && step.key !== null)
        named = this.options.current?.(step.vdom, step.table, step.key);
      if (!def || !named) return;
      this.current = i;
      eachReference(def, named, this.intoDeletes);
    });
  }

  /** A table's steps in one VDOM: a top-down table's keep their order; another's moves wait for all its creates. */
  private waitInTables(): void {
    const slotIds = new Map<string, Map<string | null, number>>();
    let count = 0;
    const slots = this.facts.steps.map((f) => {
      let byWhere = slotIds.get(f.table);
      if (!byWhere) slotIds.set(f.table, (byWhere = new Map()));
      let id = byWhere.get(f.where);
      if (id === undefined) byWhere.set(f.where, (id = count++));
      return id;
    });
    const topDown = new Map<number, boolean>();
    const lastOfTable = new Map<number, number>();
    const createsOf = new Map<number, number[]>();
    this.steps.forEach((step, i) => {
      const { def } = this.facts.steps[i];
      if (!def || step.action === 'delete') return;
      let ordered = topDown.get(slots[i]);
      if (ordered === undefined) topDown.set(slots[i], (ordered = evaluatesTopDown(def)));
      if (ordered) {
        const last = lastOfTable.get(slots[i]);
        if (last !== undefined) {
          this.wait(i, last);
          this.previous.set(i, last);
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
    this.steps.forEach((step, i) => {
      const creates = createsOf.get(slots[i]);
      if (step.action !== 'move' || !creates) return;
      let barrier = barriers.get(slots[i]);
      if (barrier === undefined) {
        barrier = this.deps.length;
        this.deps.push(creates);
        this.rank.push(this.rank[i] - 0.5);
        barriers.set(slots[i], barrier);
      }
      this.wait(i, barrier);
    });
  }

  /** A node's waits in the given order, each once (sorted in place: the lists are short). */
  private prepare(node: number): void {
    const list = this.deps[node];
    const rank = this.rank;
    if (list.length > 32) list.sort((a, b) => rank[a] - rank[b]);
    for (let k = 1; k < list.length; k++) {
      const d = list[k];
      let j = k - 1;
      for (; j >= 0 && rank[list[j]] > rank[d]; j--) list[j + 1] = list[j];
      list[j + 1] = d;
    }
    let kept = list.length ? 1 : 0;
    for (let k = 1; k < list.length; k++) if (list[k] !== list[kept - 1]) list[kept++] = list[k];
    if (kept !== list.length) list.length = kept;
  }

  /** The fields of step `node` naming what `other` brings (never the key): what opens the circle through it. */
  private closingFields(node: number, other: number): Set<string> {
    const { def, values, where } = this.facts.steps[node];
    const fields = new Set<string>();
    const step = this.steps[node];
    if (node >= this.n || !def || !values || (step.action !== 'create' && step.action !== 'update')) return fields;
    eachReference(def, values, ({ field, targets }, value) => {
      if (
        field !== def.key &&
        targets.some((t) => lookup(this.facts.providers, this.tables, t, where, value).includes(other))
      )
        fields.add(field);
    });
    return fields;
  }

  private push(node: number): void {
    this.state[node] = 1;
    this.prepare(node);
    this.nodes.push(node);
    this.positions.push(0);
  }

  /** Depth first from a root: each node after what it waits for, each once. */
  private visit(root: number): void {
    const { deps, state, nodes, positions } = this;
    this.push(root);
    while (nodes.length) {
      const top = nodes.length - 1;
      const node = nodes[top];
      const list = deps[node];
      if (positions[top] < list.length) {
        const dep = list[positions[top]++];
        if (state[dep] === 0) this.push(dep);
        else if (state[dep] === 1) this.open(node, dep, top);
        continue;
      }
      nodes.pop();
      positions.pop();
      state[node] = 2;
      this.out.push(node);
      const fields = this.deferred[node];
      if (fields) {
        const closing = deps.length;
        deps.push(this.providersOf(node, (f) => fields.has(f), [node]));
        this.rank.push(this.rank[node]);
        state.push(0);
        this.closingOf.set(closing, node);
        this.pending.push(closing);
      }
    }
  }

  /**
   * `dep` waits (through the stack) for `node`: the fields of node naming it close a circle. Node is
   * written without them and waits for the rest again; a circle no field opens (deletes naming each
   * other) is left in the order met.
   */
  private open(node: number, dep: number, top: number): void {
    const fields = this.closingFields(node, dep);
    if (!fields.size) return;
    const set = this.deferred[node] ?? new Set<string>();
    for (const f of fields) set.add(f);
    this.deferred[node] = set;
    const before = this.previous.get(node);
    this.deps[node] = this.providersOf(node, (f) => !set.has(f), before === undefined ? [] : [before]);
    this.prepare(node);
    this.positions[top] = 0;
  }

  /** What each of the nodes written waits for, as positions among them (a table's moves: each of its creates). */
  waits(written: number[]): number[][] {
    const position = new Int32Array(this.deps.length).fill(-1);
    written.forEach((node, p) => {
      position[node] = p;
    });
    return written.map((node, p) => {
      const out: number[] = [];
      for (const dep of this.deps[node]) {
        if (position[dep] >= 0) {
          if (position[dep] < p) out.push(position[dep]);
        } else if (dep >= this.n && !this.closingOf.has(dep))
          for (const create of this.deps[dep])
            if (position[create] >= 0 && position[create] < p) out.push(position[create]);
      }
      return out.length > 1 ? out.sort((a, b) => a - b) : out;
    });
  }

  /** Every node in order: the steps taken in the given order, each pulling in what it waits for first. */
  walk(): number[] {
    const n = this.n;
    for (let group = 0; group < 4; group++)
      for (let i = 0; i < n; i++) {
        if (this.rank[i] < group * (n + 1) || this.rank[i] >= (group + 1) * (n + 1) || this.state[i] !== 0) continue;
        this.visit(i);
        // A circle's closing updates, once every object they name is written.
        while (this.pending.length) this.visit(this.pending.shift()!);
      }
    return this.out;
  }
}

const all = () => true;

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
