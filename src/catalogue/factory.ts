// The factory objects of release 6.4.14 (../shared/data/factory-objects-6.4.14.json, compiled at build
// time): the objects every device holds after a reset, which every emulator seed holds and which a
// restore must meet rather than create or prune. Read only when asked for.
import { readData } from './index.js';
import type { CompiledFactoryObjects } from './compile.js';

export interface FactoryObjects {
  /** Per table (the catalogue's path), the keys of its factory objects, in the file's order. */
  objects: ReadonlyMap<string, readonly string[]>;
  /** The tables a device fills from its FortiGuard databases: a reference into them names anything. */
  databases: ReadonlySet<string>;
}

let loaded: FactoryObjects | undefined;

export function factoryObjects(): FactoryObjects {
  if (!loaded) {
    const data = readData<CompiledFactoryObjects>('factory-objects.json');
    loaded = { objects: new Map(Object.entries(data.objects)), databases: new Set(data.databases) };
  }
  return loaded;
}

/** Whether an object is one of the factory objects of the file (a device may have more: `q_static`). */
export function isFactoryObject(tablePath: string, key: unknown): boolean {
  return factoryObjects().objects.get(tablePath)?.includes(String(key)) ?? false;
}
