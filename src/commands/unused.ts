// `cmdb unused`: the objects nothing names (CLI.md "References between tables"), an object named only
// by unused objects counting as unused; factory objects never. Reads the tables asked and every table
// that can name them (`catalogue.referrers`), concurrently; `--delete` deletes them in reference order.
import type { TableDef } from '../catalogue/index.js';
import { isFactoryObject } from '../catalogue/factory.js';
import { UsageError } from '../errors.js';
import type { Row } from '../output/index.js';
import { findUnused, objectName, type ObjectAt, type TableReading } from '../plan/references/index.js';
import { readConfiguration } from '../plan/read.js';
import { vdomQuery } from '../request/table.js';
import type { Context } from '../run/context.js';
import { mostSevere } from '../severity.js';
import { describeError } from '../run/hints.js';
import {
  confirmWrite,
  lineTable,
  printWrite,
  rowsView,
  requestWrite,
  runWrites,
  type WriteOptions,
} from './common/request.js';

/** What CLI.md lists: addresses and groups (IPv4, IPv6), services and groups, schedules, pools, VIPs, profiles. */
export const DEFAULT_UNUSED_TABLES = [
  'firewall/address',
  'firewall/addrgrp',
  'firewall/address6',
  'firewall/addrgrp6',
  'firewall.service/custom',
  'firewall.service/group',
  'firewall.schedule/onetime',
  'firewall.schedule/recurring',
  'firewall.schedule/group',
  'firewall/ippool',
  'firewall/vip',
  'firewall/vipgrp',
  'antivirus/profile',
  'webfilter/profile',
  'dnsfilter/profile',
  'application/list',
  'ips/sensor',
] as const;

const COLUMNS = ['vdom', 'table', 'key'] as const;

export interface UnusedOptions extends WriteOptions {
  delete?: boolean;
  wide?: boolean;
  columns?: string;
  headers?: boolean;
}

/** `cmdb unused [<table>...] [--delete]`. */
export async function run(ctx: Context, args: { tables?: string[] }, opts: UnusedOptions): Promise<number> {
  if (opts.dryRun && !opts.delete) throw new UsageError('--dry-run goes with --delete: without it nothing is sent');
  if (!opts.delete) return unused(ctx, args, opts);
  return runWrites(ctx, opts, () => unused(ctx, args, opts));
}

async function unused(ctx: Context, { tables: inputs = [] }: { tables?: string[] }, opts: UnusedOptions) {
  const view = rowsView(COLUMNS, 'table', opts);
  const catalogue = await ctx.device().catalogue();
  const asked: TableDef[] = inputs.length
    ? await Promise.all(inputs.map((input) => lineTable(ctx, input)))
    : DEFAULT_UNUSED_TABLES.flatMap((path) => catalogue.find(path) ?? []);
  for (const table of asked) {
    if (table.singleton || !table.key)
      throw new UsageError(`${table.path} is a singleton table: it has no objects to be unused`);
    if (inputs.length && !catalogue.referrers(table.aliasOf ?? table.path).length)
      throw new UsageError(
        `nothing can name an object of ${table.path}: every one would be unused`,
        'name tables that other tables can name (addresses, services, schedules, profiles, interfaces...)',
      );
  }
  const paths = new Set(asked.map((t) => t.aliasOf ?? t.path));
  for (const table of asked)
    for (const referrer of catalogue.referrers(table.aliasOf ?? table.path)) paths.add(referrer.table);
  const toRead = [...paths].flatMap((p) => catalogue.find(p) ?? []);
  const vdoms = ctx.device().vdoms;
  const read = await readConfiguration(ctx.device(), toRead, vdoms);
  const readings: TableReading[] = read.tables.map((t) => ({
    vdom: t.vdom,
    table: t.table.aliasOf ?? t.table.path,
    content: t.content,
  }));
  for (const failure of read.failures) {
    if (failure.missing) continue;
    // An asked table that cannot be read is an error; a naming one is said, and its names not known.
    if (asked.includes(failure.table)) throw failure.error;
    readings.push({ vdom: null, table: failure.table.aliasOf ?? failure.table.path, content: null });
    ctx.out.notice(`${failure.table.path} could not be read: an object only it names may be listed as unused`);
  }
  const found = findUnused(
    readings,
    asked.map((t) => t.aliasOf ?? t.path),
    {
      find: (p) => catalogue.find(p),
      isFactory: (table, key) => isFactoryObject(table, key),
    },
  );
  if (!opts.delete) {
    const rows: Row[] = found.unused.map((o) => ({ vdom: o.vdom, table: o.table, key: o.key }));
    await ctx.out.print({ kind: 'list', rows }, view);
    return 0;
  }
  return deleteUnused(ctx, opts, found.deleteOrder, !!vdoms && (vdoms.length > 1 || vdoms.includes('*')));
}

/** Deletes in the order given (an object before those it names), after the question; one result each. */
async function deleteUnused(ctx: Context, opts: UnusedOptions, order: ObjectAt[], showVdom: boolean): Promise<number> {
  if (!order.length) {
    ctx.out.notice('nothing is unused: nothing to delete');
    return 0;
  }
  const catalogue = await ctx.device().catalogue();
  await confirmWrite(
    ctx,
    opts,
    `delete ${order.length} unused object${order.length === 1 ? '' : 's'}, in this order?`,
    order.map((o) => objectName(o.table, o.key, showVdom ? o.vdom : null)),
  );
  const exits: number[] = [0];
  for (const o of order) {
    const table = catalogue.find(o.table);
    if (!table) continue;
    const query = vdomQuery(o.vdom === null ? undefined : [o.vdom]);
    try {
      const result = await requestWrite(
        ctx,
        opts,
        table,
        { method: 'DELETE', mkey: o.key, query },
        { mkey: o.key, gone: true },
      );
      exits.push(await printWrite(ctx, opts, result, 'deleted', table, o.key));
    } catch (err) {
      const report = describeError(err);
      ctx.out.report(report);
      exits.push(report.exit);
    }
  }
  return mostSevere(exits);
}
