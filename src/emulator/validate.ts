import { isIPv4, isIPv6 } from 'node:net';
import type { FieldSchema } from '../catalogue/index.js';
import { fail } from './envelope.js';
import type { Fields, Obj } from './schema.js';

const INTEGER_TEXT = /^-?\d+$/;
const MAC = /^[0-9a-f]{2}([:-][0-9a-f]{2}){5}$/i;
const MASK_OR_PREFIX = /^(?:\/\d{1,2}| \d{1,3}(?:\.\d{1,3}){3})$/;

function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** Loose IPv4: an address, optionally followed by ` <netmask>` or `/<prefix>`, as address fields accept. */
function isIpv4Field(text: string): boolean {
  const match = /^(\d{1,3}(?:\.\d{1,3}){3})(.*)$/.exec(text);
  return !!match && isIPv4(match[1]) && (match[2] === '' || MASK_OR_PREFIX.test(match[2]));
}

function isIpv6Field(text: string): boolean {
  const [address, prefix, ...rest] = text.split('/');
  return rest.length === 0 && isIPv6(address) && (prefix === undefined || /^\d{1,3}$/.test(prefix));
}

function checkFormat(name: string, field: FieldSchema, text: string): string {
  if (field.format === 'ipv4' && !isIpv4Field(text)) throw fail.invalidIp(`invalid IP address for '${name}': ${show(text)}`);
  if (field.format === 'ipv6' && !isIpv6Field(text)) throw fail.invalidIp(`invalid IPv6 address for '${name}': ${show(text)}`);
  if (field.format === 'mac-address') {
    if (!MAC.test(text)) throw fail.invalidValue(`invalid MAC address for '${name}': ${show(text)}`);
    return text.toLowerCase().replace(/-/g, ':');
  }
  return text;
}

function checkString(name: string, field: FieldSchema, value: unknown): string {
  // The device turns JSON numbers into CLI text, so a number is fine for a string field.
  if (typeof value !== 'string' && !(typeof value === 'number' && Number.isFinite(value))) {
    throw fail.invalidValue(`invalid value for '${name}': ${show(value)} (a string is expected)`);
  }
  const text = String(value);
  if (field.enum && !field.enum.includes(text)) throw fail.invalidValue(`invalid value for '${name}': ${show(text)} (${field.enum.join('|')})`);
  if (field.maxLength !== undefined && Buffer.byteLength(text) > field.maxLength) {
    throw fail.tooLong(`value too long for '${name}': ${Buffer.byteLength(text)} bytes (maximum ${field.maxLength})`);
  }
  return field.format === 'password' ? text : checkFormat(name, field, text);
}

function checkInteger(name: string, field: FieldSchema, value: unknown): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' && INTEGER_TEXT.test(value.trim()) ? Number(value) : NaN;
  if (!Number.isInteger(number)) throw fail.invalidValue(`invalid integer value for '${name}': ${show(value)}`);
  if ((field.minimum !== undefined && number < field.minimum) || (field.maximum !== undefined && number > field.maximum)) {
    throw fail.invalidValue(`value ${number} for '${name}' is out of range (${field.minimum ?? '-'}-${field.maximum ?? '-'})`);
  }
  return number;
}

function checkArray(name: string, field: FieldSchema, value: unknown): Obj[] {
  if (!Array.isArray(value)) throw fail.invalidValue(`invalid value for '${name}': ${show(value)} (a list of entries is expected)`);
  return value.map((entry) => validateObject(field.items ?? {}, entry, `${name}.`));
}

function checkField(name: string, field: FieldSchema, value: unknown): unknown {
  if (field.type === 'array') return checkArray(name, field, value);
  if (field.type === 'integer') return checkInteger(name, field, value);
  return checkString(name, field, value);
}

/** Response annotations a client may send back unchanged after a read. */
function isAnnotation(name: string, fields: Fields): boolean {
  return name.startsWith('q_') || (name === 'datasource' && !fields.datasource);
}

/**
 * Checks a JSON object against a field schema and returns it normalised
 * (numeric strings as integers, MAC addresses lowercase). `prefix` names the
 * sub-table in error texts.
 */
export function validateObject(fields: Fields, input: unknown, prefix = ''): Obj {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw fail.invalidValue(`invalid value ${prefix ? `in '${prefix.slice(0, -1)}'` : 'for the request body'}: a JSON object is expected`);
  }
  const out: Obj = {};
  for (const [name, value] of Object.entries(input)) {
    if (isAnnotation(name, fields)) continue;
    const field = fields[name];
    if (!field) throw fail.invalidValue(`Unknown attribute '${prefix}${name}'`);
    out[name] = checkField(`${prefix}${name}`, field, value);
  }
  return out;
}

/** Checks an object key: present (when `required`) and not empty. */
export function checkKey(keyField: string, object: Obj, required: boolean): void {
  const value = object[keyField];
  if (value === undefined) {
    if (required) throw fail.mustBeSet(keyField);
  } else if (value === '') {
    throw fail.invalidLength(`invalid length of value for '${keyField}': the key cannot be empty`);
  }
}

/** Parses and checks one value for a field, as the device does for `nkey`. */
export function validateValue(name: string, field: FieldSchema, value: unknown): unknown {
  return checkField(name, field, value);
}

/** A request body as JSON: a form or other body is an invalid value (424), as devices answer. */
export function parseJsonBody(text: string, contentType: string | undefined): unknown {
  if (text.trim() === '') return {};
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase();
  if (type !== 'application/json' && !type.endsWith('+json')) {
    throw fail.invalidValue(`the request body must be JSON (Content-Type: application/json), not ${type || 'untyped'}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw fail.invalidValue('malformed JSON in the request body');
  }
}
