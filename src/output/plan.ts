// A plan as the output layer sees it (CLI.md's plan object), what its lines say beyond it, and a step in words.
import type { TableDef } from '../catalogue/index.js';
import { keyWord, sanitizeInline, sanitizeMultiline } from './text.js';

type Obj = Record<string, unknown>;

/** Where a plan entry is: `vdom` null for a global table. */
type Place = { vdom: string | null; table: string; key: unknown };

/** A plan as the output layer sees it (CLI.md's plan object). */
export interface PlanView {
  create: (Place & { object: Obj })[];
  update: (Place & { changes: Record<string, { from: unknown; to: unknown }> })[];
  move: (Place & ({ before: unknown } | { after: unknown }))[];
  delete: Place[];
}

/** A value in a plan line: text as is (escaped for the terminal), anything else as JSON. */
export function value(v: unknown): string {
  if (typeof v === 'string' && v !== '' && v.trim() === v) return sanitizeMultiline(v).replace(/\n/g, '\\n');
  return JSON.stringify(v ?? null);
}

/** ` (vdom root)`, ` (global)`; nothing for a run without --vdom (the device's own VDOM, which it does not name). */
function inVdom(vdom: string | null): string {
  return vdom === null ? ' (global)' : vdom ? ` (vdom ${vdom})` : '';
}

/** `firewall/policy 4 (server-updates) (vdom root)`: the table, the key, a numbered object's name, the VDOM. */
export function subject(entry: Place, name?: string): string {
  const key =
    entry.key === null || entry.key === undefined
      ? ''
      : ` ${typeof entry.key === 'string' ? keyWord(entry.key) : value(entry.key)}`;
  return `${entry.table}${key}${name ? ` (${sanitizeInline(name)})` : ''}${inVdom(entry.vdom)}`;
}

/** What a plan's lines say beyond the plan object: the tables' keys and fields, and the names of numbered objects. */
export interface PlanFacts {
  /** Each table by path: its key, and its fields' defaults (what a create shows), member lists, multi-value fields. */
  tables?: ReadonlyMap<string, Pick<TableDef, 'key' | 'fields'>>;
  /** The `name` of objects of integer-keyed tables, by objectSlot(). */
  names?: ReadonlyMap<string, string>;
}

/** Where PlanFacts.names files an object's name. */
export function objectSlot(vdom: string | null, table: string, key: unknown): string {
  // A global table's objects (vdom null) apart from those of a VDOM whatever its name.
  return `${vdom === null ? '\u0001' : vdom}\0${table}\0${String(key)}`;
}

/** `update firewall/address a (vdom root)`, or the transaction of a VDOM: a step in an error or a warning. */
export function stepInWords(step: { action: string; vdom: string | null; table: string | null; key: unknown }): string {
  return step.table === null
    ? `the transaction${step.vdom ? ` of vdom ${step.vdom}` : ''}`
    : `${step.action} ${step.table}${step.key === null ? '' : ` ${keyWord(step.key)}`}${inVdom(step.vdom)}`;
}
