// The reference library's words, in one place: what a check lists, what a device's refusal of a write
// naming a missing object or deleting an object in use is explained with (CLI.md "References between
// tables": `firewall/policy 7 srcaddr names firewall/address "nope": not on the device, not in the
// document`; `lan-net is used by firewall/policy 1 (srcaddr) and firewall/addrgrp internal-nets (member)`).
import { targetName, type FieldReference, type Key } from './fields.js';

/** An object that names another: where it is, and the top-level field that names. */
export interface RefUser {
  /** null for a global table. */
  vdom: string | null;
  table: string;
  /** null for a singleton. */
  key: Key | null;
  field: string;
}

/** `a`, `a or b`, `a, b or c`. */
export function either(words: string[], last = 'or'): string {
  return words.length < 2 ? (words[0] ?? '') : `${words.slice(0, -1).join(', ')} ${last} ${words[words.length - 1]}`;
}

/** A value as it is written in messages: a string quoted, a number as it is. */
export function quoted(value: Key): string {
  return JSON.stringify(value);
}

/** An object as messages name it: `firewall/policy 7`, `system/dns` (a singleton), `... (vdom dmz)`. */
export function objectName(table: string, key: Key | null, vdom?: string | null): string {
  return `${table}${key === null ? '' : ` ${key}`}${vdom ? ` (vdom ${vdom})` : ''}`;
}

/** The distinct target tables (a sub-table's entries as `system/sdwan zone`) in the catalogue's order. */
function targetNames(targets: readonly FieldReference[]): string[] {
  return [...new Set(targets.map(targetName))];
}

/** A reference to an object neither the device nor the plan has. */
export function missingMessage(who: string, field: string, value: Key, targets: readonly FieldReference[]): string {
  const names = targetNames(targets);
  return names.length === 1
    ? `${who} ${field} names ${names[0]} ${quoted(value)}: not on the device, not in the document`
    : `${who} ${field} names ${quoted(value)}: not in ${either(names)}, on the device or in the document`;
}

/** A reference that would be left naming an object the plan deletes. */
export function inUseMessage(who: string, field: string, value: Key, target: FieldReference): string {
  return `${who} ${field} names ${targetName(target)} ${quoted(value)}, which the plan deletes`;
}

/**
 * A write the device refused for a reference (`-3`, `-651`), the field and value it lacks known:
 * `srcaddr names "nope", which is not in firewall/address or firewall/addrgrp`.
 */
export function refusedReferenceMessage(field: string, value: Key, targets: readonly FieldReference[]): string {
  return `${field} names ${quoted(value)}, which is not in ${either(targetNames(targets))}`;
}

/** One user: `firewall/policy 1 (srcaddr)`; with its VDOM `firewall/policy 1 (srcaddr, vdom dmz)`. */
export function userName(user: RefUser, showVdom = false): string {
  const vdom = showVdom && user.vdom !== null ? `, vdom ${user.vdom}` : '';
  return `${objectName(user.table, user.key)} (${user.field}${vdom})`;
}

/**
 * A delete refused because the object is in use (`-23`), or shown before a delete's question:
 * `lan-net is used by firewall/policy 1 (srcaddr) and firewall/addrgrp internal-nets (member)`.
 */
export function usedByMessage(key: Key, users: RefUser[], showVdom = false): string {
  return `${key} is used by ${either(
    users.map((u) => userName(u, showVdom)),
    'and',
  )}`;
}
