// Build time only (scripts/catalogue.js): SPEC.md's 42 tables and the 6.4.14 device's 472 as one
// catalogue, written as files a run reads one table at a time (README "The catalogue").
import { specNameOf } from './names.js';
import { referrerMap, type Referrer } from './references.js';
import type { FieldSchema, KeyType, OperationCode, TableScope, TableSummary } from './types.js';

export interface SourceTable {
  path: string;
  group: string;
  operations: OperationCode[];
  key: { name: string; type: KeyType } | null;
  singleton: boolean;
  deviceKey?: string | null;
  fields: Record<string, FieldSchema>;
  scope?: TableScope;
}

/** A table as the catalogue files hold it: its summary and its fields. */
export interface CompiledTable extends TableSummary {
  fields: Record<string, FieldSchema>;
}

const ORDER: OperationCode[] = ['L', 'C', 'R', 'U', 'D', 'G', 'P'];

/** The integrity facts only the device file carries (references, defaults, required marks, device types). */
const DEVICE_ONLY = new Set(['references', 'default', 'required', 'deviceType']);

/** A field set as SPEC.md's file states it: without the facts only the device file carries. */
function specShape(fields: Record<string, FieldSchema>): unknown {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => [
      name,
      Object.fromEntries(
        Object.entries(field)
          .filter(([k]) => !DEVICE_ONLY.has(k))
          .map(([k, v]) => [k, k === 'items' ? specShape(v as Record<string, FieldSchema>) : v]),
      ),
    ]),
  );
}

/** The catalogue's path of a device path: no leading slash, SPEC.md's name where SPEC.md renamed the table. */
function catalogueName(devicePath: string): string {
  const path = devicePath.replace(/^\//, '');
  return specNameOf(path) ?? path;
}

/** Fields with their references under the catalogue's paths. */
function withCataloguePaths(fields: Record<string, FieldSchema>): Record<string, FieldSchema> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, field]) => {
      const out: FieldSchema = { ...field };
      if (field.references) out.references = field.references.map((r) => ({ ...r, table: catalogueName(r.table) }));
      if (field.items) out.items = withCataloguePaths(field.items);
      return [name, out];
    }),
  );
}

/**
 * Merges the two sources: every device table, under SPEC.md's name where SPEC.md renamed it, with the
 * operations the device documents (SPEC.md's list, a subset, kept as `specOperations`). Throws when
 * the sources disagree on a SPEC.md table's key, kind or fields.
 */
export function compileCatalogue(device: SourceTable[], spec: SourceTable[]): CompiledTable[] {
  const specByPath = new Map(spec.map((t) => [t.path.replace(/^\//, ''), t]));
  const tables = device.map((d): CompiledTable => {
    const devicePath = d.path.replace(/^\//, '');
    const path = specNameOf(devicePath) ?? devicePath;
    const s = specByPath.get(path);
    specByPath.delete(path);
    const key = d.key?.name ?? null;
    if (s) {
      if ((s.deviceKey ?? null) !== key)
        throw new Error(`${path}: SPEC.md's key ${s.deviceKey} is not the device's ${key}`);
      if (s.singleton !== d.singleton) throw new Error(`${path}: SPEC.md and the device disagree on its kind`);
      if (JSON.stringify(specShape(s.fields)) !== JSON.stringify(specShape(d.fields)))
        throw new Error(`${path}: SPEC.md's fields are not the device's`);
    }
    const operations = ORDER.filter((op) => d.operations.includes(op) || s?.operations.includes(op));
    return {
      path,
      group: d.group,
      operations,
      singleton: d.singleton,
      key,
      keyType: d.key?.type ?? null,
      ...(s ? { spec: true, specOperations: s.operations } : {}),
      ...(path !== devicePath ? { deviceName: devicePath } : {}),
      ...(d.scope ? { scope: d.scope } : {}),
      fields: withCataloguePaths(d.fields),
    };
  });
  if (specByPath.size) throw new Error(`SPEC.md tables the device does not have: ${[...specByPath.keys()].join(', ')}`);
  return tables;
}

/** The factory objects file of ../shared/data as shipped: tables under the catalogue's paths. */
export interface CompiledFactoryObjects {
  release: string;
  objects: Record<string, string[]>;
  databases: string[];
}

/** `factory-objects-6.4.14.json` under the catalogue's paths (no leading slash, SPEC.md's names). */
export function compileFactoryObjects(source: {
  release: string;
  objects: { table: string; keys: (string | number)[] }[];
  databases: string[];
}): CompiledFactoryObjects {
  return {
    release: source.release,
    objects: Object.fromEntries(source.objects.map((o) => [catalogueName(o.table), o.keys.map(String)])),
    databases: source.databases.map(catalogueName),
  };
}

/** Per table, the tables that can name its objects (what a delete or `refs` looks through). */
export function compileReferrers(tables: CompiledTable[]): Record<string, Referrer[]> {
  return referrerMap(tables);
}
