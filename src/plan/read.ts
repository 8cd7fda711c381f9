import { namesOf, type TableDef } from '../catalogue/index.js';
import type { CmdbClient } from '../api/client.js';
import { ApiError } from '../api/errors.js';
import { isObject, type Obj, type TableContent } from './document.js';

/** One VDOM's content of a table, as read from the device. */
export interface TableRead {
  vdom: string;
  content: TableContent;
}

/**
 * Reads a whole table (every object of a keyed table, or a singleton's object) in the given VDOMs
 * (`undefined`: the management VDOM; `['*']`: every VDOM), one request, one result per VDOM.
 */
export async function readTable(
  client: CmdbClient,
  table: TableDef,
  vdoms: string[] | undefined,
  options: { excludeDefaultValues?: boolean; signal?: AbortSignal } = {},
): Promise<TableRead[]> {
  const result = await client.request({
    method: 'GET',
    tablePath: table.path,
    group: table.group,
    query: {
      ...(vdoms ? { vdom: vdoms } : {}),
      ...(options.excludeDefaultValues ? { 'exclude-default-values': true } : {}),
    },
    signal: options.signal,
  });
  return result.envelopes.map((envelope, i) => {
    const results = envelope.results;
    const content: TableContent = table.singleton
      ? isObject(results)
        ? results
        : Array.isArray(results) && isObject(results[0])
          ? results[0]
          : {}
      : Array.isArray(results)
        ? (results.filter(isObject) as Obj[])
        : [];
    return { vdom: envelope.vdom ?? vdoms?.[i] ?? '', content };
  });
}

/** The table under another of its names (SPEC.md's or the device's, CLI.md "Names"). */
export function tableNamed(table: TableDef, name: string): TableDef {
  if (name === table.path) return table;
  const { aliasOf: _alias, ...rest } = table;
  const catalogued = table.aliasOf ?? table.path;
  return name === catalogued ? { ...rest, path: name } : { ...rest, path: name, aliasOf: catalogued };
}

/**
 * Reads a table under the first of its names (namesOf, in the order `prefer` gives them) that the
 * device has: on a 404 the next name is asked. Returns the table under the name that answered.
 */
export async function readTableAnyName(
  client: CmdbClient,
  table: TableDef,
  vdoms: string[] | undefined,
  options: { excludeDefaultValues?: boolean; prefer?: (names: string[]) => string[] } = {},
): Promise<{ table: TableDef; reads: TableRead[] }> {
  const names = options.prefer ? options.prefer(namesOf(table)) : namesOf(table);
  for (let i = 0; ; i++) {
    const named = tableNamed(table, names[i]);
    try {
      return { table: named, reads: await readTable(client, named, vdoms, options) };
    } catch (error) {
      if (i === names.length - 1 || !(error instanceof ApiError) || !error.notFound) throw error;
    }
  }
}
