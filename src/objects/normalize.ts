// The rules of one object of a table, below every layer that reads, compares or writes objects (plan/,
// outcome/): what an object is, the normal form a document holds it in (fields in a stable order, the
// device's bookkeeping fields dropped), and a key's identity (`7` and `"7"` are the same object).
import { entryKeyOf, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { asFieldType, isMetaField } from '../catalogue/validate.js';

export type Obj = Record<string, unknown>;

export function isObject(value: unknown): value is Obj {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Field names in a stable order: the key, then the catalogue's order, then any others by name. */
function orderedNames(fields: Record<string, FieldSchema>, key: string | null | undefined, object: Obj): string[] {
  const present = Object.keys(object).filter((name) => !isMetaField(name));
  const known = Object.keys(fields).filter((name) => name !== key && name in object);
  const others = present.filter((name) => name !== key && !(name in fields)).sort();
  return [...(key && key in object ? [key] : []), ...known, ...others];
}

/**
 * An object as a document holds it: `q_*` fields dropped (also in list entries) and fields in a
 * stable order, so that the same configuration always gives the same text.
 */
export function normalizeObject(fields: Record<string, FieldSchema>, key: string | null | undefined, object: Obj): Obj {
  const out: Obj = {};
  for (const name of orderedNames(fields, key, object)) {
    const value = object[name];
    const schema = fields[name];
    if (schema?.items && Array.isArray(value))
      out[name] = value.map((entry) =>
        isObject(entry) ? normalizeObject(schema.items!, entryKeyOf(schema.items!), entry) : entry,
      );
    else out[name] = asFieldType(schema, value);
  }
  return out;
}

/** The key of a keyed table's object, as written in it. */
export function keyOf(table: TableDef, object: Obj): string | number {
  return object[table.key!] as string | number;
}

/** Keys compare by value: `7` and `"7"` are the same object. */
export function keyId(key: unknown): string {
  return String(key);
}

/**
 * The `name` an object states, in a table that has a `name` field beside its key (policies, rules): what
 * finds an object written under key 0, whose key the device picks (CLI.md "Key 0").
 */
export function nameOf(table: TableDef, object: Obj): string | undefined {
  const name = table.key !== 'name' && table.fields.name ? object.name : undefined;
  return typeof name === 'string' && name !== '' ? name : undefined;
}
