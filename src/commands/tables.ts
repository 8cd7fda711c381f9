import { areaOf, tableSummaries } from '../catalogue/index.js';
import { UsageError } from '../errors.js';
import type { Context } from '../cli/context.js';
import type { Row } from '../output/index.js';

export interface TablesOptions {
  group?: string;
  area?: string;
  spec?: boolean;
}

/** `cmdb tables`: the catalogue (every table of the device, or `--spec` SPEC.md's 42), sends nothing. */
export async function run(ctx: Context, _args: object, opts: TablesOptions): Promise<number> {
  const tables = opts.spec ? tableSummaries().filter((t) => t.spec) : tableSummaries();
  if (opts.group && !tables.some((t) => t.group === opts.group)) {
    throw new UsageError(`unknown access group '${opts.group}'`, `groups: ${[...new Set(tables.map((t) => t.group))].join(', ')}`);
  }
  if (opts.area && !tables.some((t) => areaOf(t.path) === opts.area)) {
    throw new UsageError(`unknown area '${opts.area}'`, `areas: ${[...new Set(tables.map((t) => areaOf(t.path)))].join(', ')}`);
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
  await ctx.print({ kind: 'list', rows }, { keyField: 'path' });
  return 0;
}
