// A read's query from its options: --filter, --fields, --start and --count, checked against the table.
import type { TableDef } from '../catalogue/index.js';
import type { QueryParams } from '../api/url.js';
import { UsageError } from '../errors.js';
import { isMetaField } from '../catalogue/validate.js';
import { unknownField } from './body.js';
import { FILTER_OPERATORS, FILTER_TERM, filterTerms } from './filter.js';

export { FILTER_OPERATORS };

function checkField(table: TableDef, name: string): void {
  if (table.known && !(name in table.fields) && !isMetaField(name)) throw unknownField(table, name);
}

/** Checks one --filter expression (commas inside it are OR) and returns it as sent. */
export function parseFilter(table: TableDef, expr: string): string {
  const terms = filterTerms(expr);
  for (const term of terms) {
    const m = FILTER_TERM.exec(term.trim());
    if (!m) {
      throw new UsageError(
        `invalid --filter '${expr}': '${term}' has no known operator`,
        `write field<op>value with one of ${FILTER_OPERATORS.join(' ')}, for example --filter 'name=@web'; ` +
          `a comma inside a value is written \\,`,
      );
    }
    checkField(table, m[1]);
  }
  return terms.join(',');
}

/** `--fields a,b` → `format=a|b`; with `option` `--columns`, the columns a table shows (checked the same way). */
export function parseFields(table: TableDef, raw: string | undefined, option = '--fields'): string[] | undefined {
  if (raw === undefined) return undefined;
  const fields = raw
    .split(',')
    .map((f) => f.trim())
    .filter(Boolean);
  if (!fields.length) throw new UsageError(`${option} needs at least one field name`);
  fields.forEach((f) => {
    checkField(table, f);
  });
  return fields;
}

export function parseCount(raw: string | undefined, option: string, min: number): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new UsageError(`invalid ${option} '${raw}'`, `give a whole number of at least ${min}`);
  if (!Number.isSafeInteger(Number(raw)))
    throw new UsageError(
      `invalid ${option} '${raw}': too large`,
      `give a whole number of at most ${Number.MAX_SAFE_INTEGER}`,
    );
  return Number(raw);
}

export interface ReadOptions {
  datasource?: boolean;
  withMeta?: boolean;
  withContentsHash?: boolean;
  skip?: boolean;
  fields?: string;
  filter?: string[];
  key?: string;
  pattern?: string;
  scope?: string;
  excludeDefaultValues?: boolean;
  start?: string;
  count?: string;
}

const SCOPES = ['global', 'vdom', 'both'];

/** Turns list/get options into query parameters, rejecting bad ones before anything is sent. */
export function readQuery(table: TableDef, o: ReadOptions): QueryParams {
  if ((o.key === undefined) !== (o.pattern === undefined))
    throw new UsageError(
      '--key and --pattern go together',
      'filter on one property with --key <name> --pattern <value>',
    );
  if (o.key !== undefined) checkField(table, o.key);
  if (o.scope !== undefined && !SCOPES.includes(o.scope))
    throw new UsageError(`invalid --scope '${o.scope}'`, `use one of ${SCOPES.join(', ')}`);
  return {
    datasource: o.datasource,
    with_meta: o.withMeta,
    with_contents_hash: o.withContentsHash,
    skip: o.skip,
    format: parseFields(table, o.fields),
    filter: o.filter?.length ? o.filter.map((f) => parseFilter(table, f)) : undefined,
    key: o.key,
    pattern: o.pattern,
    scope: o.scope,
    'exclude-default-values': o.excludeDefaultValues,
    start: parseCount(o.start, '--start', 0),
    count: parseCount(o.count, '--count', 1),
  };
}
