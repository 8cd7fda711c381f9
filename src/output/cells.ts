// A value in one table cell: scalars as text, lists of named entries as their names, the rest compact.
import type { FieldSchema } from '../catalogue/index.js';
import { isMetaField } from '../catalogue/validate.js';
import { sanitizeInline } from './text.js';

// How nested values look in a table cell: short, on one line, sanitised for the terminal.

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isScalar(value: unknown): value is string | number | boolean | bigint {
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean' || t === 'bigint';
}

function scalarText(value: string | number | boolean | bigint): string {
  return typeof value === 'string' ? sanitizeInline(value) : String(value);
}

function visibleEntries(object: Record<string, unknown>): [string, unknown][] {
  return Object.entries(object).filter(([name]) => !isMetaField(name));
}

/**
 * The value that names an entry of a nested table: its only field (`member: [{name: "port1"}]`),
 * else its `name`. Entries with several fields and no name (access-list rules) have none.
 */
function entryLabel(entry: unknown): string | undefined {
  if (isScalar(entry)) return scalarText(entry);
  if (!isPlainObject(entry)) return undefined;
  const fields = visibleEntries(entry);
  if (fields.length === 1 && isScalar(fields[0]![1])) return scalarText(fields[0]![1]);
  const name = entry.name;
  return isScalar(name) ? scalarText(name) : undefined;
}

/** A name among others joined by spaces: in double quotes when it holds a blank or a quote, or is empty. */
function nameWord(label: string): string {
  return label !== '' && !/[\s"]/.test(label) ? label : JSON.stringify(label);
}

/** Names joined by spaces, each a word of its own (`lan-net "my net"`). */
export function joinNames(names: readonly string[]): string {
  let text = '';
  for (let i = 0; i < names.length; i++) text += (i ? ' ' : '') + nameWord(names[i]!);
  return text;
}

/** The label of each entry of a list, or undefined when an entry has none. */
function labelsOf(list: readonly unknown[], label: (entry: unknown) => string | undefined): string[] | undefined {
  const labels: string[] = [];
  for (const entry of list) {
    const text = label(entry);
    if (text === undefined) return undefined;
    labels.push(text);
  }
  return labels;
}

function countText(n: number): string {
  return n === 1 ? '1 item' : `${n} items`;
}

/** `k=v,k=v` for an object; nested collections inside it as compact JSON. */
function objectText(object: Record<string, unknown>): string {
  return visibleEntries(object)
    .map(([name, value]) => `${sanitizeInline(name)}=${innerText(value)}`)
    .join(',');
}

function innerText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isScalar(value)) return scalarText(value);
  return sanitizeInline(JSON.stringify(value) ?? '');
}

/**
 * A value in one table cell: scalars as text, `port1 port2` for a list of named entries or of scalars
 * (a name with a blank in double quotes), `3 items` for a list of multi-field entries, `k=v,k=v` for an
 * object.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isScalar(value)) return scalarText(value);
  if (Array.isArray(value)) {
    const labels = labelsOf(value, entryLabel);
    return labels ? joinNames(labels) : countText(value.length);
  }
  if (isPlainObject(value)) return objectText(value);
  return sanitizeInline(String(value));
}

/** The only field of a member list's entry (`{name: "lan-net"}`), meta fields aside. */
function memberName(entry: unknown): string | undefined {
  if (isScalar(entry)) return String(entry);
  if (!isPlainObject(entry)) return undefined;
  let only: unknown;
  let count = 0;
  for (const name in entry) {
    if (isMetaField(name)) continue;
    only = entry[name];
    if (++count > 1) return undefined;
  }
  return count === 1 && isScalar(only) ? String(only) : undefined;
}

/**
 * The names of a list of references or of members (`[{name: "lan-net"}]` → `lan-net`), or undefined
 * for any other value: a list whose catalogue entries hold one field or name a reference, or without a
 * catalogue entry a list whose entries each hold one value.
 */
export function memberList(value: unknown, field: FieldSchema | undefined): string[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const items = field?.items;
  if (items) {
    const names = Object.keys(items);
    if (names.length !== 1 && !items.name?.references) return undefined;
    const own = names.length === 1 ? names[0]! : 'name';
    return labelsOf(value, (entry) =>
      isPlainObject(entry) && isScalar(entry[own]) ? String(entry[own]) : memberName(entry),
    );
  }
  if (field || value.length === 0) return undefined;
  return labelsOf(value, memberName);
}

/** A list of references or members as csv prints it: its names joined by spaces (`lan-net "my net"`). */
export function memberNames(value: unknown, field: FieldSchema | undefined): string | undefined {
  const names = memberList(value, field);
  return names && joinNames(names);
}

/**
 * A value in a `field  value` view, as lines: there is room to show a list of multi-field
 * entries in full, one entry per line (`id=1,action=permit,prefix=10.0.0.0 255.0.0.0`).
 */
export function valueLines(value: unknown): string[] {
  if (Array.isArray(value) && value.length > 0 && value.some((entry) => entryLabel(entry) === undefined)) {
    return value.map((entry) => (isPlainObject(entry) ? objectText(entry) : innerText(entry)));
  }
  return [cellText(value)];
}
