import { createHash } from 'node:crypto';
import { entryKeyOf, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { splitTablePath } from './envelope.js';

export type Obj = Record<string, unknown>;
export type Fields = Record<string, FieldSchema>;

const FORMAT_DEFAULTS: Record<string, string> = { ipv4: '0.0.0.0', ipv6: '::', 'mac-address': '00:00:00:00:00:00' };

/**
 * The catalogue carries no default values, so they are derived: the first
 * enum option, the minimum for integers that cannot be 0, a zero address for
 * address formats, else empty.
 */
export function defaultValue(field: FieldSchema): unknown {
  if (field.type === 'array') return [];
  if (field.type === 'integer') return field.minimum !== undefined && field.minimum > 0 ? field.minimum : 0;
  if (field.enum?.length) return field.enum[0];
  return (field.format && FORMAT_DEFAULTS[field.format]) ?? '';
}

export function defaultsOf(fields: Fields): Obj {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, defaultValue(field)]));
}

export function isDefault(field: FieldSchema, value: unknown): boolean {
  return JSON.stringify(value) === JSON.stringify(defaultValue(field));
}

/** The key of a sub-table's entries: `id`, else `name`, else its first field that is not an option. */
export function subKeyOf(items: Fields): string {
  return entryKeyOf(items) ?? '';
}

function numberEntries(items: Fields, entries: Obj[]): Obj[] {
  if (items.id?.type !== 'integer') return entries;
  let next = Math.max(items.id.minimum ?? 1, 1, ...entries.map((e) => (typeof e.id === 'number' ? e.id + 1 : 0)));
  return entries.map((entry) => (entry.id === undefined ? { ...entry, id: next++ } : entry));
}

/**
 * Completes an object as the device stores it: sub-table entries always get
 * every field (and an `id` when they lack one); top-level fields only when
 * `fillTop` (a create), since an update changes only the fields it carries.
 */
export function materialize(fields: Fields, partial: Obj, fillTop: boolean): Obj {
  const out: Obj = fillTop ? { ...defaultsOf(fields), ...partial } : { ...partial };
  for (const [name, field] of Object.entries(fields)) {
    const value = out[name];
    if (field.type === 'array' && field.items && Array.isArray(value)) {
      const items = field.items;
      out[name] = numberEntries(items, value as Obj[]).map((entry) => materialize(items, entry, true));
    }
  }
  return out;
}

function typeName(field: FieldSchema): string {
  if (field.enum) return 'option';
  if (field.type === 'integer') return 'integer';
  const formats: Record<string, string> = { ipv4: 'ipv4-address', ipv6: 'ipv6-address', 'mac-address': 'mac-address', password: 'password' };
  return (field.format && formats[field.format]) ?? 'string';
}

function fieldSchema(name: string, field: FieldSchema): Obj {
  if (field.type === 'array') {
    const items = field.items ?? {};
    const mkey = subKeyOf(items);
    return { name, category: 'table', mkey, mkey_type: items[mkey]?.type ?? 'string', children: childrenSchema(items) };
  }
  const out: Obj = { name, category: 'unitary', type: typeName(field), default: defaultValue(field) };
  if (field.maxLength !== undefined) out.size = field.maxLength;
  if (field.minimum !== undefined) out['min-value'] = field.minimum;
  if (field.maximum !== undefined) out['max-value'] = field.maximum;
  if (field.enum) out.options = field.enum.map((option) => ({ name: option }));
  // The device's mark of a field that holds several of its options, space-separated.
  if (field.multiple) out.multiple_values = true;
  return out;
}

function childrenSchema(fields: Fields): Obj {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, fieldSchema(name, field)]));
}

/** `?action=schema`: the device's CLI schema shape, built from the catalogue's field data. */
export function tableSchema(table: TableDef): Obj {
  const { path, name } = splitTablePath(table.path);
  const out: Obj = { name, path, category: table.singleton ? 'complex' : 'table' };
  if (table.key) Object.assign(out, { mkey: table.key, mkey_type: table.keyType });
  return { ...out, access_group: table.group, children: childrenSchema(table.fields) };
}

const typeIds = new Map<string, number>();

/** A stable per-table type id, standing in for the device's internal one (`q_type`). */
export function typeId(table: TableDef): number {
  let id = typeIds.get(table.path);
  if (id === undefined) {
    id = 100 + (parseInt(createHash('sha1').update(table.path).digest('hex').slice(0, 6), 16) % 900);
    typeIds.set(table.path, id);
  }
  return id;
}

/** `?action=meta`: what the device says about a table; `size` is its current number of objects. */
export function tableMeta(table: TableDef, size: number): Obj {
  const { path, name } = splitTablePath(table.path);
  const writable = table.operations.some((op) => op === 'C' || op === 'U' || op === 'D' || op === 'P');
  const out: Obj = { name, path, category: table.singleton ? 'complex' : 'table', q_type: typeId(table) };
  if (table.key) Object.assign(out, { mkey: table.key, mkey_type: table.keyType });
  return { ...out, access_group: table.group, readonly: !writable, size };
}
