// The device's factory objects as the reference library reads them: the shipped file of the objects
// every device holds after a reset (the catalogue's factory-objects JSON, parsed by the caller) as a
// predicate, and the tables the device fills from its FortiGuard databases.
import { SSL_VPN_INTERFACE, keyId, type Key } from './fields.js';
import type { IsFactory } from './usage.js';

/** The factory file's shape (`objects` per table under the device's paths, `databases` likewise). */
export interface FactoryFile {
  objects: { table: string; keys: Key[] }[];
  databases?: string[];
}

/** The rules of the file's `alsoFactory` that name objects: the SSL VPN interface, the SD-WAN zone every device has. */
const ALSO: [string, string, string][] = [
  ['system/interface', '', SSL_VPN_INTERFACE],
  ['system/sdwan', 'zone.name', 'virtual-wan-link'],
];

/**
 * The factory objects of a file as a predicate (table by catalogue path, key; `field` a sub-table
 * path for entries such as `system/sdwan` `zone.name`), and its database tables by catalogue path.
 * A device's own marks (`q_static`) are read where objects are.
 */
export function factoryFacts(file: FactoryFile): { isFactory: IsFactory; databases: string[] } {
  const keys = new Set<string>();
  const id = (table: string, field: string, key: Key) => `${table.replace(/^\//, '')}\0${field}\0${keyId(key)}`;
  for (const { table, keys: list } of file.objects) for (const key of list) keys.add(id(table, '', key));
  for (const [table, field, key] of ALSO) keys.add(id(table, field, key));
  return {
    isFactory: (table, key, field) => keys.has(id(table, field?.includes('.') ? field : '', key)),
    databases: (file.databases ?? []).map((t) => t.replace(/^\//, '')),
  };
}
