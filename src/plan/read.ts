// Reading a device's configuration: whole tables (a keyed table's objects, a singleton's object) in
// some VDOMs, each under the name the device answers to (SPEC.md's or the device's, CLI.md "Names"),
// several at once; what a document's tables hold on the device now. Takes a Device and returns what it
// read and what it could not, as values: the caller says what a failure means.
import { isGlobal, namesOf, type TableDef } from '../catalogue/index.js';
import type { CmdbClient } from '../api/client.js';
import { ApiError, ConnectionError } from '../api/errors.js';
import type { Device } from '../device/device.js';
import { TableNames } from '../device/table-names.js';
import { isFactoryObject } from '../catalogue/factory.js';
import { isObject, keyId, type Obj } from '../objects/normalize.js';
import { settleConcurrent } from '../request/bulk.js';
import { normalizeContent, type DocumentTable, type TableContent } from './document.js';
import type { Comparison } from './plan.js';
import { hasVerb } from './verbs.js';

/** Tables read at once over the device's one connection pool. */
export const READ_CONCURRENCY = 8;

/** One VDOM's content of a table, as read from the device. */
export interface TableRead {
  vdom: string;
  content: TableContent;
}

/** How a table is read: fields at their default left out (as `show` prints); some fields and their `q_*` facts. */
export interface ReadOptions {
  excludeDefaultValues?: boolean;
  facts?: { fields: string[] };
  signal?: AbortSignal;
}

/**
 * Reads a whole table (every object of a keyed table, or a singleton's object) in the given VDOMs
 * (`undefined`: the management VDOM; `['*']`: every VDOM), one request, one result per VDOM.
 */
export async function readTable(
  client: CmdbClient,
  table: TableDef,
  vdoms: string[] | undefined,
  options: ReadOptions = {},
): Promise<TableRead[]> {
  const result = await client.request({
    method: 'GET',
    tablePath: table.path,
    group: table.group,
    query: {
      ...(vdoms ? { vdom: vdoms } : {}),
      ...(options.excludeDefaultValues ? { 'exclude-default-values': true } : {}),
      ...(options.facts ? { with_meta: true, format: options.facts.fields } : {}),
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

/** A keyed table's keys in the device's order (only the key asked for: a light read of a long table). */
export async function readKeys(
  client: CmdbClient,
  table: TableDef,
  vdoms: string[] | undefined,
  signal?: AbortSignal,
): Promise<(string | number)[]> {
  const key = table.key!;
  const read = () =>
    client.request({
      method: 'GET',
      tablePath: table.path,
      group: table.group,
      query: { ...(vdoms ? { vdom: vdoms } : {}), format: [key] },
      signal,
    });
  // A read is safe to send again: a kept-alive connection the device had just closed is tried once more.
  const result = await read().catch((error: unknown) => {
    if (error instanceof ConnectionError && error.reason === 'reset') return read();
    throw error;
  });
  const results = result.envelopes[0]?.results;
  return (Array.isArray(results) ? results.filter(isObject) : []).map((o) => o[key] as string | number);
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
  options: ReadOptions & { prefer?: (names: string[]) => string[] } = {},
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

/**
 * A table that could not be read: the error; whether the device does not have it (404 under each of
 * its names), or will not list it (405: a table its model or mode lacks).
 */
export interface ReadFailure {
  table: TableDef;
  error: unknown;
  missing: boolean;
  unlisted: boolean;
}

/** Which names the connected device answered to (CLI.md "Names"), remembered per device address. */
async function tableNames(device: Device, client: CmdbClient): Promise<TableNames> {
  return TableNames.load(device.env, device.demo ? 'demo' : client.baseUrl);
}

/** The failures among settled reads, in input order. */
function failuresOf<R>(tables: TableDef[], settled: PromiseSettledResult<R>[]): ReadFailure[] {
  return settled.flatMap((r, i): ReadFailure[] => {
    if (r.status === 'fulfilled') return [];
    const answer = r.reason instanceof ApiError ? r.reason : undefined;
    return [{ table: tables[i], error: r.reason, missing: !!answer?.notFound, unlisted: answer?.status === 405 }];
  });
}

/**
 * The configuration of some tables in some VDOMs (`undefined`: the management VDOM; `*`: all), read
 * `concurrency` at once: the global tables once (`vdom` null, asked in the first VDOM named), then VDOM
 * by VDOM in the device's order, tables in the catalogue's; each under the name the device answered to
 * (a renamed table: SPEC.md's or the device's). A table that cannot be read is in `failures`, in the
 * order of `tables`.
 */
export async function readConfiguration(
  device: Device,
  tables: TableDef[],
  vdoms: string[] | undefined,
  options: { excludeDefaultValues?: boolean; concurrency?: number; onRead?: () => void } = {},
): Promise<{ tables: DocumentTable[]; failures: ReadFailure[] }> {
  const client = await device.client();
  const names = await tableNames(device, client);
  // A global table is the same in every VDOM: asked once, in one VDOM the caller may read.
  const once = vdoms && !vdoms.includes('*') ? [vdoms[0]] : undefined;
  const read = async (table: TableDef) => {
    const answer = await readTableAnyName(client, table, isGlobal(table) ? once : vdoms, {
      excludeDefaultValues: options.excludeDefaultValues,
      prefer: (n) => names.prefer(n),
    });
    names.answered(namesOf(table), answer.table.path);
    return answer;
  };
  const settled = await settleConcurrent(tables, read, options.concurrency ?? READ_CONCURRENCY, options.onRead);
  names.save();
  const global: DocumentTable[] = [];
  const found: DocumentTable[] = [];
  const vdomOrder: string[] = [];
  for (const r of settled) {
    if (r.status === 'rejected') continue;
    const { table, reads } = r.value;
    if (isGlobal(table)) {
      global.push({ vdom: null, table, content: normalizeContent(table, reads[0]?.content ?? []) });
      continue;
    }
    for (const { vdom, content } of reads) {
      if (!vdomOrder.includes(vdom)) vdomOrder.push(vdom);
      found.push({ vdom, table, content: normalizeContent(table, content) });
    }
  }
  return {
    tables: [...global, ...vdomOrder.flatMap((vdom) => found.filter((t) => t.vdom === vdom))],
    failures: failuresOf(tables, settled),
  };
}

/**
 * A table's defaults, what a new object gets: the device's own (`?action=default`) where it answers,
 * else the catalogue's `default` of each field.
 */
async function readDefaults(client: CmdbClient, table: TableDef, vdom: string | null): Promise<Obj> {
  try {
    const result = await client.request({
      method: 'GET',
      tablePath: table.path,
      group: table.group,
      query: { ...(vdom === null ? {} : { vdom: [vdom] }), action: 'default' },
    });
    const results = result.envelopes[0]?.results;
    const object = Array.isArray(results) ? results[0] : results;
    if (isObject(object)) return object;
  } catch {
    // A device (or a table) without the defaults action: the catalogue's.
  }
  return Object.fromEntries(
    Object.entries(table.fields).flatMap(([name, field]) =>
      field.default === undefined ? [] : [[name, field.default]],
    ),
  );
}

/**
 * Marks the objects the device keeps whatever a document says (`q_static`: its factory objects) among
 * those of a keyed table the document does not list (what a prune would delete), from a light read of
 * keys and facts asked only when there are such objects, none of them a factory object already known.
 */
async function markStatic(client: CmdbClient, d: DocumentTable, table: TableDef, actual: TableContent) {
  if (!Array.isArray(actual) || !table.key || !Array.isArray(d.content)) return actual;
  const key = table.key;
  const listed = new Set(d.content.map((object) => keyId(object[key])));
  const path = table.aliasOf ?? table.path;
  const unlisted = actual.filter((o) => !listed.has(keyId(o[key])) && !isFactoryObject(path, o[key]));
  if (!unlisted.length) return actual;
  const [facts] = await readTable(client, table, d.vdom === null ? undefined : [d.vdom], { facts: { fields: [key] } });
  const fixed = new Set(
    (Array.isArray(facts?.content) ? facts.content : []).filter((o) => o.q_static === true).map((o) => keyId(o[key])),
  );
  return fixed.size ? actual.map((o) => (fixed.has(keyId(o[key])) ? { ...o, q_static: true } : o)) : actual;
}

/**
 * The device's current content of every document table (a global one without a VDOM), read
 * concurrently, each under the name the device answers to (a document may name a renamed table either
 * way); with `prune` the objects the device marks `q_static` among those the document does not list
 * (markStatic), with `defaults` each table's defaults (readDefaults, once per table). A table that
 * cannot be read is in `failures`, in the document's order.
 */
export async function readCurrent(
  device: Device,
  desired: DocumentTable[],
  options: { prune?: boolean; defaults?: boolean } = {},
): Promise<{ comparisons: Comparison[]; failures: ReadFailure[] }> {
  const client = await device.client();
  const names = await tableNames(device, client);
  const defaults = new Map<string, Promise<Obj>>();
  const settled = await settleConcurrent(
    desired,
    async (d): Promise<Comparison> => {
      const {
        table,
        reads: [first],
      } = await readTableAnyName(client, d.table, d.vdom === null ? undefined : [d.vdom], {
        prefer: (n) => names.prefer(n),
      });
      names.answered(namesOf(d.table), table.path);
      // A `.conf`'s `unset` lines return fields to the device's defaults: read them for that table too.
      const unsets = !!d.verbs?.unset.size;
      if ((options.defaults || unsets) && !defaults.has(table.path))
        defaults.set(table.path, readDefaults(client, table, d.vdom));
      const actual = first?.content ?? [];
      return {
        desired: { ...d, table },
        actual: options.prune || hasVerb(d.verbs, 'purge') ? await markStatic(client, d, table, actual) : actual,
        ...(options.defaults ? { defaults: await defaults.get(table.path) } : {}),
        ...(unsets ? { unsetTo: await defaults.get(table.path) } : {}),
      };
    },
    READ_CONCURRENCY,
  );
  names.save();
  return {
    comparisons: settled.flatMap((r) => (r.status === 'fulfilled' ? [r.value] : [])),
    failures: failuresOf(
      desired.map((d) => d.table),
      settled,
    ),
  };
}
