// The device's own description of its tables (PROTOCOL.md, "The device's own schema"), read into the
// catalogue's shape: what a release other than 6.4.14 is known by. Pure functions of the answers; a
// type or category never seen before is read as a string field, never refused.
import type { FieldReference, FieldSchema, KeyType, TableDef, TableScope } from './types.js';

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

/**
 * A `datasource` entry (`firewall.address.name`, `firewall.service.custom.name`, `system.sdwan.zone.name`:
 * area, table, then a field, through sub-tables where it names one) as the table and field it names,
 * resolved against the tables there are (`hasTable`); undefined when no table of that name exists.
 */
export function referenceOf(datasource: string, hasTable: (path: string) => boolean): FieldReference | undefined {
  const parts = datasource.split('.');
  // The longest table path first: `firewall.service/custom` before `firewall/service`.
  for (let cut = parts.length - 1; cut >= 2; cut--) {
    const table = `${parts.slice(0, cut - 1).join('.')}/${parts[cut - 1]}`;
    if (hasTable(table)) return { table, field: parts.slice(cut).join('.') };
  }
  return undefined;
}

/** How a reader of a schema turns `datasource` entries into references (none: they are not read). */
export type ResolveDatasource = (datasource: string) => FieldReference | undefined;

/** The references of a field's `datasource`, or none when any of its tables is unknown (not checkable then). */
function referencesOf(field: Obj, resolve: ResolveDatasource | undefined): FieldReference[] | undefined {
  if (!resolve || !Array.isArray(field.datasource) || field.datasource.length === 0) return undefined;
  const references = field.datasource.map((entry) => (typeof entry === 'string' ? resolve(entry) : undefined));
  return references.every((r) => r !== undefined) ? (references as FieldReference[]) : undefined;
}

/** The integrity facts of a field: what it names, what a new object gets, whether the schema requires it. */
function factsOf(field: Obj, resolve: ResolveDatasource | undefined): Partial<FieldSchema> {
  const references = referencesOf(field, resolve);
  const given = field.default;
  return {
    ...(references ? { references } : {}),
    ...(typeof given === 'string' || typeof given === 'number' ? { default: given } : {}),
    ...(field.required === true ? { required: true } : {}),
    ...(typeof field.type === 'string' && field.type ? { deviceType: field.type } : {}),
  };
}

/**
 * One field of a device schema in the catalogue's shape, with its `default`, `required`, device type
 * and, given a way to resolve them, the references of its `datasource`.
 */
export function fieldFromSchema(field: unknown, resolve?: ResolveDatasource): FieldSchema {
  if (!isObject(field)) return { type: 'string' };
  if (field.category === 'table') {
    const references = referencesOf(field, resolve);
    return { type: 'array', items: fieldsFromSchema(field.children, resolve), ...(references ? { references } : {}) };
  }
  return { ...unitaryField(field), ...factsOf(field, resolve) };
}

function unitaryField(field: Obj): FieldSchema {
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
export function fieldsFromSchema(children: unknown, resolve?: ResolveDatasource): Record<string, FieldSchema> {
  if (!isObject(children)) return {};
  return Object.fromEntries(Object.entries(children).map(([name, field]) => [name, fieldFromSchema(field, resolve)]));
}

const SCOPES: readonly string[] = ['vdom', 'global', 'global-vdom', 'both'];

/** Where a table's objects live, from the schema's `object_range` (absent when it does not say). */
export function scopeOf(schema: unknown): TableScope | undefined {
  const range = isObject(schema) ? schema.object_range : undefined;
  return typeof range === 'string' && SCOPES.includes(range) ? (range as TableScope) : undefined;
}

/**
 * A table of the device from its schema: category `table` is keyed by `mkey` (list, create, read,
 * update, delete), `complex` a singleton (read, update); a read-only one keeps only its reads.
 * Another category is keyed when it names a key, else a singleton.
 */
export function tableFromSchema(path: string, schema: unknown, resolve?: ResolveDatasource): TableDef {
  const s: DeviceTableSchema = isObject(schema) ? schema : {};
  const scope = scopeOf(s);
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
    ...(scope ? { scope } : {}),
    fields: fieldsFromSchema(s.children, resolve),
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
