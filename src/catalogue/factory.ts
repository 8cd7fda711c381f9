// The factory objects of release 6.4.14 (../shared/data/factory-objects-6.4.14.json, compiled at build
// time): the objects every device holds after a reset, which every emulator seed holds, which a
// restore must meet rather than create or prune, and which a reference may always name. Read only
// when asked for.
import { readData } from './index.js';
import type { CompiledFactoryObjects } from './compile.js';

/** An object every device has that the file's list leaves out, named by a table, a target field and a key. */
export interface FactoryName {
  table: string;
  /** `''` for the table's key, else a path through sub-tables (`zone.name`). */
  field: string;
  key: string;
}

export interface FactoryObjects {
  /** Per table (the catalogue's path), the keys of its factory objects, in the file's order. */
  objects: ReadonlyMap<string, readonly string[]>;
  /** The tables a device fills from its FortiGuard databases: a reference into them names anything. */
  databases: ReadonlySet<string>;
}

/** The interface of the SSL VPN tunnel, which every device has (PROTOCOL.md "Words that are not objects"). */
export const SSL_VPN_INTERFACE = 'ssl.root';

/**
 * The file's `alsoFactory` rules that name objects (prose in the file, so written here): the SSL VPN
 * tunnel interface, the SD-WAN zone every device has. The model's physical ports are the emulator's
 * own; `q_static` is read on objects.
 */
export const ALSO_FACTORY: readonly FactoryName[] = [
  { table: 'system/interface', field: '', key: SSL_VPN_INTERFACE },
  { table: 'system/sdwan', field: 'zone.name', key: 'virtual-wan-link' },
];

let loaded: FactoryObjects | undefined;
let ids: Set<string> | undefined;

const idOf = (table: string, field: string, key: unknown) => `${table}\0${field}\0${String(key)}`;

export function factoryObjects(): FactoryObjects {
  if (!loaded) {
    const data = readData<CompiledFactoryObjects>('factory-objects.json');
    loaded = { objects: new Map(Object.entries(data.objects)), databases: new Set(data.databases) };
  }
  return loaded;
}

/**
 * Whether a device has an object after a reset: one of the file's, or of its `alsoFactory` rules
 * (a device may have more: `q_static`). `field` is the field a reference names it by: a table's key
 * (or none) for an object, a path through sub-tables for an entry (`system/sdwan` `zone.name`).
 */
export function isFactoryObject(tablePath: string, key: unknown, field?: string): boolean {
  if (!ids) {
    ids = new Set(ALSO_FACTORY.map((a) => idOf(a.table, a.field, a.key)));
    for (const [table, keys] of factoryObjects().objects) for (const k of keys) ids.add(idOf(table, '', k));
  }
  return ids.has(idOf(tablePath, field?.includes('.') ? field : '', key));
}
