// The device's own description of its tables (PROTOCOL.md, "The device's own schema"), read into the
// catalogue's shape: what a release other than 6.4.14 is known by. Pure functions of the answers; a
// type or category never seen before is read as a string field, never refused.
import type { FieldSchema, KeyType, TableDef } from './types.js';

type Obj = Record<string, unknown>;

/** One table's schema as the device answers `?action=schema` (the fields this reader uses). */
export interface DeviceTableSchema {
  name?: string;
  path?: string;
  category?: string;
  mkey?: string;
  mkey_type?: string;
  access_group?: string;
  readonly?: boolean;
  children?: Record<string, unknown>;
  [field: string]: unknown;
}

/** One entry of the whole tree (`GET /api/v2/cmdb/?action=schema`). */
export interface DeviceTreeEntry {
  path: string;
  name: string;
  schema: DeviceTableSchema;
}

/** What a CMDB answer's envelope says of the device: its release and serial number. */
export interface DeviceRelease {
  version?: string;
  build?: number;
  serial?: string;
}

const isObject = (value: unknown): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value);
const number = (value: unknown): number | undefined =>
  typeof value === 'number' && Number.isFinite(value) ? value : undefined;

/** The catalogue's format of a device field type, where it has one (address formats, secrets, UUIDs). */
function formatOf(type: string): string | undefined {
  if (type.startsWith('ipv4-')) return 'ipv4';
  if (type.startsWith('ipv6-')) return 'ipv6';
  if (type === 'mac-address') return 'mac-address';
  if (type.startsWith('password')) return 'password';
  if (type === 'uuid') return 'uuid';
  return undefined;
}

/** One field of a device schema in the catalogue's shape. */
export function fieldFromSchema(field: unknown): FieldSchema {
  if (!isObject(field)) return { type: 'string' };
  if (field.category === 'table') return { type: 'array', items: fieldsFromSchema(field.children) };
  const type = typeof field.type === 'string' ? field.type : '';
  if (type === 'option') {
    const options = Array.isArray(field.options) ? field.options : [];
    const values = options.map((o) => (isObject(o) ? o.name : o)).filter((v): v is string => typeof v === 'string');
    return {
      type: 'string',
      ...(values.length ? { enum: values } : {}),
      ...(field.multiple_values === true ? { multiple: true } : {}),
    };
  }
  if (type === 'string' || type === 'var-string') {
    const size = number(field.size);
    return size === undefined ? { type: 'string' } : { type: 'string', maxLength: size };
  }
  if (type === 'integer') {
    const min = number(field['min-value']);
    const max = number(field['max-value']);
    return {
      type: 'integer',
      ...(min === undefined ? {} : { minimum: min }),
      ...(max === undefined ? {} : { maximum: max }),
    };
  }
  const format = formatOf(type);
  return format ? { type: 'string', format } : { type: 'string' };
}

/** The `children` of a schema as the catalogue's fields (a missing or odd one: no fields). */
export function fieldsFromSchema(children: unknown): Record<string, FieldSchema> {
  if (!isObject(children)) return {};
  return Object.fromEntries(Object.entries(children).map(([name, field]) => [name, fieldFromSchema(field)]));
}

/**
 * A table of the device from its schema: category `table` is keyed by `mkey` (list, create, read,
 * update, delete), `complex` a singleton (read, update); a read-only one keeps only its reads.
 * Another category is keyed when it names a key, else a singleton.
 */
export function tableFromSchema(path: string, schema: unknown): TableDef {
  const s: DeviceTableSchema = isObject(schema) ? schema : {};
  const singleton = s.category === 'complex' || (s.category !== 'table' && typeof s.mkey !== 'string');
  const readonly = s.readonly === true;
  const key = singleton ? null : typeof s.mkey === 'string' && s.mkey ? s.mkey : null;
  const keyType: KeyType | null = singleton ? null : s.mkey_type === 'integer' ? 'integer' : 'string';
  return {
    path,
    group: typeof s.access_group === 'string' && s.access_group ? s.access_group : 'unknown',
    operations: singleton ? (readonly ? ['G'] : ['G', 'P']) : readonly ? ['L', 'R'] : ['L', 'C', 'R', 'U', 'D'],
    singleton,
    key,
    keyType,
    fields: fieldsFromSchema(s.children),
    known: true,
  };
}

/** `router` + `static` → `router/static`. */
export function schemaPath(entry: { path?: unknown; name?: unknown }): string | undefined {
  return typeof entry.path === 'string' && typeof entry.name === 'string' && entry.path && entry.name
    ? `${entry.path}/${entry.name}`
    : undefined;
}

/** The results of an answer: the envelope's (the first of several VDOMs'), or the value itself. */
function resultsOf(answer: unknown): unknown {
  const envelope = Array.isArray(answer) && isObject(answer[0]) && 'results' in answer[0] ? answer[0] : answer;
  return isObject(envelope) && 'results' in envelope ? envelope.results : envelope;
}

/**
 * The tables of a whole-tree answer (the envelope as it came, or its `results`); `__tree__` entries and odd ones are
 * left out.
 */
export function treeEntries(answer: unknown): DeviceTreeEntry[] {
  const results = resultsOf(answer);
  if (!Array.isArray(results)) return [];
  return results.flatMap((entry): DeviceTreeEntry[] => {
    if (!isObject(entry) || entry.name === '__tree__' || !isObject(entry.schema)) return [];
    return schemaPath(entry) ? [{ path: entry.path as string, name: entry.name as string, schema: entry.schema }] : [];
  });
}

/** Whether an answer is a whole tree (a list of `{path, name, schema}`), not one table's schema. */
export function isTreeAnswer(answer: unknown): boolean {
  return Array.isArray(resultsOf(answer));
}

/** The catalogue's tables of a whole-tree answer. */
export function tablesFromTree(answer: unknown): TableDef[] {
  return treeEntries(answer).map((entry) => tableFromSchema(`${entry.path}/${entry.name}`, entry.schema));
}

/** The release and serial number an envelope (or the first of several) carries; fields it lacks are left out. */
export function releaseOf(answer: unknown): DeviceRelease {
  const envelope = Array.isArray(answer) ? answer[0] : answer;
  if (!isObject(envelope)) return {};
  const version = typeof envelope.version === 'string' && envelope.version ? envelope.version : undefined;
  const build =
    typeof envelope.build === 'number' && Number.isInteger(envelope.build)
      ? envelope.build
      : typeof envelope.build === 'string' && /^\d+$/.test(envelope.build)
        ? Number(envelope.build)
        : undefined;
  const serial = typeof envelope.serial === 'string' && envelope.serial ? envelope.serial : undefined;
  return { ...(version ? { version } : {}), ...(build !== undefined ? { build } : {}), ...(serial ? { serial } : {}) };
}

/** `v7.2.5` → `7.2.5`. */
export function releaseNumber(version: string): string {
  return version.replace(/^v/i, '');
}
