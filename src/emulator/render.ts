// Objects as the device answers them: keys echoed as `q_origin_key`, secrets encrypted, the read
// options (`format`, `skip`, `with_meta`, ...) applied.
import { createHash } from 'node:crypto';
import type { FieldSchema, TableDef } from '../catalogue/index.js';
import { splitTablePath } from './envelope.js';
import { datasourceOf } from './links.js';
import type { RenderOptions } from './query.js';
import { isDefault, subKeyOf, typeId, type Fields, type Obj } from './schema.js';

/** Devices never show a secret: they answer its encrypted form. */
export function maskSecret(value: unknown): unknown {
  if (typeof value !== 'string' || value === '' || value.startsWith('ENC ')) return value;
  return `ENC ${createHash('sha256').update(`cmdb-emulator:${value}`).digest('base64')}`;
}

function isEmpty(value: unknown): boolean {
  return value === '' || (Array.isArray(value) && value.length === 0);
}

function sortedJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(sortedJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Obj).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${sortedJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

/** `with_contents_hash=1`: SHA-256 of the stored object as JSON with sorted keys. */
export function contentsHash(object: Obj): string {
  return createHash('sha256').update(sortedJson(object)).digest('hex');
}

interface Level {
  tablePath: string;
  fields: Fields;
  keyField: string | null;
  /** Field path prefix of this level (`pac-policy.`), for datasource links. */
  prefix: string;
  format: Set<string> | null;
  datasource: string | undefined;
}

function keep(
  level: Level,
  options: RenderOptions,
  name: string,
  field: FieldSchema | undefined,
  value: unknown,
): boolean {
  if (name === level.keyField) return !level.format || level.format.has(name);
  if (level.format && !level.format.has(name)) return false;
  if (options.skip && isEmpty(value)) return false;
  return !(options.excludeDefaults && field && isDefault(field, value, name));
}

function present(level: Level, options: RenderOptions, object: Obj): Obj {
  const out: Obj = {};
  if (level.keyField && level.format && !level.format.has(level.keyField)) out.q_origin_key = object[level.keyField];
  for (const [name, value] of Object.entries(object)) {
    const field = level.fields[name];
    if (!keep(level, options, name, field, value)) continue;
    out[name] = presentValue(level, options, name, field, value);
    if (name === level.keyField) out.q_origin_key = value;
  }
  if (level.datasource) out.datasource = level.datasource;
  return out;
}

function presentValue(
  level: Level,
  options: RenderOptions,
  name: string,
  field: FieldSchema | undefined,
  value: unknown,
): unknown {
  if (field?.format === 'password') return maskSecret(value);
  if (field?.type !== 'array' || !Array.isArray(value)) return value;
  const items = field.items ?? {};
  const fieldPath = `${level.prefix}${name}`;
  const entryLevel: Level = {
    tablePath: level.tablePath,
    fields: items,
    keyField: subKeyOf(items),
    prefix: `${fieldPath}.`,
    format: null,
    datasource: options.datasource ? datasourceOf(level.tablePath, fieldPath) : undefined,
  };
  return value.map((entry: Obj) => present(entryLevel, options, entry));
}

/** What `with_meta` says of one object beyond its table: how many objects name it, whether it is a factory object. */
export type ObjectMeta = (object: Obj) => { ref: number; static: boolean; noRename: boolean };

function metaFields(table: TableDef, object: Obj, meta: ObjectMeta | undefined): Obj {
  const { path, name } = splitTablePath(table.path);
  const facts = meta?.(object) ?? { ref: 0, static: false, noRename: false };
  const out: Obj = {
    q_ref: facts.ref,
    q_static: facts.static,
    q_no_rename: facts.noRename,
    q_global_entry: false,
    q_type: typeId(table),
    q_path: path,
    q_name: name,
  };
  if (table.keyType) out.q_mkey_type = table.keyType;
  return { ...out, q_no_edit: false, q_class: 0 };
}

/**
 * An object as the device answers it: keys echoed as `q_origin_key` (also in
 * sub-table entries), secrets masked, then the read options applied.
 */
export function renderObject(table: TableDef, object: Obj, options: RenderOptions, meta?: ObjectMeta): Obj {
  const level: Level = {
    tablePath: table.path,
    fields: table.fields,
    keyField: table.key,
    prefix: '',
    format: options.format,
    datasource: undefined,
  };
  const out = present(level, options, object);
  if (options.withMeta) Object.assign(out, metaFields(table, object, meta));
  if (options.withContentsHash) out.q_contents_hash = contentsHash(object);
  return out;
}

/** Entries of a sub-table (`<item>/<child>` paths) as the device answers them inside their object. */
export function renderEntries(table: TableDef, fieldName: string, entries: Obj[], options: RenderOptions): unknown {
  const level: Level = {
    tablePath: table.path,
    fields: table.fields,
    keyField: table.key,
    prefix: '',
    format: null,
    datasource: undefined,
  };
  return presentValue(level, options, fieldName, table.fields[fieldName], entries);
}
