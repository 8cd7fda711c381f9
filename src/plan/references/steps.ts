// What a plan's steps name and provide, read once for ordering and checking them: each step's
// references (the new values of a create or update), the objects its creates and renames bring
// (sub-table entries that other fields name included), and the objects its deletes take away.
import { devicePicksKey, type TableDef } from '../../catalogue/index.js';
import {
  canonical,
  isGlobal,
  isSubTableField,
  newValues,
  Places,
  referencesOf,
  valuesAt,
  whereOf,
  type FieldReference,
  type Key,
  type ObjectReference,
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
  /** The values its create or update sends that name other objects. */
  refs: ObjectReference[];
  /** The values a create or update sends (the object, or each changed field's new value). */
  values: Obj | undefined;
}

export interface PlanFacts {
  tables: Tables;
  steps: StepFacts[];
  /** The steps that bring an object (create, rename) or a sub-table entry some reference of the plan names. */
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

export function readSteps(steps: readonly RefStep[], tables: Tables): PlanFacts {
  const facts = steps.map((step): StepFacts => {
    const def = tables.get(step.table);
    const values =
      step.action === 'create'
        ? step.object
        : step.action === 'update' && step.changes
          ? newValues(step.changes)
          : undefined;
    return {
      def,
      table: canonical(def, step.table),
      where: whereOf(def, step.vdom),
      global: isGlobal(def),
      refs: def && values ? referencesOf(def, values) : [],
      values,
    };
  });
  // Sub-table entries count as objects only where a reference of the plan names them (`zone.name`).
  const subFields = new Map<string, Set<string>>();
  for (const f of facts)
    for (const ref of f.refs)
      for (const t of ref.targets)
        if (isSubTableField(t.field)) {
          const set = subFields.get(t.table) ?? new Set<string>();
          set.add(t.field);
          subFields.set(t.table, set);
        }
  const providers = new Places<number>();
  const deletes = new Places<number>();
  steps.forEach((step, n) => {
    const { def, table, where, values } = facts[n];
    if (step.action === 'create' && step.key !== null && !(def && devicePicksKey(def, step.key)))
      providers.add(where, table, '', step.key, n);
    const renamed = step.action === 'update' && def?.key ? step.changes?.[def.key] : undefined;
    if (renamed && (typeof renamed.to === 'string' || typeof renamed.to === 'number'))
      providers.add(where, table, '', renamed.to, n);
    if (step.action === 'delete' && step.key !== null) deletes.add(where, table, '', step.key, n);
    const fields = subFields.get(table);
    if (fields && values)
      for (const field of fields)
        if (field.split('.', 1)[0] in values)
          for (const v of valuesAt(values, field)) providers.add(where, table, field, v, n);
  });
  return { tables, steps: facts, providers, deletes };
}
