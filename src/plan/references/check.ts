// A plan's references checked before anything is sent (CLI.md "The plan is checked before anything is
// sent"): every name a create or update sends must be on the device (and not deleted by the plan), in
// the plan, a factory object, or in a table the device fills from its databases; no object the plan
// deletes may still be named by an object the plan keeps. Problems are values: the caller decides
// between exit 2, a warning and --force. What the device holds comes from reads the caller makes
// (checkNeeds says which), concurrently, before calling checkPlan.
import { referencesOf, valuesAt, type ObjectReference } from '../../catalogue/references.js';
import {
  isGlobal,
  isSubTableField,
  keyId,
  Tables,
  whereOf,
  type FieldReference,
  type FindTable,
  type Key,
  type Obj,
  type RefStep,
  type TableReading,
} from './fields.js';
import { inUseMessage, missingMessage, objectName, type RefUser } from './messages.js';
import { lookup, namesAny, readSteps, type PlanFacts, type StepFacts } from './steps.js';
import { UsageIndex, type IsFactory, type ObjectAt } from './usage.js';

/** A table in a VDOM, or for the whole device (null: for a table that is not global, every VDOM's objects). */
export interface TableAt {
  vdom: string | null;
  table: string;
}

export interface CheckNeeds {
  /** The tables whose objects the check needs (the names the plan sends that it does not bring itself). */
  keys: TableAt[];
  /** The objects the plan deletes: their users are needed (the usage query, else reads of `catalogue.referrers`). */
  users: ObjectAt[];
}

export interface CheckOptions {
  find?: FindTable;
  /** The device's factory objects (the catalogue's `isFactoryObject`: the factory file and its `alsoFactory` rules). */
  isFactory?: IsFactory;
  /** The tables a device fills from its FortiGuard databases (any value accepted there); a leading `/` is taken off. */
  databases?: Iterable<string>;
}

export interface ReferenceProblem {
  /** `missing`: names an object nobody has; `in-use`: names an object the plan deletes. */
  kind: 'missing' | 'in-use';
  /** The object that names: where (null for a global table), table, key (null for a singleton). */
  vdom: string | null;
  table: string;
  key: Key | null;
  /** The top-level field, and where in it (`srcaddr[].name`; the field itself for an object only the device has). */
  field: string;
  path: string;
  value: Key;
  /** Where the value was looked for (`in-use`: the deleted object's table). */
  targets: readonly FieldReference[];
  message: string;
}

/** Something not checked, said once: a table the device would not let the caller read. */
export interface Unchecked {
  vdom: string | null;
  table: string;
  message: string;
}

export interface CheckResult {
  problems: ReferenceProblem[];
  unchecked: Unchecked[];
}

/** The names a create or update sends. */
function sent(step: StepFacts): ObjectReference[] {
  return step.def && step.values ? referencesOf(step.def, step.values) : [];
}

/** What the device holds, from the caller's reads. */
class DeviceKeys {
  private readonly byPlace = new Map<string, TableReading[]>();
  private readonly byTable = new Map<string, TableReading[]>();
  private readonly sets = new Map<TableReading, Map<string, Set<string>>>();

  constructor(
    readings: readonly TableReading[],
    private readonly tables: Tables,
  ) {
    for (const reading of readings) {
      const def = tables.get(reading.table);
      const table = def?.aliasOf ?? def?.path ?? reading.table;
      const place = `${whereOf(def, reading.vdom)}\0${table}`;
      this.byPlace.set(place, [...(this.byPlace.get(place) ?? []), reading]);
      this.byTable.set(table, [...(this.byTable.get(table) ?? []), reading]);
    }
  }

  private keysOf(reading: TableReading, field: string): Set<string> {
    let byField = this.sets.get(reading);
    if (!byField) this.sets.set(reading, (byField = new Map()));
    let set = byField.get(field);
    if (!set) {
      const def = this.tables.get(reading.table);
      const objects = (Array.isArray(reading.content) ? reading.content : [reading.content]) as Obj[];
      set = new Set();
      for (const o of objects) {
        if (isSubTableField(field)) for (const v of valuesAt(o, field)) set.add(keyId(v));
        else if (def?.key && o[def.key] !== undefined) set.add(keyId(o[def.key]));
      }
      byField.set(field, set);
    }
    return set;
  }

  /** Whether the device holds the value at the place; null when that table was not (or could not be) read. */
  has(where: string | null, global: boolean, table: string, field: string, value: Key): boolean | null {
    const readings = where === null && !global ? this.byTable.get(table) : this.byPlace.get(`${where}\0${table}`);
    let unread = !readings?.length;
    for (const reading of readings ?? []) {
      if (reading.content === null) unread = true;
      else if (this.keysOf(reading, field).has(keyId(value))) return true;
    }
    return unread ? null : false;
  }
}

type Verdict =
  | { kind: 'ok' }
  | { kind: 'unknown'; unread: TableAt[] }
  | { kind: 'missing' }
  | { kind: 'in-use'; target: FieldReference };

/** Judges the names of a plan against the plan itself and, where given, the device. */
class Judge {
  readonly databases: Set<string>;
  /** Sub-table fields of singletons that the plan rewrites: the plan's entries are what the device will hold. */
  private readonly rewritten = new Set<string>();

  constructor(
    readonly facts: PlanFacts,
    steps: readonly RefStep[],
    private readonly options: CheckOptions,
  ) {
    this.databases = new Set([...(options.databases ?? [])].map((p) => p.replace(/^\//, '')));
    steps.forEach((step, i) => {
      const { def, where, table } = facts.steps[i];
      if (step.action === 'update' && def?.singleton)
        for (const field in step.changes ?? {}) this.rewritten.add(`${where}\0${table}\0${field}`);
    });
  }

  /** Names that need no device: a database's, a factory object (`ssl.root` among them), what the plan brings. */
  resolvedByPlan(ref: ObjectReference, where: string | null): boolean {
    const { value, targets } = ref;
    for (const t of targets)
      if (this.databases.has(t.table) || this.options.isFactory?.(t.table, value, t.field)) return true;
    return namesAny(this.facts.providers, this.facts.tables, targets, where, value);
  }

  judge(ref: ObjectReference, where: string | null, device: DeviceKeys): Verdict {
    if (this.resolvedByPlan(ref, where)) return { kind: 'ok' };
    const unread: TableAt[] = [];
    let deleted: FieldReference | undefined;
    for (const t of ref.targets) {
      const def = this.facts.tables.get(t.table);
      const tw = whereOf(def, where);
      if (isSubTableField(t.field) && this.rewritten.has(`${tw}\0${t.table}\0${t.field.split('.', 1)[0]}`)) continue;
      const held = device.has(tw, isGlobal(def), t.table, t.field, ref.value);
      if (held === null) unread.push({ vdom: tw, table: t.table });
      else if (!held) continue;
      else if (!isSubTableField(t.field) && lookup(this.facts.deletes, this.facts.tables, t, where, ref.value).length)
        deleted ??= t;
      else return { kind: 'ok' };
    }
    if (deleted) return { kind: 'in-use', target: deleted };
    return unread.length ? { kind: 'unknown', unread } : { kind: 'missing' };
  }
}

/**
 * What checkPlan needs read from the device: the tables (per VDOM, or null: once for a global table,
 * every VDOM's objects for another) holding the names the plan sends and does not bring itself, and
 * the objects it deletes, whose users are needed.
 */
export function checkNeeds(steps: readonly RefStep[], options: CheckOptions = {}): CheckNeeds {
  const tables = new Tables(options.find);
  const facts = readSteps(steps, tables);
  const judge = new Judge(facts, steps, options);
  const keys = new Map<string, TableAt>();
  facts.steps.forEach((f) => {
    for (const ref of sent(f)) {
      if (judge.resolvedByPlan(ref, f.where)) continue;
      for (const t of ref.targets) {
        const tw = whereOf(tables.get(t.table), f.where);
        keys.set(`${tw}\0${t.table}`, { vdom: tw, table: t.table });
      }
    }
  });
  const users: ObjectAt[] = [];
  steps.forEach((step, i) => {
    if (step.action === 'delete' && step.key !== null)
      users.push({ vdom: facts.steps[i].where, table: facts.steps[i].table, key: step.key });
  });
  return { keys: [...keys.values()], users };
}

/**
 * Every reference problem of a plan: a create or update naming an object neither the device (after
 * the plan's deletes) nor the plan has (`missing`; several target tables are all named), and an
 * object the plan keeps (on the device and not deleted, or written by the plan) still naming an
 * object the plan deletes (`in-use`). `device` holds the reads checkNeeds asked for (and any others:
 * the plan's own reads), a table that could not be read with content null: its names are not
 * checked, and said once in `unchecked`. `usersOf` gives an object's users from the device's usage
 * query; by default they are found in `device` (the tables `catalogue.referrers` lists, read).
 */
export function checkPlan(
  steps: readonly RefStep[],
  device: readonly TableReading[],
  options: CheckOptions & {
    usersOf?: (vdom: string | null, table: string, key: Key) => RefUser[] | null;
    /** Name each object's VDOM in the messages (a plan over several VDOMs). */
    showVdom?: boolean;
  } = {},
): CheckResult {
  const tables = new Tables(options.find);
  const facts = readSteps(steps, tables);
  const judge = new Judge(facts, steps, options);
  const keys = new DeviceKeys(device, tables);
  const problems: ReferenceProblem[] = [];
  const unchecked = new Map<string, Unchecked>();
  const who = (vdom: string | null, table: string, key: Key | null) =>
    objectName(table, key, options.showVdom ? vdom : null);

  const updated = new Set<string>();
  steps.forEach((step, i) => {
    const { where, table } = facts.steps[i];
    const refs = sent(facts.steps[i]);
    if (step.action === 'update')
      for (const field in step.changes) updated.add(`${where}\0${table}\0${keyId(step.key)}\0${field}`);
    const seen = new Set<string>();
    for (const ref of refs) {
      const id = `${ref.field}\0${keyId(ref.value)}`;
      if (seen.has(id)) continue;
      seen.add(id);
      const verdict = judge.judge(ref, where, keys);
      const at = { vdom: where, table, key: step.key, field: ref.field, path: ref.path, value: ref.value };
      if (verdict.kind === 'missing')
        problems.push({
          kind: 'missing',
          ...at,
          targets: ref.targets,
          message: missingMessage(who(where, table, step.key), ref.field, ref.value, ref.targets),
        });
      else if (verdict.kind === 'in-use')
        problems.push({
          kind: 'in-use',
          ...at,
          targets: [verdict.target],
          message: inUseMessage(who(where, table, step.key), ref.field, ref.value, verdict.target),
        });
      else if (verdict.kind === 'unknown')
        for (const u of verdict.unread)
          unchecked.set(`keys\0${u.vdom}\0${u.table}`, {
            ...u,
            message: `${objectName(u.table, null, u.vdom)} could not be read: the references to it were not checked`,
          });
    }
  });

  let index: UsageIndex | undefined;
  const usersOf =
    options.usersOf ?? ((v, t, k) => (index ??= new UsageIndex(device, { find: options.find })).usersOf(v, t, k));
  steps.forEach((step, i) => {
    if (step.action !== 'delete' || step.key === null) return;
    const { def, where, table } = facts.steps[i];
    const users = usersOf(where, table, step.key);
    if (users === null) {
      unchecked.set(`users\0${where}\0${table}`, {
        vdom: where,
        table,
        message:
          `the objects that can name ${objectName(table, null, where)} could not all be read: ` +
          'its deletes were not checked',
      });
      return;
    }
    const target = { table, field: def?.key ?? '' };
    for (const user of users) {
      const ud = tables.get(user.table);
      const uw = whereOf(ud, user.vdom);
      const utable = ud?.aliasOf ?? ud?.path ?? user.table;
      if (utable === table && uw === where && user.key !== null && keyId(user.key) === keyId(step.key)) continue;
      if (user.key !== null && facts.deletes.exactly(uw, utable, '', user.key).length) continue;
      // A user whose update rewrites the field was judged above by its new value.
      if (updated.has(`${uw}\0${utable}\0${keyId(user.key)}\0${user.field}`)) continue;
      problems.push({
        kind: 'in-use',
        vdom: uw,
        table: utable,
        key: user.key,
        field: user.field,
        path: user.field,
        value: step.key,
        targets: [target],
        message: inUseMessage(who(uw, utable, user.key), user.field, step.key, target),
      });
    }
  });
  return { problems, unchecked: [...unchecked.values()] };
}
