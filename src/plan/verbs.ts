// The verbs of a `.conf` besides `set` (CLI.md "Verbs") against the device's current table: members
// added and removed relative to its lists, renames and explicit moves as the steps they need now
// (none when the device already shows them done, so a second apply finds nothing to do).
import { entryKeyOf, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { isMetaField } from '../catalogue/validate.js';
import { UsageError } from '../errors.js';
import { isObject, keyId, keyOf, type Obj } from '../objects/normalize.js';
import { memberField, type ConfStep } from '../syntax/index.js';
import type { TableVerbs } from './document.js';

type Key = string | number;

/** A member without the device's facts about it (`q_origin_key`): what a write sends. */
const plain = (entry: Obj): Obj => Object.fromEntries(Object.entries(entry).filter(([name]) => !isMetaField(name)));

/** A member's identity: its one field's value (`{name: "a"}` → `a`). */
const memberId = (entry: unknown): string => (isObject(entry) ? keyId(Object.values(plain(entry))[0]) : '');

/** A member list (entries) or a multi-value field (words) with `append`ed values added and `unselect`ed removed. */
function edited(schema: FieldSchema | undefined, base: unknown, append: unknown, unselect: unknown): unknown {
  if (schema?.type === 'array') {
    const list = (Array.isArray(base) ? base : []).map((e) => (isObject(e) ? plain(e) : {}));
    const gone = new Set((Array.isArray(unselect) ? unselect : []).map(memberId));
    const out = list.filter((e) => !gone.has(memberId(e)));
    const held = new Set(out.map(memberId));
    for (const entry of Array.isArray(append) ? append : [])
      if (!held.has(memberId(entry)) && !gone.has(memberId(entry))) {
        out.push(entry as Obj);
        held.add(memberId(entry));
      }
    return out;
  }
  const words = (value: unknown) => (typeof value === 'string' ? value.split(/\s+/).filter(Boolean) : []);
  const gone = new Set(words(unselect));
  const out = words(base).filter((w) => !gone.has(w));
  for (const word of words(append)) if (!out.includes(word) && !gone.has(word)) out.push(word);
  return out.join(' ');
}

/**
 * The desired object with its `append` and `unselect` lines worked out on the device's current lists
 * (the object's own `set` of the field, when it has one, is the list they change).
 */
export function withListVerbs(
  table: TableDef,
  object: Obj,
  current: Obj | undefined,
  lists: { append: Obj; unselect: Obj },
): Obj {
  const out = { ...object };
  for (const name of new Set([...Object.keys(lists.append), ...Object.keys(lists.unselect)])) {
    const base = name in object ? object[name] : current?.[name];
    out[name] = edited(table.fields[name], base, lists.append[name], lists.unselect[name]);
  }
  return out;
}

function verbError(verbs: TableVerbs, step: ConfStep, message: string): UsageError {
  return new UsageError(`${verbs.source}:${step.line}: ${message}`);
}

/** `firewall/address "lan" (vdom root)` */
const named = (table: TableDef, vdom: string | null, key: Key) =>
  `${table.path} ${JSON.stringify(key)} (${vdom === null ? 'global' : `vdom ${vdom}`})`;

/**
 * The renames a table's verbs ask for that the device has not done yet (`from` there, `to` not), and
 * the device's objects as they will be once done. A rename found done (`to` there, `from` not) is
 * nothing to do; neither there, or both, is a usage error naming the line.
 */
export function renamesOf(
  table: TableDef,
  vdom: string | null,
  verbs: TableVerbs,
  onTable: Obj[],
): { renames: { from: Key; to: Key }[]; onTable: Obj[] } {
  let objects = onTable;
  const renames: { from: Key; to: Key }[] = [];
  for (const step of verbs.steps) {
    if (step.verb !== 'rename') continue;
    const has = (key: Key) => objects.some((o) => keyId(keyOf(table, o)) === keyId(key));
    const [from, to] = [has(step.from), has(step.to)];
    if (to && !from) continue;
    if (!from && !to)
      throw verbError(verbs, step, `rename: there is no ${named(table, vdom, step.from)} on the device`);
    if (from && to)
      throw verbError(
        verbs,
        step,
        `rename: ${named(table, vdom, step.to)} is already on the device beside ${JSON.stringify(step.from)}`,
      );
    renames.push({ from: step.from, to: step.to });
    objects = objects.map((o) => (keyId(keyOf(table, o)) === keyId(step.from) ? { ...o, [table.key!]: step.to } : o));
  }
  return { renames, onTable: objects };
}

/**
 * The `delete` lines' keys that are on the device (one already gone is nothing to do); a key the file
 * also edits is a usage error naming the line.
 */
export function deletesOf(
  table: TableDef,
  vdom: string | null,
  verbs: TableVerbs,
  onDevice: ReadonlySet<string>,
  listed: ReadonlySet<string>,
): Key[] {
  const keys: Key[] = [];
  for (const step of verbs.steps) {
    if (step.verb !== 'delete') continue;
    if (listed.has(keyId(step.key)))
      throw verbError(
        verbs,
        step,
        `delete ${JSON.stringify(step.key)}: the file also edits ${named(table, vdom, step.key)}`,
      );
    if (onDevice.has(keyId(step.key)) && !keys.some((k) => keyId(k) === keyId(step.key))) keys.push(step.key);
  }
  return keys;
}

/**
 * The `move` lines as moves, on the device's order once the creates have landed (`order`, changed in
 * place): a move the order already shows (the object right before or after the other) is left out.
 */
export function movesOf(
  table: TableDef,
  vdom: string | null,
  verbs: TableVerbs,
  order: Key[],
): ({ key: Key; before: Key } | { key: Key; after: Key })[] {
  const moves: ({ key: Key; before: Key } | { key: Key; after: Key })[] = [];
  const at = (key: Key) => order.findIndex((k) => keyId(k) === keyId(key));
  for (const step of verbs.steps) {
    if (step.verb !== 'move') continue;
    for (const key of [step.key, step.target])
      if (at(key) < 0) throw verbError(verbs, step, `move: there is no ${named(table, vdom, key)} on the device`);
    const [from, to] = [at(step.key), at(step.target)];
    if (from === to) throw verbError(verbs, step, `move: ${JSON.stringify(step.key)} cannot move next to itself`);
    if (step.where === 'before' ? from === to - 1 : from === to + 1) continue;
    const [key] = order.splice(from, 1);
    order.splice(at(step.target) + (step.where === 'before' ? 0 : 1), 0, key);
    moves.push(step.where === 'before' ? { key, before: step.target } : { key, after: step.target });
  }
  return moves;
}

/** Whether a table's verbs include `purge` (its objects the file does not list are deleted) or `move`. */
export const hasVerb = (verbs: TableVerbs | undefined, verb: ConfStep['verb']): boolean =>
  !!verbs?.steps.some((s) => s.verb === verb);

/**
 * A snippet's sub-table entries merged by key into the device's (CLI.md "Snippet or backup"): an entry
 * it states changes only the fields it states, one it does not state stays; entries' own sub-tables
 * the same way. Member lists (`set srcaddr "a" "b"`) are whole values, as `set` is on the device.
 */
export function mergedEntries(fields: Record<string, FieldSchema>, object: Obj, current: Obj | undefined): Obj {
  if (!current) return object;
  let out: Obj | undefined;
  for (const [name, value] of Object.entries(object)) {
    const schema = fields[name];
    const held = current[name];
    if (
      schema?.type !== 'array' ||
      !schema.items ||
      memberField(schema) ||
      !Array.isArray(value) ||
      !Array.isArray(held)
    )
      continue;
    const items = schema.items;
    const key = entryKeyOf(items);
    if (key === undefined) continue;
    const merged = held.filter(isObject).map(plain);
    for (const entry of value.filter(isObject)) {
      const at = merged.findIndex((e) => keyId(e[key]) === keyId(entry[key]));
      if (at < 0) merged.push(entry);
      else merged[at] = { ...merged[at], ...mergedEntries(items, entry, merged[at]) };
    }
    out ??= { ...object };
    out[name] = merged;
  }
  return out ?? object;
}
