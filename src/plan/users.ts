// Who names an object on a device (CLI.md "References between tables": `cmdb refs`, the users a
// `-23` refusal is explained with, the deletes a plan is checked for): the device's own usage query
// (`monitor/system/object/usage`, PROTOCOL.md "References and integrity") where it answers, else the
// tables the catalogue says can name the object (`catalogue.referrers`), read once for all the objects
// asked and searched with the reference library's UsageIndex.
import { ApiError, MalformedAnswerError } from '../api/errors.js';
import type { CmdbClient } from '../api/client.js';
import { isGlobal, type TableDef } from '../catalogue/index.js';
import type { Device } from '../device/device.js';
import { isObject } from '../objects/normalize.js';
import { settleConcurrent } from '../request/bulk.js';
import { READ_CONCURRENCY, readConfiguration } from './read.js';
import { UsageIndex, whereOf, type Key, type ObjectAt, type RefUser, type TableReading } from './references/index.js';

export const USAGE_PATH = 'monitor/system/object/usage';

/** The users of some objects, and how they were found. */
export interface FoundUsers {
  /** Each object's users, in the order asked; null where a table that can name it could not be read. */
  users: (RefUser[] | null)[];
  /** `device`: every object's from the usage query; `tables`: some or all by reading the tables that can name them. */
  source: 'device' | 'tables';
  /** The tables that can name an object asked and could not be read (its users may be incomplete). */
  unread: { vdom: string | null; table: string }[];
}

/** The usage query is not there for this caller (an older release, a profile without it, a proxy). */
function unavailable(error: unknown): boolean {
  return (
    error instanceof MalformedAnswerError ||
    (error instanceof ApiError && [400, 403, 404, 405, 424, 501].includes(error.status))
  );
}

/** One object's direct users from the device's usage query; null when the answer is not the query's. */
async function queryUsers(
  client: CmdbClient,
  table: TableDef,
  at: ObjectAt,
  signal?: AbortSignal,
): Promise<RefUser[] | null> {
  const path = table.aliasOf ?? table.path;
  const slash = path.lastIndexOf('/');
  const query: [string, string][] = [
    ['q_path', path.slice(0, slash)],
    ['q_name', path.slice(slash + 1)],
    ['mkey', String(at.key)],
  ];
  if (at.vdom !== null && !isGlobal(table)) query.push(['vdom', at.vdom]);
  else if (isGlobal(table)) query.push(['scope', 'global']);
  const answer = await client.call({ method: 'GET', path: USAGE_PATH, query, signal });
  const envelope = answer.json?.envelopes[0];
  const results = envelope?.results;
  if (!isObject(results) || !Array.isArray(results.currently_using)) return null;
  return results.currently_using.filter(isObject).flatMap((use): RefUser[] => {
    if (typeof use.path !== 'string' || typeof use.name !== 'string' || typeof use.attribute !== 'string') return [];
    const key = typeof use.mkey === 'string' || typeof use.mkey === 'number' ? (use.mkey as Key) : null;
    const vdom = typeof use.vdom === 'string' && use.vdom ? use.vdom : null;
    return [{ vdom, table: `${use.path}/${use.name}`, key, field: use.attribute }];
  });
}

/** The VDOMs to read the naming tables in: every VDOM when a global object is asked, else those asked. */
function vdomsToRead(objects: readonly { at: ObjectAt; table: TableDef }[]): string[] | undefined {
  if (objects.some((o) => o.at.vdom === null || isGlobal(o.table))) return ['*'];
  const vdoms = [...new Set(objects.map((o) => o.at.vdom as string))];
  return vdoms.length ? vdoms : undefined;
}

/** The users of some objects, by reading every table that can name one of them (`catalogue.referrers`). */
async function readUsers(
  device: Device,
  objects: readonly { at: ObjectAt; table: TableDef }[],
  concurrency: number,
): Promise<{ users: (RefUser[] | null)[]; unread: FoundUsers['unread'] }> {
  const catalogue = await device.catalogue();
  const paths = new Set<string>();
  for (const o of objects)
    for (const referrer of catalogue.referrers(o.table.aliasOf ?? o.table.path)) paths.add(referrer.table);
  const tables = [...paths].flatMap((p) => catalogue.find(p) ?? []);
  const read = await readConfiguration(device, tables, vdomsToRead(objects), { concurrency });
  const readings: TableReading[] = read.tables.map((t) => ({
    vdom: t.vdom,
    table: t.table.aliasOf ?? t.table.path,
    content: t.content,
  }));
  // A table that could not be read (a 404 is a table this device lacks: nothing there names anything).
  const unread = read.failures.filter((f) => !f.missing).map((f) => ({ vdom: null, table: f.table.path }));
  for (const u of unread) readings.push({ vdom: null, table: u.table, content: null });
  const index = new UsageIndex(readings, { find: (path) => catalogue.find(path) });
  return {
    users: objects.map((o) => index.usersOf(o.at.vdom, o.table.aliasOf ?? o.table.path, o.at.key)),
    unread,
  };
}

/**
 * The direct users of some objects (one per object and top-level field naming it): the device's usage
 * query for each, concurrently; where it is not available, or does not answer in its shape, the tables
 * that can name them are read once for all. Other errors (connection, time limit) are thrown.
 */
export async function findUsers(
  device: Device,
  objects: readonly ObjectAt[],
  options: { concurrency?: number; signal?: AbortSignal } = {},
): Promise<FoundUsers> {
  const concurrency = options.concurrency ?? READ_CONCURRENCY;
  const catalogue = await device.catalogue();
  const asked = objects.map((at) => ({ at, table: catalogue.find(at.table) }));
  const users: (RefUser[] | null)[] = objects.map(() => []);
  const toRead: number[] = [];
  const client = await device.client();
  let queryWorks = true;
  const queryOne = async (i: number) => {
    const { at, table } = asked[i];
    if (!table) return;
    if (!queryWorks) return void toRead.push(i);
    try {
      const found = await queryUsers(client, table, at, options.signal);
      // The device names the VDOM it was asked in also for a user in a global table: it has none.
      if (found) users[i] = found.map((u) => ({ ...u, vdom: whereOf(catalogue.find(u.table), u.vdom) }));
      else toRead.push(i);
    } catch (error) {
      if (!unavailable(error)) throw error;
      queryWorks = false;
      toRead.push(i);
    }
  };
  // The first answer tells whether the query is there at all: then the rest go at once.
  if (objects.length) await queryOne(0);
  const rest = objects.map((_, i) => i).slice(1);
  const settled = await settleConcurrent(rest, queryOne, concurrency);
  const failed = settled.find((r) => r.status === 'rejected');
  if (failed) throw (failed as PromiseRejectedResult).reason;
  if (!toRead.length) return { users, source: 'device', unread: [] };
  toRead.sort((a, b) => a - b);
  const known = toRead.map((i) => asked[i] as { at: ObjectAt; table: TableDef });
  const read = await readUsers(device, known, concurrency);
  toRead.forEach((i, n) => {
    users[i] = read.users[n];
  });
  return { users, source: 'tables', unread: read.unread };
}
