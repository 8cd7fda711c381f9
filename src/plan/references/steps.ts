// What a plan's steps bring and take away, read once for ordering and checking them: where each
// step's object lives, the values its create or update sends, the objects its creates and renames
// bring (and the sub-table entries other fields can name), and the objects its deletes remove.
import { devicePicksKey, type TableDef } from '../../catalogue/index.js';
import { targetsOf, valuesAt } from '../../catalogue/references.js';
import {
  canonical,
  isGlobal,
  isSubTableField,
  newValues,
  Places,
  whereOf,
  type FieldReference,
  type Filed,
  type Key,
  type Obj,
  type RefStep,
  type Tables,
} from './fields.js';

export interface StepFacts {
  def: TableDef | undefined;
  /** The catalogue's path of the step's table. */
  table: string;
  /** Where its object lives: its VDOM, or null for a global table. */
  where: string | null;
  global: boolean;
  /** The values a create or update sends (the object, or each changed field's new value). */
  values: Obj | undefined;
}

export interface PlanFacts {
  tables: Tables;
  steps: StepFacts[];
  /** The steps that bring an object (create, rename) or a sub-table entry a reference can name. */
  providers: Places<number>;
  /** The steps that delete an object. */
  deletes: Places<number>;
}

/** What a reference of an object at `where` to `target` may be: filed under the place it looks in. */
export function lookup<T>(
  places: Places<T>,
  tables: Tables,
  target: FieldReference,
  where: string | null,
  value: Key,
): T[] {
  const def = tables.get(target.table);
  return places.find(whereOf(def, where), isGlobal(def), target.table, target.field, value);
}

/** Whether an item is filed where one of the targets, looked for from `where`, is. */
function filedForAny<T>(
  e: Filed<T>,
  tables: Tables,
  targets: readonly FieldReference[],
  where: string | null,
): boolean {
  for (const target of targets) {
    if (e.table !== target.table || e.field !== (isSubTableField(target.field) ? target.field : '')) continue;
    const def = tables.get(target.table);
    const at = whereOf(def, where);
    return (at === null && !isGlobal(def)) || e.where === at;
  }
  return false;
}

function visitFiled<T>(
  e: Filed<T>,
  tables: Tables,
  targets: readonly FieldReference[],
  where: string | null,
  visit: (item: T) => void,
): void {
  if (filedForAny(e, tables, targets, where)) visit(e.item);
}

/** Whether anything is filed for a name sent from `where`, in any of its targets. */
export function namesAny<T>(
  places: Places<T>,
  tables: Tables,
  targets: readonly FieldReference[],
  where: string | null,
  value: Key,
): boolean {
  const there = places.under(value);
  if (!there) return false;
  if (!Array.isArray(there)) return filedForAny(there, tables, targets, where);
  return there.some((e) => filedForAny(e, tables, targets, where));
}

/**
 * Each item that a name sent from `where` may be, for any of its targets (lookup without its
 * arrays: ordering a plan looks up every name).
 */
export function eachNamed<T>(
  places: Places<T>,
  tables: Tables,
  targets: readonly FieldReference[],
  where: string | null,
  value: Key,
  visit: (item: T) => void,
): void {
  const there = places.under(value);
  if (!there) return;
  if (!Array.isArray(there)) visitFiled(there, tables, targets, where, visit);
  else for (const e of there) visitFiled(e, tables, targets, where, visit);
}

export function readSteps(steps: readonly RefStep[], tables: Tables): PlanFacts {
  // What the plan brings is filed only for tables that a table of the plan can name (nothing names a
  // policy), sub-table entries only where such a name reaches them (`zone.name`); every delete is.
  const named = new Set<string>();
  const subFields = new Map<string, Set<string>>();
  for (const path of new Set(steps.map((s) => s.table))) {
    const def = tables.get(path);
    for (const t of def ? targetsOf(def) : []) {
      named.add(t.table);
      if (isSubTableField(t.field)) subFields.set(t.table, (subFields.get(t.table) ?? new Set()).add(t.field));
    }
  }
  const providers = new Places<number>();
  const deletes = new Places<number>();
  const facts = steps.map((step, n): StepFacts => {
    const def = tables.get(step.table);
    const table = canonical(def, step.table);
    const where = whereOf(def, step.vdom);
    const values =
      step.action === 'create'
        ? step.object
        : step.action === 'update' && step.changes
          ? newValues(step.changes)
          : undefined;
    if (step.action === 'delete' && step.key !== null) deletes.add(where, table, '', step.key, n);
    if (!named.has(table)) return { def, table, where, global: isGlobal(def), values };
    if (step.action === 'create' && step.key !== null && !(def && devicePicksKey(def, step.key)))
      providers.add(where, table, '', step.key, n);
    const renamed = step.action === 'update' && def?.key ? step.changes?.[def.key] : undefined;
    if (renamed && (typeof renamed.to === 'string' || typeof renamed.to === 'number'))
      providers.add(where, table, '', renamed.to, n);
    const fields = subFields.get(table);
    if (fields && values)
      for (const field of fields)
        if (field.split('.', 1)[0] in values)
          for (const v of valuesAt(values, field)) providers.add(where, table, field, v, n);
    return { def, table, where, global: isGlobal(def), values };
  });
  return { tables, steps: facts, providers, deletes };
}
