// How each field is spelt in the device's configuration syntax (PROTOCOL.md, "The device's
// configuration syntax"): quoted or bare by the field's device type, lists on one `set`, sub-tables as
// nested blocks. One place for the writer and the reader, so both read a field the same way.
import { entryKeyOf, type FieldSchema } from '../catalogue/index.js';

/**
 * What a field's values look like in the syntax:
 * - `quoted`: `"text"` (`string`, `var-string`, references);
 * - `bare`: as is (`option`, `integer`, `user`, addresses, masks, MACs, UUIDs);
 * - `classnet`: an IPv4 address and mask, bare (`10.0.0.0 255.255.255.0`);
 * - `secret`: `ENC <base64>` bare as the device prints it (anything else quoted);
 * - `multiple` / `multiple-quoted`: several values on one `set`, bare or each quoted;
 * - `members`: a sub-table of one field, its entries on one `set` (`set srcaddr "a" "b"`);
 * - `table`: a sub-table, a nested `config <field>` block.
 */
export type ValueKind =
  | 'quoted'
  | 'bare'
  | 'classnet'
  | 'secret'
  | 'multiple'
  | 'multiple-quoted'
  | 'members'
  | 'table';

const kinds = new WeakMap<FieldSchema, ValueKind>();

/** The device types whose values are text (quoted); every other device type is written bare. */
const QUOTED_TYPES = new Set(['string', 'var-string']);

function isSecretType(field: FieldSchema): boolean {
  const type = field.deviceType;
  return type ? type.startsWith('password') || type.endsWith('_password') : field.format === 'password';
}

function scalarKind(field: FieldSchema): ValueKind {
  if (isSecretType(field)) return 'secret';
  const type = field.deviceType;
  if (type?.startsWith('ipv4-classnet')) return 'classnet';
  // Without the device's type (a catalogue read from a device schema): options, numbers and formatted values bare.
  const quoted = type ? QUOTED_TYPES.has(type) : field.type === 'string' && !field.enum && !field.format;
  if (field.multiple) return quoted ? 'multiple-quoted' : 'multiple';
  return quoted ? 'quoted' : 'bare';
}

/** The kind of a field of the catalogue (memoised: a 10,000-object document asks for each field 10,000 times). */
export function kindOf(field: FieldSchema): ValueKind {
  let kind = kinds.get(field);
  if (kind === undefined) {
    kind = field.type === 'array' ? (memberField(field) ? 'members' : 'table') : scalarKind(field);
    kinds.set(field, kind);
  }
  return kind;
}

/**
 * The one field of a member list (`srcaddr` → its `name`), or undefined for a sub-table of several fields
 * or of one option (a nested group of settings such as `msn-hotmail`'s `log-all`, which the device
 * prints as a block).
 */
export function memberField(field: FieldSchema): { name: string; schema: FieldSchema } | undefined {
  const items = field.items;
  if (!items) return undefined;
  const names = Object.keys(items);
  if (names.length !== 1 || items[names[0]].enum) return undefined;
  return { name: names[0], schema: items[names[0]] };
}

/** The key field of a sub-table's entries (`id`, else `name`, else its first field that is not an option). */
export function entryKey(field: FieldSchema): string | undefined {
  return field.items ? entryKeyOf(field.items) : undefined;
}

/** `firewall.service/custom` → `firewall service custom`, as `config` names a table. */
export function configWords(tablePath: string): string {
  return tablePath.replace(/[./]/g, ' ');
}

/** `firewall service custom` → `firewall.service/custom`; undefined for one word, which is no table path. */
export function tablePathOf(words: readonly string[]): string | undefined {
  if (words.length < 2) return undefined;
  return `${words.slice(0, -1).join('.')}/${words[words.length - 1]}`;
}

const NEEDS_ESCAPE = /["\\]/;

/** `"text"` with `"` and `\` escaped, as the device quotes. */
export function quote(text: string): string {
  return NEEDS_ESCAPE.test(text) ? `"${text.replace(/["\\]/g, '\\$&')}"` : `"${text}"`;
}
