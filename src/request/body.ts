// The body of a write from --data, --set or a file (JSON, YAML, NDJSON streamed), checked against
// the table before anything is sent.
import { findTable, nearestNames, type FieldSchema, type TableDef } from '../catalogue/index.js';
import { asFieldType, isMetaField, validateObject } from '../catalogue/validate.js';
import { UsageError } from '../errors.js';

import { isConf, readConf } from '../syntax/index.js';
import { boundedJson, elementLine, parseDocument, readSource, type Input as Stdin } from './input.js';

export interface BodyOptions {
  file?: string;
  data?: string;
  set?: string[];
}

/** The positional body argument is the same as --data; both at once is ambiguous. */
export function withInlineBody(opts: BodyOptions, inline: string | undefined): BodyOptions {
  if (inline === undefined) return opts;
  if (opts.data !== undefined) throw new UsageError('give the body either as an argument or with --data, not both');
  return { ...opts, data: inline };
}

type Obj = Record<string, unknown>;

function isObject(value: unknown): value is Obj {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}

/** Types a --set value by the field's schema: `--set seq-num=3` sends a number. */
export function typeSetValue(table: TableDef, field: string, raw: string): unknown {
  const schema: FieldSchema | undefined = table.fields[field];
  if (!table.known) return raw;
  if (!schema) throw unknownField(table, field);
  if (schema.type === 'integer') {
    if (!/^-?\d+$/.test(raw.trim())) throw new UsageError(`--set ${field}=${raw}: '${field}' is an integer field`);
    return Number(raw);
  }
  if (schema.type === 'string') return schema.multiple ? multipleValue(field, schema, raw) : raw;
  const text = raw.trim();
  if (text.startsWith('[') || text.startsWith('{')) {
    try {
      const parsed = JSON.parse(text) as unknown;
      boundedJson(parsed, text, `--set ${field}`);
      return Array.isArray(parsed) ? parsed : [parsed];
    } catch (err) {
      if (err instanceof UsageError) throw err;
      throw new UsageError(`--set ${field}: invalid JSON: ${(err as Error).message}`);
    }
  }
  // A comma list fills the entries' naming field: `--set srcintf=port1,port2`.
  const itemFields = Object.keys(schema.items ?? {});
  const naming = itemFields.includes('name') ? 'name' : itemFields.length === 1 ? itemFields[0] : undefined;
  if (!naming) {
    throw new UsageError(
      `--set ${field}: '${field}' is a list of entries with fields ${itemFields.join(', ')}`,
      `give it as JSON, for example --set '${field}=[{"${itemFields[0] ?? 'id'}":1}]'`,
    );
  }
  const itemSchema = schema.items![naming];
  return text === ''
    ? []
    : text
        .split(',')
        .map((v) => ({ [naming]: itemSchema.type === 'integer' && /^-?\d+$/.test(v.trim()) ? Number(v) : v.trim() }));
}

/**
 * A multi-value option (`multiple` in the catalogue): `a,b` or `'a b'`, each value from the field's
 * options, sent as the device takes it, one space-separated string.
 */
function multipleValue(field: string, schema: FieldSchema, raw: string): string {
  const values = raw.split(/[\s,]+/).filter(Boolean);
  const wrong = schema.enum ? values.find((value) => !schema.enum!.includes(value)) : undefined;
  if (wrong !== undefined) {
    throw new UsageError(
      `--set ${field}=${raw}: '${wrong}' is not one of ${schema.enum!.join(', ')}`,
      `'${field}' takes several of them, for example --set ${field}=${schema.enum!.slice(0, 2).join(',')}`,
    );
  }
  return values.join(' ');
}

/**
 * Fields of a file or --data in the table's types: a multi-value option given as a list (`[monday,
 * tuesday]`) is the device's one string, and a number on a string field or a numeric string on an
 * integer one its field's type (asFieldType).
 */
function joinMultiple(table: TableDef, body: Obj): Obj {
  if (!table.known) return body;
  const out = { ...body };
  for (const [name, value] of Object.entries(body)) {
    if (table.fields[name]?.multiple && Array.isArray(value) && value.every((v) => typeof v === 'string'))
      out[name] = value.join(' ');
    else out[name] = asFieldType(table.fields[name], value);
  }
  return out;
}

export function unknownField(table: TableDef, field: string): UsageError {
  const names = Object.keys(table.fields);
  const [near] = nearestNames(field, names);
  return new UsageError(
    `'${field}' is not a field of ${table.path}${near ? ` (did you mean '${near}'?)` : ''}`,
    `its fields are: ${names.join(', ')}`,
  );
}

function applySets(table: TableDef, target: Obj, sets: string[]): Obj {
  const out = { ...target };
  for (const assignment of sets) {
    const eq = assignment.indexOf('=');
    if (eq <= 0) throw new UsageError(`invalid --set '${assignment}'`, 'use --set field=value');
    const field = assignment.slice(0, eq).trim();
    out[field] = typeSetValue(table, field, assignment.slice(eq + 1));
  }
  return out;
}

function stripMeta(obj: Obj): Obj {
  return Object.fromEntries(Object.entries(obj).filter(([k]) => !isMetaField(k)));
}

/** Rejects bodies that do not fit the table's schema, naming every problem; nothing is sent. */
export function checkBody(table: TableDef, body: Obj, label = 'the body'): void {
  if (!table.known) return;
  const problems = validateObject(table, body);
  if (!problems.length) return;
  const unknown = problems.find((p) => p.kind === 'unknown-field' && !p.field.includes('.'));
  if (unknown && problems.length === 1) {
    const plain = unknownField(table, unknown.field);
    // An element of a bulk file is named (and its line), so the user finds the one to fix.
    throw label === 'the body' ? plain : new UsageError(`${label}: ${plain.message}`, plain.hint);
  }
  throw new UsageError(
    `${label} does not fit ${table.path}: ${problems.map((p) => p.message).join('; ')}`,
    `see each field's type and limits with 'cmdb schema ${table.path}' (sends a read)`,
  );
}

/** The non-blank lines of a file, read a chunk at a time. */
async function* fileLines(path: string): AsyncGenerator<{ line: string; number: number }> {
  const { createReadStream } = await import('node:fs');
  const { createInterface } = await import('node:readline');
  const lines = createInterface({ input: createReadStream(path, { encoding: 'utf8' }), crlfDelay: Infinity });
  let number = 0;
  try {
    for await (const line of lines) if ((number++, line.trim())) yield { line, number };
  } finally {
    lines.close();
  }
}

function nothingToSend(): UsageError {
  return new UsageError(
    'nothing to send: the body is empty',
    "give fields with --set field=value, --data '{...}' or -f file",
  );
}

/** --data as an object, or the error it gives. */
function dataObject(opts: BodyOptions): Obj | UsageError {
  if (opts.data === undefined) return {};
  let data: unknown;
  try {
    data = JSON.parse(opts.data);
    boundedJson(data, opts.data, '--data');
  } catch (err) {
    if (err instanceof UsageError) return err;
    return new UsageError(`--data is not valid JSON: ${(err as Error).message}`);
  }
  return isObject(data) ? data : new UsageError('--data must be a JSON object');
}

/**
 * An NDJSON file given with -f (two or more lines, each a JSON object), read as a stream: the file is
 * read once to check every element, as readBodies does, and again while the bodies are sent, so that
 * memory stays flat however many objects it holds. Null for anything else (stdin, JSON, YAML, a line
 * that does not parse): readBodies handles it, with its messages.
 */
export async function streamNdjsonBodies(
  table: TableDef,
  opts: BodyOptions,
): Promise<{ count: number; bodies: () => AsyncIterable<Obj> } | null> {
  if (opts.file === undefined || opts.file === '-') return null;
  const path = opts.file;
  const data = dataObject(opts);
  const build = (line: string): Obj =>
    stripMeta(
      applySets(table, joinMultiple(table, { ...(JSON.parse(line) as Obj), ...(data as Obj) }), opts.set ?? []),
    );
  let count = 0;
  // What readBodies would throw, in its order: --data, --set, an empty body, the first element that does not fit.
  let setError: unknown = null;
  let empty = false;
  let checkError: unknown = null;
  try {
    for await (const { line, number } of fileLines(path)) {
      if (!line.trim().startsWith('{')) return null;
      const element = JSON.parse(line) as unknown;
      if (!isObject(element)) return null;
      // Too deep: thrown, caught below, and readBodies refuses the file, naming it.
      boundedJson(element, line, path);
      count++;
      if (data instanceof UsageError || setError) continue;
      let body: Obj;
      try {
        body = build(line);
      } catch (err) {
        setError = err;
        continue;
      }
      if (Object.keys(body).length === 0) empty = true;
      else if (!checkError) {
        try {
          checkBody(table, body, `element ${count} of '${path}' (line ${number})`);
        } catch (err) {
          checkError = err;
        }
      }
    }
  } catch {
    return null; // unreadable, or not NDJSON: readBodies says why
  }
  if (count < 2) return null;
  if (data instanceof UsageError) throw data;
  if (setError) throw setError;
  if (empty) throw nothingToSend();
  if (checkError) throw checkError;
  return {
    count,
    bodies: async function* () {
      for await (const { line } of fileLines(path)) yield build(line);
    },
  };
}

/**
 * Builds request bodies from -f (JSON, NDJSON or YAML; `-` for stdin), then --data, then each --set,
 * merged field by field in that order. An array (or NDJSON) file gives several bodies (bulk create).
 */
export async function readBodies(
  stdin: Stdin,
  table: TableDef,
  opts: BodyOptions,
  allowMany: boolean,
  conf: { strict?: boolean } = {},
): Promise<{ bodies: Obj[]; many: boolean; note?: string }> {
  let bodies: Obj[] = [{}];
  let many = false;
  let note: string | undefined;
  let file: { text: string; source: string } | undefined;
  if (opts.file !== undefined) {
    file = await readSource(stdin, opts.file);
    const { text, source } = file;
    const doc = isConf(text) ? undefined : await parseDocument(text, source);
    if (doc === undefined) {
      const read = confBodies(text, opts.file === '-' ? 'standard input' : opts.file, table, !!conf.strict);
      if (read.bodies.length > 1 && !allowMany)
        throw new UsageError(`${source} holds several objects; this command takes one`);
      ({ bodies, note } = read);
      many = bodies.length > 1;
      file = undefined;
    } else if (Array.isArray(doc)) {
      if (!allowMany) throw new UsageError(`${source} holds a list; this command takes one object`);
      if (!doc.length) throw new UsageError(`${source} holds an empty list`);
      if (!doc.every(isObject)) throw new UsageError(`every element of ${source} must be an object`);
      bodies = doc.map((d) => ({ ...d }));
      many = true;
    } else if (isObject(doc)) bodies = [doc];
    else throw new UsageError(`${source} must hold an object${allowMany ? ' or a list of objects' : ''}`);
  }
  if (opts.data !== undefined) {
    const data = dataObject(opts);
    if (data instanceof UsageError) throw data;
    bodies = bodies.map((b) => ({ ...b, ...data }));
  }
  bodies = bodies.map((b) => stripMeta(applySets(table, joinMultiple(table, b), opts.set ?? [])));
  if (bodies.some((b) => Object.keys(b).length === 0)) {
    throw nothingToSend();
  }
  for (const [i, b] of bodies.entries()) {
    try {
      checkBody(table, b, 'the body');
    } catch (err) {
      if (!many || !file || !(err instanceof UsageError)) throw err;
      const line = await elementLine(file.text, i);
      const label = `element ${i + 1} of ${file.source}${line === null ? '' : ` (line ${line})`}`;
      // Checked again under its name: the message says which element, and where it starts.
      checkBody(table, b, label);
    }
  }
  return { bodies, many, ...(note ? { note } : {}) };
}

/**
 * The objects of a table's blocks in a file in the device's syntax (CLI.md "The device's own syntax"):
 * blocks of other tables are left out (said in `note`); verbs other than `set` and `unset` are refused,
 * naming the line (apply -f carries them out). Each object is checked against the table at its line.
 */
function confBodies(text: string, source: string, table: TableDef, strict: boolean): { bodies: Obj[]; note?: string } {
  const same = (t: TableDef) => (t.aliasOf ?? t.path) === (table.aliasOf ?? table.path);
  const doc = readConf(text, source, {
    lookup: (path) => (path === table.path || path === table.aliasOf ? table : findTable(path)),
    strict,
  });
  const mine = doc.tables.filter((t) => same(t.table));
  const others = [...new Set(doc.tables.filter((t) => !same(t.table)).map((t) => t.table.path))];
  const unknown = doc.unknown.map((u) => u.path);
  if (!mine.length)
    throw new UsageError(
      `${source} holds no config block of ${table.path}`,
      others.length ? `it holds ${others.join(', ')}: 'cmdb apply -f ${source}' applies every table` : null,
    );
  if (new Set(mine.map((t) => t.vdom)).size > 1)
    throw new UsageError(
      `${source} holds objects of ${table.path} in several VDOMs`,
      `'cmdb apply -f ${source}' puts each in its VDOM`,
    );
  const bodies: Obj[] = [];
  for (const t of mine) {
    const step = t.steps[0];
    if (step)
      throw new UsageError(
        `${source}:${step.line}: ${step.verb} in a file given to create, which only creates objects`,
        `'cmdb apply -f ${source}' carries out ${step.verb}`,
      );
    for (const object of t.objects) {
      const list = Object.keys(object.append)[0] ?? Object.keys(object.unselect)[0];
      const verb = list !== undefined && list in object.append ? 'append' : 'unselect';
      if (list !== undefined)
        throw new UsageError(
          `${source}:${object.lines[list] ?? object.line}: ${verb} ${list} in a file given to create`,
          `give the whole list with set ${list}, or 'cmdb apply -f ${source}'`,
        );
      const [problem] = table.known ? validateObject(table, object.fields) : [];
      checkBody(table, object.fields, `${source}:${object.lines[problem?.field.split('.')[0] ?? ''] ?? object.line}`);
      bodies.push(object.fields);
    }
  }
  const left = [...others, ...unknown];
  return left.length
    ? { bodies, note: `left out of ${source}, blocks of other tables: ${left.join(', ')}` }
    : { bodies };
}

/**
 * The body of a request on any path (`cmdb api`): -f (JSON or YAML; `-` for stdin) and --data (JSON
 * or YAML), either one as it is, or both merged field by field (-f, then --data) when both are
 * objects. No table schema applies; undefined when neither is given.
 */
export async function readRawBody(stdin: Stdin, opts: { file?: string; data?: string }): Promise<unknown> {
  const parts: unknown[] = [];
  if (opts.file !== undefined) {
    const { text, source } = await readSource(stdin, opts.file);
    parts.push(await parseDocument(text, source));
  }
  if (opts.data !== undefined) parts.push(await parseDocument(opts.data, '--data'));
  if (parts.length < 2) return parts[0];
  if (!parts.every(isObject))
    throw new UsageError(
      '-f and --data together must each hold an object (they are merged field by field)',
      'give the whole body with one of them',
    );
  return { ...(parts[0] as Obj), ...(parts[1] as Obj) };
}
