// A catalogue as a value: the shipped 6.4.14 one (the compiled files, read a table at a time), or one
// read from a device's own schema (another release). Commands, completion and the emulator are handed
// one; nothing outside src/catalogue needs to know which.
import { allTables, findTable, readData, RELEASE, tableSummaries } from './index.js';
import { normalizeTablePath, specNameOf } from './names.js';
import { referrerMap, type Referrer } from './references.js';
import {
  referenceOf,
  releaseNumber,
  tableFromSchema,
  type DeviceRelease,
  type DeviceTableSchema,
  type DeviceTreeEntry,
} from './device-schema.js';
import type { TableDef, TableSummary } from './types.js';

export interface Catalogue {
  /** The release it describes: `6.4.14`, `7.2.5`. */
  readonly release: string;
  /** The shipped 6.4.14 catalogue (no device schema behind it). */
  readonly shipped: boolean;
  /** A table by path (the device's name of a table SPEC.md renamed included), or undefined. */
  find(path: string): TableDef | undefined;
  /** Every table's summary, sorted by path. */
  summaries(): TableSummary[];
  /** Every table whole. */
  all(): TableDef[];
  /** The tables that can name objects of a table, and where (catalogue `references`, a schema's `datasource`). */
  referrers(path: string): readonly Referrer[];
  /** The device's own schema of a table, as it answered (a catalogue read from a device). */
  schemaOf?(path: string): DeviceTableSchema | undefined;
  /** The whole tree as the device answered it (a catalogue read from a device). */
  tree?(): DeviceTreeEntry[];
  /**
   * A table it lacks, looked up in the device's schema (one `?action=schema` request): given by the
   * device layer while the device's release is not known, or its tree was refused.
   */
  lookup?(path: string): Promise<TableDef | undefined>;
}

let shippedReferrers: Record<string, Referrer[]> | undefined;

/** The catalogue shipped in the package: the 6.4.14 device's 472 tables and SPEC.md's 42. */
export const SHIPPED_CATALOGUE: Catalogue = {
  release: RELEASE,
  shipped: true,
  find: findTable,
  summaries: tableSummaries,
  all: allTables,
  referrers: (path) => {
    shippedReferrers ??= readData<Record<string, Referrer[]>>('referrers.json');
    return shippedReferrers[normalizeTablePath(path)] ?? [];
  },
};

/** Whether a device of this release uses the shipped catalogue: 6.4.14, or a release not known yet. */
export function usesShipped(release: DeviceRelease | undefined): boolean {
  return !release?.version || releaseNumber(release.version) === RELEASE;
}

const byPath = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);

/**
 * A catalogue read from a device's schema. SPEC.md's tables keep the shipped catalogue's path and
 * operations (their fields are the device's); `add` takes more tables as they are read one at a time.
 */
export class DeviceCatalogue implements Catalogue {
  readonly shipped = false;
  readonly release: string;
  private readonly tables = new Map<string, { table: TableDef; entry: DeviceTreeEntry }>();
  /** Every table path of the schema read so far, under the device's names: what a `datasource` may name. */
  private readonly devicePaths = new Set<string>();
  private specs: Map<string, TableSummary> | undefined;
  private referrerIndex: Record<string, Referrer[]> | undefined;
  lookup?: (path: string) => Promise<TableDef | undefined>;

  constructor(
    readonly device: DeviceRelease,
    entries: DeviceTreeEntry[] = [],
  ) {
    this.release = device.version ? releaseNumber(device.version) : 'unknown';
    // Every path first, so that a table's references resolve to tables further down the tree.
    for (const entry of entries) this.devicePaths.add(`${entry.path}/${entry.name}`);
    for (const entry of entries) this.add(entry);
  }

  /** A `datasource` entry as a reference under the catalogue's path of the table it names. */
  private readonly resolve = (datasource: string) => {
    const found = referenceOf(datasource, (path) => this.devicePaths.has(path));
    return found && { ...found, table: specNameOf(found.table) ?? found.table };
  };

  /** SPEC.md's tables of the shipped catalogue, by path (its index only, read once). */
  private spec(path: string): TableSummary | undefined {
    this.specs ??= new Map(
      tableSummaries()
        .filter((t) => t.spec)
        .map((t) => [t.path, t]),
    );
    return this.specs.get(path);
  }

  /** Takes one table of the device's schema (again: replaced); returns it in the catalogue's shape. */
  add(entry: DeviceTreeEntry): TableDef {
    const devicePath = `${entry.path}/${entry.name}`;
    const path = specNameOf(devicePath) ?? devicePath;
    this.devicePaths.add(devicePath);
    this.referrerIndex = undefined;
    const read = tableFromSchema(path, entry.schema, this.resolve);
    const spec = this.spec(path);
    const table: TableDef =
      spec && spec.singleton === read.singleton
        ? {
            ...read,
            operations: spec.operations,
            spec: true,
            specOperations: spec.specOperations,
            ...(path !== devicePath ? { deviceName: devicePath } : {}),
          }
        : { ...read, path: devicePath };
    this.tables.set(table.path, { table, entry });
    return table;
  }

  find(input: string): TableDef | undefined {
    const path = normalizeTablePath(input);
    const found = this.tables.get(path)?.table;
    if (found) return found;
    const target = specNameOf(path);
    const aliased = target === undefined ? undefined : this.tables.get(target)?.table;
    return aliased ? { ...aliased, path, aliasOf: aliased.path } : undefined;
  }

  summaries(): TableSummary[] {
    return this.all().map(({ fields: _fields, known: _known, ...summary }) => summary);
  }

  all(): TableDef[] {
    return [...this.tables.values()].map((t) => t.table).sort(byPath);
  }

  referrers(input: string): readonly Referrer[] {
    this.referrerIndex ??= referrerMap(this.all());
    return this.referrerIndex[normalizeTablePath(input)] ?? [];
  }

  schemaOf(input: string): DeviceTableSchema | undefined {
    const table = this.find(input);
    return table ? this.tables.get(table.aliasOf ?? table.path)?.entry.schema : undefined;
  }

  tree(): DeviceTreeEntry[] {
    return [...this.tables.values()].map((t) => t.entry);
  }
}

/** One table's schema answer as a tree entry, under the path it was asked for. */
export function entryOf(tablePath: string, schema: DeviceTableSchema): DeviceTreeEntry {
  const [path, name] = normalizeTablePath(tablePath).split('/');
  return { path, name, schema };
}
