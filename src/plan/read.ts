import type { TableDef } from '../catalogue/index.js';
import type { CmdbClient } from '../api/client.js';
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
export async function readTable(client: CmdbClient, table: TableDef, vdoms: string[] | undefined, options: { excludeDefaultValues?: boolean; signal?: AbortSignal } = {}): Promise<TableRead[]> {
  const result = await client.request({
    method: 'GET',
    tablePath: table.path,
    group: table.group,
    query: { ...(vdoms ? { vdom: vdoms } : {}), ...(options.excludeDefaultValues ? { 'exclude-default-values': true } : {}) },
    signal: options.signal,
  });
  return result.envelopes.map((envelope, i) => {
    const results = envelope.results;
    const content: TableContent = table.singleton
      ? isObject(results) ? results : Array.isArray(results) && isObject(results[0]) ? results[0] : {}
      : Array.isArray(results) ? (results.filter(isObject) as Obj[]) : [];
    return { vdom: envelope.vdom ?? vdoms?.[i] ?? '', content };
  });
}
