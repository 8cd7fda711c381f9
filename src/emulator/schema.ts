// Objects as the device stores and describes them: defaults, completed objects, and the schema
// answers (`?action=schema`, `?action=meta`) made from the catalogue.
import { createHash, randomUUID } from 'node:crypto';
import { deviceNameOf, entryKeyOf, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { splitTablePath } from './envelope.js';
import { holdsSubnet } from './ipv4.js';

export type Obj = Record<string, unknown>;
export type Fields = Record<string, FieldSchema>;

const FORMAT_DEFAULTS: Record<string, string> = { ipv4: '0.0.0.0', ipv6: '::', 'mac-address': '00:00:00:00:00:00' };

/**
 * What a new object gets: the catalogue's `default` (a device schema's own with `--schema`). Where it
 * gives none, a default is derived: the first enum option, the minimum for integers that cannot be 0,
 * a zero address for address formats, else empty; an `enable`/`disable` switch is off, as a device's
 * are, but for the object's own `status`.
 */
export function defaultValue(field: FieldSchema, name?: string): unknown {
  if (field.type === 'array') return [];
  const given = catalogueDefault(field);
  if (given !== undefined) return given;
  if (field.type === 'integer') return field.minimum !== undefined && field.minimum > 0 ? field.minimum : 0;
  if (isSwitch(field) && name !== 'status') return 'disable';
  if (field.enum?.length) return field.enum[0];
  return (field.format && FORMAT_DEFAULTS[field.format]) ?? '';
}

/**
 * The catalogue's default where the field's own limits take it (captured from later releases too, a
 * few do not: a value the 6.4.14 options lack is left out of a multi-value default, an empty address
 * or option or a number out of range is no default).
 */
function catalogueDefault(field: FieldSchema): string | number | undefined {
  const given = field.default;
  if (given === undefined) return undefined;
  if (field.type === 'integer') {
    const number = Number(given);
    const fits =
      Number.isInteger(number) &&
      (field.minimum === undefined || number >= field.minimum) &&
      (field.maximum === undefined || number <= field.maximum);
    return fits ? number : undefined;
  }
  const text = String(given);
  if (field.multiple && field.enum)
    return text
      .split(' ')
      .filter((value) => field.enum!.includes(value))
      .join(' ');
  if (field.enum) return field.enum.includes(text) ? text : undefined;
  return text === '' && field.format && FORMAT_DEFAULTS[field.format] ? undefined : text;
}

/** An option field that only turns something on or off. */
function isSwitch(field: FieldSchema): boolean {
  return !field.multiple && field.enum?.length === 2 && field.enum.includes('enable') && field.enum.includes('disable');
}

export function defaultsOf(fields: Fields): Obj {
  return Object.fromEntries(Object.entries(fields).map(([name, field]) => [name, defaultValue(field, name)]));
}

export function isDefault(field: FieldSchema, value: unknown, name?: string): boolean {
  return JSON.stringify(value) === JSON.stringify(defaultValue(field, name));
}

/** A UUID that is one: not empty, not all zeros (the default a table's schema gives). */
export function isUuid(value: unknown): boolean {
  return typeof value === 'string' && /[1-9a-f]/i.test(value);
}

/** A new object of a table with a `uuid` field gets one of its own, as on a device (a given one is kept). */
export function withUuid(table: TableDef, object: Obj): Obj {
  return table.fields.uuid?.format === 'uuid' && !isUuid(object.uuid) ? { ...object, uuid: randomUUID() } : object;
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

/** The device's type of an address field: the catalogue's format, told apart by name where it cannot say. */
function addressType(tablePath: string, fieldPath: string, field: FieldSchema): string | undefined {
  const name = fieldPath.slice(fieldPath.lastIndexOf('.') + 1);
  switch (field.format) {
    case 'ipv4':
      return holdsSubnet(tablePath, fieldPath) ? 'ipv4-classnet' : 'ipv4-address';
    case 'ipv6':
      return /prefix|subnet|net|trusthost/.test(name) ? 'ipv6-prefix' : 'ipv6-address';
    case 'mac-address':
    case 'password':
    case 'uuid':
      return field.format;
    default:
      return undefined;
  }
}

/** Strings longer than this are the device's `var-string` (comments, scripts, certificates). */
const VAR_STRING_SIZE = 255;

function unitarySchema(tablePath: string, fieldPath: string, name: string, field: FieldSchema): Obj {
  const out: Obj = { name, category: 'unitary' };
  if (field.enum) {
    Object.assign(out, {
      type: 'option',
      options: field.enum.map((option) => ({ name: option })),
      multiple_values: !!field.multiple,
    });
  } else if (field.type === 'integer') {
    out.type = 'integer';
    if (field.minimum !== undefined) out['min-value'] = field.minimum;
    if (field.maximum !== undefined) out['max-value'] = field.maximum;
  } else {
    out.type =
      addressType(tablePath, fieldPath, field) ??
      (field.maxLength !== undefined && field.maxLength > VAR_STRING_SIZE ? 'var-string' : 'string');
    if (field.maxLength !== undefined) out.size = field.maxLength;
    if (field.multiple) out.multiple_values = true;
  }
  out.default = defaultValue(field, name);
  if (field.required) out.required = true;
  // The tables a value must name, as the device writes them: `firewall.address.name`.
  if (field.references)
    out.datasource = field.references.map((r) => `${(deviceNameOf(r.table) ?? r.table).replace('/', '.')}.${r.field}`);
  return out;
}

function fieldSchema(tablePath: string, fieldPath: string, name: string, field: FieldSchema): Obj {
  if (field.type !== 'array') return unitarySchema(tablePath, fieldPath, name, field);
  const items = field.items ?? {};
  const mkey = subKeyOf(items);
  const member = Object.keys(items).length === 1 && mkey === 'name';
  return {
    name,
    category: 'table',
    ...(member ? { member_table: true } : {}),
    mkey,
    mkey_type: items[mkey]?.type ?? 'string',
    children: childrenSchema(tablePath, `${fieldPath}.`, items),
  };
}

function childrenSchema(tablePath: string, prefix: string, fields: Fields): Obj {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [name, fieldSchema(tablePath, `${prefix}${name}`, name, field)]),
  );
}

/**
 * `?action=schema`: the table as the device describes itself (PROTOCOL.md "The device's own schema"),
 * from the catalogue's field data, under the device's own name of the table. The key field is
 * `required`, as are the fields the catalogue marks; `help` and the device's exact address types are
 * not in the catalogue.
 */
export function tableSchema(table: TableDef): Obj {
  const { path, name } = splitTablePath(table.deviceName ?? table.path);
  const out: Obj = { name, category: table.singleton ? 'complex' : 'table' };
  if (table.key) Object.assign(out, { mkey: table.key, mkey_type: table.keyType });
  const children = childrenSchema(table.path, '', table.fields);
  if (table.key && children[table.key]) children[table.key] = { ...(children[table.key] as Obj), required: true };
  return { ...out, path, q_type: typeId(table), access_group: table.group, children };
}

/** `GET <prefix>/?action=schema`: every table's schema, as `{path, name, schema}` entries. */
export function schemaTree(tables: readonly TableDef[]): Obj[] {
  return tables.map((table) => {
    const schema = tableSchema(table);
    return { path: schema.path, name: schema.name, schema };
  });
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
