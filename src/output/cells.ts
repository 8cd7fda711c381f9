// A value in one table cell: scalars as text, lists of named entries as their names, the rest compact.
import { isMetaField } from './columns.js';
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
 * A value in one table cell: scalars as text, `port1,port2` for a list of named entries or of
 * scalars, `3 items` for a list of multi-field entries, `k=v,k=v` for an object.
 */
export function cellText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (isScalar(value)) return scalarText(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '';
    const labels = value.map(entryLabel);
    if (labels.every((label) => label !== undefined)) return labels.join(',');
    return countText(value.length);
  }
  if (isPlainObject(value)) return objectText(value);
  return sanitizeInline(String(value));
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
