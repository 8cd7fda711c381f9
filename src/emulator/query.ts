// The read parameters of a CMDB request as the device takes them: filters, paging, format, scope
// and the render options.
import type { TableDef } from '../catalogue/index.js';
import { fail } from './envelope.js';
import { subKeyOf, type Obj } from './schema.js';

export type Operator = '==' | '!=' | '=@' | '!@' | '<=' | '<' | '>=' | '>';
export interface Condition {
  field: string;
  op: Operator;
  value: string;
}
/** Conditions of one `filter` parameter, any of which may hold (comma = OR). */
export type FilterGroup = Condition[];

const TWO_CHAR: readonly Operator[] = ['==', '!=', '=@', '!@', '<=', '>='];
const ONE_CHAR: readonly Operator[] = ['<', '>'];

/**
 * Splits on the commas that separate alternatives; inside a value `\,` is a
 * literal comma and `\\` a backslash (a backslash before anything else stays).
 */
function splitAlternatives(expression: string): string[] {
  const parts = [''];
  // An escape (`\,` or `\\`), a separating comma, or a run of anything else.
  for (const [token, escaped] of expression.matchAll(/\\([,\\])|,|[^,\\]+|\\/g)) {
    if (token === ',') parts.push('');
    else parts[parts.length - 1] += escaped ?? token;
  }
  return parts;
}

/**
 * `field<op>value`: the operator is the first one found after the field
 * name, two-character operators first. A condition without one of the eight
 * operators (`name=web`, `name~web`) is an invalid request (400), as for any
 * parameter the device cannot use.
 */
export function parseCondition(text: string): Condition {
  for (let i = 1; i < text.length; i++) {
    const two = text.slice(i, i + 2) as Operator;
    const op = TWO_CHAR.includes(two)
      ? two
      : ONE_CHAR.includes(text[i] as Operator)
        ? (text[i] as Operator)
        : undefined;
    if (op) return { field: text.slice(0, i), op, value: text.slice(i + op.length) };
  }
  throw fail.invalidRequest(
    `invalid filter '${text}': expected <field><operator><value> with one of == != =@ !@ <= < >= >`,
  );
}

export function parseFilter(expression: string): FilterGroup {
  return splitAlternatives(expression).map(parseCondition);
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });
const NUMBER = /^-?\d+(\.\d+)?$/;

/** Numeric when both sides are numbers, else a natural (digit-aware) text order. */
function compare(value: string, pattern: string): number {
  return NUMBER.test(value) && NUMBER.test(pattern)
    ? Number(value) - Number(pattern)
    : collator.compare(value, pattern);
}

function holds(op: Exclude<Operator, '!=' | '!@'>, value: string, pattern: string): boolean {
  switch (op) {
    case '==':
      return value.toLowerCase() === pattern.toLowerCase();
    case '=@':
      return value.toLowerCase().includes(pattern.toLowerCase());
    case '<':
      return compare(value, pattern) < 0;
    case '<=':
      return compare(value, pattern) <= 0;
    case '>':
      return compare(value, pattern) > 0;
    case '>=':
      return compare(value, pattern) >= 0;
  }
}

/** The texts a filter compares: a sub-table offers the keys of its entries (any of them may match). */
function candidates(table: TableDef, object: Obj, field: string): string[] {
  const value = field === 'q_origin_key' && table.key ? object[table.key] : object[field];
  if (value === undefined || value === null) return [''];
  if (Array.isArray(value)) {
    const items = table.fields[field]?.items ?? {};
    const subKey = subKeyOf(items);
    return value.map((entry: Obj) => String(entry[subKey] ?? ''));
  }
  return [typeof value === 'object' ? JSON.stringify(value) : String(value)];
}

function conditionMatches(table: TableDef, object: Obj, condition: Condition): boolean {
  const values = candidates(table, object, condition.field);
  if (condition.op === '!=') return !values.some((v) => holds('==', v, condition.value));
  if (condition.op === '!@') return !values.some((v) => holds('=@', v, condition.value));
  const op = condition.op;
  return values.some((v) => holds(op, v, condition.value));
}

/** Every group must hold (repeated `filter` = AND); in a group, any condition (comma = OR). */
export function matcher(table: TableDef, groups: FilterGroup[]): ((object: Obj) => boolean) | undefined {
  if (groups.length === 0) return undefined;
  return (object) => groups.every((group) => group.some((condition) => conditionMatches(table, object, condition)));
}

export function flag(params: URLSearchParams, name: string): boolean {
  const value = params.get(name);
  return value !== null && /^(1|true|yes|enable)$/i.test(value);
}

function nonNegativeInteger(params: URLSearchParams, name: string): number | undefined {
  const text = params.get(name);
  if (text === null || text === '') return undefined;
  if (!/^\d+$/.test(text))
    throw fail.invalidRequest(
      `invalid value for '${name}': ${JSON.stringify(text)} (a non-negative integer is expected)`,
    );
  return Number(text);
}

export interface RenderOptions {
  format: Set<string> | null;
  withMeta: boolean;
  withContentsHash: boolean;
  datasource: boolean;
  skip: boolean;
  excludeDefaults: boolean;
}

export function parseRenderOptions(params: URLSearchParams): RenderOptions {
  const format = params.get('format');
  return {
    format: format ? new Set(format.split('|').filter(Boolean)) : null,
    withMeta: flag(params, 'with_meta'),
    withContentsHash: flag(params, 'with_contents_hash'),
    datasource: flag(params, 'datasource'),
    skip: flag(params, 'skip'),
    excludeDefaults: flag(params, 'exclude-default-values'),
  };
}

const SCOPES = ['global', 'vdom', 'both'];

/**
 * `scope=global|vdom` keeps the objects whose `range` says so, for the
 * tables that have a `range` field (certificates); other objects always
 * belong to their VDOM.
 */
function scopeGroup(table: TableDef, params: URLSearchParams): FilterGroup | undefined {
  const scope = params.get('scope');
  if (scope === null) return undefined;
  if (!SCOPES.includes(scope))
    throw fail.invalidRequest(`invalid value for 'scope': ${JSON.stringify(scope)} (global|vdom|both)`);
  return scope !== 'both' && table.fields.range ? [{ field: 'range', op: '==', value: scope }] : undefined;
}

/** `key` + `pattern` select the objects whose property equals the value, like `filter=key==pattern`. */
function keyPatternGroup(params: URLSearchParams): FilterGroup | undefined {
  const key = params.get('key');
  const pattern = params.get('pattern');
  return key && pattern !== null ? [{ field: key, op: '==', value: pattern }] : undefined;
}

export interface ListQuery {
  start: number;
  count: number | undefined;
  match: ((object: Obj) => boolean) | undefined;
  render: RenderOptions;
}

export function parseListQuery(table: TableDef, params: URLSearchParams): ListQuery {
  const groups = params
    .getAll('filter')
    .filter((f) => f !== '')
    .map(parseFilter);
  for (const extra of [keyPatternGroup(params), scopeGroup(table, params)]) if (extra) groups.push(extra);
  return {
    start: nonNegativeInteger(params, 'start') ?? 0,
    count: nonNegativeInteger(params, 'count'),
    match: matcher(table, groups),
    render: parseRenderOptions(params),
  };
}
