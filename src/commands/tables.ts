// `cmdb tables`: the catalogue's tables, the shipped one or a device's; sends nothing but --refresh.
import { areaOf, tableSummaries, type TableSummary } from '../catalogue/index.js';
import { UsageError } from '../errors.js';
import type { Context } from '../run/context.js';
import type { Row } from '../output/index.js';

export interface TablesOptions {
  group?: string;
  area?: string;
  spec?: boolean;
  refresh?: boolean;
  fields?: string;
}

const COLUMNS = ['path', 'kind', 'key', 'keyType', 'operations', 'group', 'spec'];

/**
 * The tables listed: the shipped catalogue; with -d, that device's (its cached schema for another
 * release than 6.4.14, read from the device with --refresh).
 */
async function listed(ctx: Context, refresh: boolean): Promise<TableSummary[]> {
  // A list or pattern of devices (CMDB_DEVICE for other commands) is not one device's catalogue.
  const named = ctx.settings.device;
  const device = named !== undefined && !(await import('../device/select.js')).namesSeveral(named) ? named : undefined;
  if (device === undefined) {
    if (refresh)
      throw new UsageError(
        '--refresh reads the schema of a device',
        "name it with -d, as in 'cmdb tables -d fw --refresh'",
      );
    return tableSummaries();
  }
  const { cachedCatalogue, catalogueFor } = await import('../device/catalogue.js');
  const catalogue = refresh ? await catalogueFor(ctx.device(), { refresh: true }) : cachedCatalogue(ctx.device());
  if (!catalogue)
    throw new UsageError(
      `no schema of device '${device}' is cached yet (its release is not 6.4.14)`,
      `read it from the device with 'cmdb tables -d ${device} --refresh'`,
    );
  return catalogue.summaries();
}

/** `cmdb tables`: the catalogue (every table of the device, or `--spec` SPEC.md's 42), sends nothing. */
export async function run(ctx: Context, _args: object, opts: TablesOptions): Promise<number> {
  const all = await listed(ctx, !!opts.refresh);
  const tables = opts.spec ? all.filter((t) => t.spec) : all;
  if (opts.group && !tables.some((t) => t.group === opts.group)) {
    throw new UsageError(
      `unknown access group '${opts.group}'`,
      `groups: ${[...new Set(tables.map((t) => t.group))].join(', ')}`,
    );
  }
  if (opts.area && !tables.some((t) => areaOf(t.path) === opts.area)) {
    throw new UsageError(
      `unknown area '${opts.area}'`,
      `areas: ${[...new Set(tables.map((t) => areaOf(t.path)))].join(', ')}`,
    );
  }
  const rows: Row[] = tables
    .filter((t) => (!opts.group || t.group === opts.group) && (!opts.area || areaOf(t.path) === opts.area))
    .map((t) => ({
      path: t.path,
      kind: t.singleton ? 'singleton' : 'keyed',
      key: t.key,
      keyType: t.keyType,
      operations: opts.spec ? t.specOperations! : t.operations,
      group: t.group,
      spec: t.spec === true,
    }));
  const fields = opts.fields
    ?.split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  const unknown = fields?.find((f) => !COLUMNS.includes(f));
  if (unknown !== undefined)
    throw new UsageError(`'${unknown}' is not a column of cmdb tables`, `columns: ${COLUMNS.join(', ')}`);
  await ctx.out.print(
    { kind: 'list', rows: fields ? rows.map((r) => Object.fromEntries(fields.map((f) => [f, r[f]]))) : rows },
    { keyField: 'path', ...(fields ? { fields } : {}) },
  );
  return 0;
}
