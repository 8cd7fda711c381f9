// What `diff` and `apply` hand the printer with a plan, beyond the plan object: the tables' fields and
// the names of the numbered objects it touches (`~ firewall/policy 4 (server-updates)`).
import { objectSlot, type PlanFacts } from '../../output/index.js';
import type { Comparison, PlannedTables } from '../../plan/plan.js';
import { isObject, keyId, keyOf } from '../../objects/normalize.js';

/**
 * The facts of a plan's lines: each table's key and fields, and the `name` of every object of an
 * integer-keyed table with a `name` field, as the device has it, else as the document gives it.
 */
export function planFacts(planned: PlannedTables, comparisons: readonly Comparison[]): PlanFacts {
  const names = new Map<string, string>();
  for (const { desired, actual } of comparisons) {
    const { vdom, table } = desired;
    if (table.keyType !== 'integer' || !('name' in table.fields)) continue;
    for (const content of [actual, desired.content]) {
      if (!Array.isArray(content)) continue;
      for (const object of content) {
        const slot = objectSlot(vdom, table.path, keyId(keyOf(table, object)));
        if (isObject(object) && typeof object.name === 'string' && object.name && !names.has(slot))
          names.set(slot, object.name);
      }
    }
  }
  return { tables: planned.tables, names };
}
