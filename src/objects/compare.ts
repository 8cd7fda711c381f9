// When the device's value already is the desired one (CLI.md's comparison rules), field by field: what
// a plan updates, and what a write whose answer was lost is read back against.
import { entryKeyOf, entryOrderMatters, type FieldSchema } from '../catalogue/index.js';
import { ipv4Meaning } from '../catalogue/ipv4.js';
import { isEncrypted } from '../catalogue/secrets.js';
import { isMetaField, multipleValues } from '../catalogue/validate.js';
import { isObject, keyId, normalizeObject, type Obj } from './normalize.js';

export interface FieldChange {
  from: unknown;
  to: unknown;
}

const NUMERIC = /^-?\d+(\.\d+)?$/;

function numeric(value: unknown): number | undefined {
  if (typeof value === 'number') return value;
  if (typeof value === 'string' && NUMERIC.test(value.trim())) return Number(value);
  return undefined;
}

function absent(value: unknown): boolean {
  return value === undefined || value === null || value === '' || (Array.isArray(value) && value.length === 0);
}

function words(value: string): Set<string> {
  return new Set(multipleValues(value));
}

function sameSet(a: Set<string>, b: Set<string>): boolean {
  return a.size === b.size && [...a].every((v) => b.has(v));
}

/** Every field the desired entry states equals the device's. */
function sameFields(fields: Record<string, FieldSchema>, desired: Obj, actual: Obj): boolean {
  return Object.entries(desired).every(
    ([name, value]) => isMetaField(name) || sameValue(fields[name], value, actual[name]),
  );
}

/**
 * List fields of sub-table entries: the same entries, matched by their own key, each equal in the
 * fields it states; in the same order only where the device keeps one (see entryOrderMatters).
 */
function sameEntries(items: Record<string, FieldSchema>, desired: unknown[], actual: unknown): boolean {
  if (!Array.isArray(actual)) return desired.length === 0 && absent(actual);
  if (desired.length !== actual.length) return false;
  const key = entryKeyOf(items);
  const keyed = key !== undefined && desired.every((entry) => isObject(entry) && entry[key] !== undefined);
  if (!keyed || entryOrderMatters(items)) {
    return desired.every((entry, i) => {
      const other = actual[i];
      if (!isObject(entry) || !isObject(other)) return sameValue(undefined, entry, other);
      return (!keyed || keyId(entry[key!]) === keyId(other[key!])) && sameFields(items, entry, other);
    });
  }
  const byKey = new Map(actual.filter(isObject).map((entry) => [keyId(entry[key]), entry]));
  return desired.every((entry) => {
    const other = byKey.get(keyId((entry as Obj)[key]));
    return other !== undefined && sameFields(items, entry as Obj, other);
  });
}

/** IPv4-shaped values by meaning (`/24` = `255.255.255.0`); a multi-value field's as sets of such values. */
function sameIpv4(schema: FieldSchema, desired: string, actual: string): boolean {
  if (desired === actual) return true;
  const meaning = (text: string) => ipv4Meaning(text) ?? text.trim();
  if (!schema.multiple) return meaning(desired) === meaning(actual);
  return sameSet(new Set(multipleValues(desired).map(meaning)), new Set(multipleValues(actual).map(meaning)));
}

/**
 * Whether the device's value already is the desired one (CLI.md's comparison rules): numbers and
 * numeric strings by value, `multiple` fields as sets of words, `password` fields as set or not,
 * IPv4-shaped values by meaning, `ENC ...` values equal to anything, list fields entry by entry,
 * objects in the fields they state.
 */
export function sameValue(schema: FieldSchema | undefined, desired: unknown, actual: unknown): boolean {
  // A secret is set or not: the device never shows it, and re-encrypts it on every read.
  if (schema?.format === 'password') return absent(desired) === absent(actual);
  if (isEncrypted(actual)) return true;
  if (Array.isArray(desired)) return sameEntries(schema?.items ?? {}, desired, actual);
  if (isObject(desired)) return isObject(actual) && sameFields({}, desired, actual);
  if (desired === null || desired === undefined || desired === '') return absent(actual);
  if (schema?.format === 'ipv4' && typeof desired === 'string' && typeof actual === 'string')
    return sameIpv4(schema, desired, actual);
  if (schema?.multiple && typeof desired === 'string' && typeof actual === 'string')
    return sameSet(words(desired), words(actual));
  const a = numeric(desired);
  const b = numeric(actual);
  if (a !== undefined && b !== undefined) return a === b;
  return desired === actual;
}

/** The device's value as a plan shows it: list entries without their `q_*` fields. */
function shown(schema: FieldSchema | undefined, value: unknown): unknown {
  const items = schema?.items;
  if (items && Array.isArray(value))
    return value.map((entry) => (isObject(entry) ? normalizeObject(items, entryKeyOf(items), entry) : entry));
  return value === undefined ? null : value;
}

/** The fields the desired object states that differ on the device (the key field aside). */
export function changedFields(
  fields: Record<string, FieldSchema>,
  key: string | null,
  desired: Obj,
  actual: Obj,
): Record<string, FieldChange> {
  const changes: Record<string, FieldChange> = {};
  for (const [name, value] of Object.entries(desired)) {
    if (name === key || isMetaField(name)) continue;
    if (!sameValue(fields[name], value, actual[name]))
      changes[name] = { from: shown(fields[name], actual[name]), to: value };
  }
  return changes;
}
