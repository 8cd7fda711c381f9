// Request bodies checked as the device's CLI layer checks them: each field's type, options, range,
// length and address format, values normalised as the device stores them.
import { isIPv6 } from 'node:net';
import type { FieldSchema } from '../catalogue/index.js';
import { fail } from './envelope.js';
import { holdsSubnet, parseIpv4 } from './ipv4.js';
import { parseLenientJson } from './lenient-json.js';
import type { Fields, Obj } from './schema.js';

const INTEGER_TEXT = /^-?\d+$/;
const MAC = /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/i;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

function isIpv6Field(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  return rest.length === 0 && isIPv6(address) && (prefix === undefined || /^\d{1,3}$/.test(prefix));
}

/** What the device's refusal names: the field and the value it could not parse. */
function subject(name: string, value: unknown): string {
  return `${name} ${typeof value === 'string' ? value : show(value)}`;
}

/**
 * A value in the field's format, as the device stores it: a subnet in the mask form, a MAC address
 * lowercase with colons. `table` (the table's path) tells the IPv4 fields that hold a subnet.
 */
function checkFormat(name: string, field: FieldSchema, text: string, table: string): string {
  if (field.format === 'ipv4') {
    const stored = parseIpv4(text, holdsSubnet(table, name));
    if (stored === undefined)
      throw fail.invalidIp(`invalid IP address for '${name}': ${show(text)}`, subject(name, text));
    return stored;
  }
  if (field.format === 'ipv6' && !isIpv6Field(text))
    throw fail.invalidIp(`invalid IPv6 address for '${name}': ${show(text)}`, subject(name, text));
  if (field.format === 'mac-address') {
    if (!MAC.test(text))
      throw fail.invalidValue(`invalid MAC address for '${name}': ${show(text)}`, subject(name, text));
    return text.toLowerCase().replace(/-/g, ':');
  }
  // The empty default a create leaves is sent back unchanged by clients that read and write objects.
  if (field.format === 'uuid' && text !== '' && !UUID.test(text))
    throw fail.invalidValue(`invalid UUID for '${name}': ${show(text)}`, subject(name, text));
  return text;
}

/** One value of an option or text field: from the enum, within the length, in the address format. */
function checkText(name: string, field: FieldSchema, text: string, table: string): string {
  if (field.enum && !field.enum.includes(text)) {
    throw fail.invalidValue(
      `value parse error before '${text}': '${name}' takes ${field.enum.join('|')}`,
      subject(name, text),
    );
  }
  return field.format === 'password' ? text : checkFormat(name, field, text, table);
}

/**
 * A multi-value option: one string of space-separated values (a JSON list of
 * them is taken too), each checked; stored once each, in the device's own
 * order (the enum's) where the field has one.
 */
function checkMultiple(name: string, field: FieldSchema, value: unknown, table: string): string {
  const values = Array.isArray(value) ? value.map(String) : String(value).split(/\s+/);
  const checked = [...new Set(values.filter((v) => v !== '').map((v) => checkText(name, field, v, table)))];
  if (field.enum) checked.sort((a, b) => field.enum!.indexOf(a) - field.enum!.indexOf(b));
  return checked.join(' ');
}

function checkString(name: string, field: FieldSchema, value: unknown, table: string): string {
  if (field.multiple && Array.isArray(value) && value.every((v) => typeof v === 'string'))
    return checkLength(name, field, checkMultiple(name, field, value, table));
  // The device turns JSON numbers into CLI text, so a number is fine for a string field.
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
    throw fail.invalidValue(`value parse error: '${name}' takes a string, not ${show(value)}`, subject(name, value));
  }
  const text = String(value);
  return checkLength(
    name,
    field,
    field.multiple ? checkMultiple(name, field, text, table) : checkText(name, field, text, table),
  );
}

function checkLength(name: string, field: FieldSchema, text: string): string {
  if (field.maxLength !== undefined && Buffer.byteLength(text) > field.maxLength) {
    throw fail.tooLong(
      `value too long for '${name}': ${Buffer.byteLength(text)} bytes (maximum ${field.maxLength})`,
      subject(name, text),
    );
  }
  return text;
}

function checkInteger(name: string, field: FieldSchema, value: unknown): number {
  const number =
    typeof value === 'number'
      ? value
      : typeof value === 'string' && INTEGER_TEXT.test(value.trim())
        ? Number(value)
        : NaN;
  if (!Number.isInteger(number))
    throw fail.invalidValue(
      `value parse error before '${String(value)}': '${name}' is an integer`,
      subject(name, value),
    );
  if (
    (field.minimum !== undefined && number < field.minimum) ||
    (field.maximum !== undefined && number > field.maximum)
  ) {
    throw fail.invalidValue(
      `value ${number} for '${name}' is out of range (${field.minimum ?? '-'}-${field.maximum ?? '-'})`,
      subject(name, number),
    );
  }
  return number;
}

function checkArray(name: string, field: FieldSchema, value: unknown, table: string): Obj[] {
  if (!Array.isArray(value))
    throw fail.invalidValue(
      `value parse error: '${name}' takes a list of entries, not ${show(value)}`,
      subject(name, value),
    );
  return value.map((entry) => validateObject(field.items ?? {}, entry, `${name}.`, table));
}

function checkField(name: string, field: FieldSchema, value: unknown, table: string): unknown {
  if (field.type === 'array') return checkArray(name, field, value, table);
  if (field.type === 'integer') return checkInteger(name, field, value);
  return checkString(name, field, value, table);
}

/** Response annotations a client may send back unchanged after a read. */
function isAnnotation(name: string, fields: Fields): boolean {
  return name.startsWith('q_') || (name === 'datasource' && !fields.datasource);
}

/**
 * Checks a JSON object against a field schema and returns it normalised
 * (numeric strings as integers, MAC addresses lowercase, IPv4 subnets in the
 * mask form). `prefix` names the sub-table in error texts; `table` is the
 * table's path.
 */
export function validateObject(fields: Fields, input: unknown, prefix = '', table = ''): Obj {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    // A body that is no object is the API layer's refusal (424); a bad entry the CLI layer's (500).
    if (!prefix) throw fail.notJson('invalid value for the request body: a JSON object is expected');
    throw fail.invalidValue(
      `invalid value in '${prefix.slice(0, -1)}': a JSON object is expected`,
      prefix.slice(0, -1),
    );
  }
  const out: Obj = {};
  for (const [name, value] of Object.entries(input)) {
    if (isAnnotation(name, fields)) continue;
    const field = fields[name];
    if (!field) throw fail.invalidValue(`Unknown attribute '${prefix}${name}'`, `${prefix}${name}`);
    out[name] = checkField(`${prefix}${name}`, field, value, table);
  }
  return out;
}

/** Checks an object key: present (when `required`) and not empty. */
export function checkKey(keyField: string, object: Obj, required: boolean): void {
  const value = object[keyField];
  if (value === undefined) {
    if (required) throw fail.mustBeSet(keyField);
  } else if (value === '') {
    throw fail.invalidLength(`invalid length of value for '${keyField}': the key cannot be empty`, keyField);
  }
}

/** Parses and checks one value for a field, as the device does for `nkey`. */
export function validateValue(name: string, field: FieldSchema, value: unknown, table = ''): unknown {
  return checkField(name, field, value, table);
}

/**
 * A request body as JSON, whatever its Content-Type says (devices parse
 * untyped, text/plain and form-labelled bodies alike), single-quoted strings
 * taken as the device takes them; a body wrapped in one `json` member is the
 * object inside. Only a body that is not JSON is refused (424, the API
 * layer's answer). The Content-Type is not looked at.
 */
export function parseJsonBody(text: string, _contentType?: string): unknown {
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = parseLenientJson(text);
  } catch {
    throw fail.notJson('the request body is not JSON');
  }
  return unwrapJson(body);
}

function unwrapJson(body: unknown): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return body;
  const keys = Object.keys(body);
  const inner = (body as Obj).json;
  return keys.length === 1 && keys[0] === 'json' && inner && typeof inner === 'object' && !Array.isArray(inner)
    ? inner
    : body;
}
