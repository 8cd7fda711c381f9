// A body checked against the table's field schema before it is sent (the usage errors of a bad
// field, type, enum, range or format), and values typed as the schema says.
import { nearestNames, type FieldSchema, type TableDef } from './index.js';
import { isLooseIpv4, isLooseIpv4List } from './ipv4.js';

/** The values of a multi-value option field (`multiple`): one string on the wire, separated by spaces. */
export function multipleValues(value: string): string[] {
  return value.split(/\s+/).filter(Boolean);
}

export type ProblemKind = 'unknown-field' | 'type' | 'enum' | 'range' | 'max-length' | 'format' | 'not-object';

/** One reason a body does not fit a table's field schema; `field` is a dotted path (`rule.2.action`). */
export interface Problem {
  kind: ProblemKind;
  field: string;
  message: string;
}

/** Meta fields the device adds to objects it returns (`q_origin_key`...): never part of a request body. */
export function isMetaField(name: string): boolean {
  return name.startsWith('q_');
}

/** A value as it may be sent back: `q_*` fields dropped at every depth (list entries keep their own). */
export function withoutMeta<T>(value: T): T {
  if (Array.isArray(value)) return value.map(withoutMeta) as T;
  if (!value || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([k]) => !isMetaField(k))
      .map(([k, v]) => [k, withoutMeta(v)]),
  ) as T;
}

/**
 * A value in its field's type: an integer written as a numeric string (`"seq-num": "2"`) is the number,
 * a number on a string field (YAML reads `comments: 12345` as one) the string.
 */
export function asFieldType(schema: FieldSchema | undefined, value: unknown): unknown {
  if (schema?.type === 'integer' && typeof value === 'string' && /^-?\d+$/.test(value.trim())) return Number(value);
  if (schema?.type === 'string' && typeof value === 'number' && Number.isFinite(value)) return String(value);
  return value;
}

function checkValue(path: string, value: unknown, schema: FieldSchema, problems: Problem[]): void {
  if (value === null) return;
  if (schema.type === 'integer') {
    if (typeof value !== 'number' || !Number.isInteger(value)) {
      problems.push({
        kind: 'type',
        field: path,
        message: `'${path}' must be an integer, not ${JSON.stringify(value)}`,
      });
      return;
    }
    const { minimum, maximum } = schema;
    if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
      problems.push({
        kind: 'range',
        field: path,
        message: `'${path}' must be between ${minimum ?? '-∞'} and ${maximum ?? '∞'}, not ${value}`,
      });
    }
    return;
  }
  if (schema.type === 'string') {
    if (typeof value !== 'string') {
      problems.push({ kind: 'type', field: path, message: `'${path}' must be a string, not ${JSON.stringify(value)}` });
      return;
    }
    const values = schema.multiple ? multipleValues(value) : [value];
    const wrong = schema.enum ? values.find((v) => !schema.enum!.includes(v)) : undefined;
    if (wrong !== undefined) {
      const several = schema.multiple ? ' (several, separated by spaces)' : '';
      problems.push({
        kind: 'enum',
        field: path,
        message: `'${path}' must be one of ${schema.enum!.join(', ')}${several}, not ${JSON.stringify(wrong)}`,
      });
    }
    if (schema.format === 'ipv4' && !(schema.multiple ? isLooseIpv4List(value) : isLooseIpv4(value))) {
      const shape = schema.multiple
        ? 'IPv4 addresses separated by spaces'
        : "an IPv4 address, optionally with a mask or '/prefix' (10.0.0.0 255.255.255.0, 10.0.0.0/24), or a range a-b";
      problems.push({
        kind: 'format',
        field: path,
        message: `'${path}' must be ${shape}, not ${JSON.stringify(value)}`,
      });
    }
    if (schema.maxLength !== undefined && value.length > schema.maxLength) {
      problems.push({
        kind: 'max-length',
        field: path,
        message: `'${path}' is ${value.length} characters long; the maximum is ${schema.maxLength}`,
      });
    }
    return;
  }
  if (!Array.isArray(value)) {
    problems.push({
      kind: 'type',
      field: path,
      message: `'${path}' must be a list of entries, not ${JSON.stringify(value)}`,
    });
    return;
  }
  value.forEach((entry, i) => {
    checkObject(`${path}.${i}`, entry, schema.items ?? {}, problems);
  });
}

function checkObject(path: string, value: unknown, fields: Record<string, FieldSchema>, problems: Problem[]): void {
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    problems.push({ kind: 'not-object', field: path, message: `${path ? `'${path}'` : 'the body'} must be an object` });
    return;
  }
  for (const [name, v] of Object.entries(value)) {
    if (isMetaField(name)) continue;
    const field = path ? `${path}.${name}` : name;
    const schema = fields[name];
    if (!schema) {
      const [near] = nearestNames(name, Object.keys(fields));
      problems.push({
        kind: 'unknown-field',
        field,
        message: `'${field}' is not a field of this table${near ? ` (did you mean '${near}'?)` : ''}`,
      });
    } else checkValue(field, v, schema, problems);
  }
}

/** Checks an object body against a table's field schema (type, enum, range, max length, unknown fields). */
export function validateObject(table: TableDef, body: unknown): Problem[] {
  const problems: Problem[] = [];
  checkObject('', body, table.fields, problems);
  return problems;
}
