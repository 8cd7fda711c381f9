// A plan for people, like `terraform plan`: one block per object, what changes inside lists, the
// fields of a create that differ from their defaults. Loaded with the outcomes that print it.
import type { FieldSchema } from '../catalogue/index.js';
import { multipleValues } from '../catalogue/validate.js';
import { joinNames, memberList } from './cells.js';
import { paint as style, type Style } from './color.js';
import { carriesInformation } from './columns.js';
import { objectSlot, subject, value, type PlanFacts, type PlanView } from './plan.js';
import { sanitizeMultiline } from './text.js';

/** The members of a list of references or a multi-value field (nothing: none), or undefined for any other value. */
function membersOf(field: FieldSchema | undefined, v: unknown): string[] | undefined {
  if (v === null || v === undefined || v === '') return field?.multiple || field?.items ? [] : undefined;
  if (field?.multiple && typeof v === 'string') return multipleValues(v);
  return memberList(v, field);
}

/**
 * A change to a list of references or a multi-value field as the members it adds and removes (in the
 * order of the lists), or undefined for any other change.
 */
export function memberChange(
  field: FieldSchema | undefined,
  change: { from: unknown; to: unknown },
): { added: string[]; removed: string[] } | undefined {
  const before = membersOf(field, change.from);
  const after = membersOf(field, change.to);
  if (!before || !after || (!before.length && !after.length)) return undefined;
  const had = new Set(before);
  const has = new Set(after);
  return { added: after.filter((m) => !had.has(m)), removed: before.filter((m) => !has.has(m)) };
}

/** A field's value in a plan line: member lists as their names, other nested values as JSON. */
function fieldValue(field: FieldSchema | undefined, v: unknown): string {
  const names = Array.isArray(v) && v.length ? memberList(v, field) : undefined;
  return names ? sanitizeMultiline(joinNames(names)).replace(/\n/g, '\\n') : value(v);
}

/**
 * The plan for people, like `terraform plan`, one block per object: `+` objects to create with the
 * fields that differ from their defaults, `~` objects to update with each changed field `old → new`
 * (a list of references or a multi-value field as the members it adds, `+ dmz-net`, and removes, `-
 * lan-net`), `↕` objects to move (`move before K` or `move after K`), `-` objects to delete; green,
 * yellow, yellow and red on a terminal. Objects of integer-keyed tables are also named by their `name`.
 * A block of several lines stands apart from the next by a blank line.
 */
export function formatPlan(plan: PlanView, color: boolean, facts: PlanFacts = {}): string {
  const paint = (name: Style, s: string) => (color ? style(name, s) : s);
  const tableOf = (table: string) => facts.tables?.get(table);
  const named = (entry: { vdom: string | null; table: string; key: unknown }) => {
    const name = entry.key === null ? undefined : facts.names?.get(objectSlot(entry.vdom, entry.table, entry.key));
    return name === undefined ? subject(entry) : subject(entry, name);
  };
  const blocks: string[][] = [];
  for (const entry of plan.create) {
    const table = tableOf(entry.table);
    const fields = table?.fields ?? {};
    const shownName = facts.names?.has(objectSlot(entry.vdom, entry.table, entry.key));
    const lines = [paint('green', `+ ${named(entry)}`)];
    for (const [name, v] of Object.entries(entry.object)) {
      // The key and a numbered object's name are in the block's first line already.
      if (name === table?.key || (shownName && name === 'name')) continue;
      if (carriesInformation(v, fields[name])) lines.push(`    ${name}: ${fieldValue(fields[name], v)}`);
    }
    blocks.push(lines);
  }
  for (const entry of plan.update) {
    const fields = tableOf(entry.table)?.fields ?? {};
    const lines = [paint('yellow', `~ ${named(entry)}`)];
    for (const [name, change] of Object.entries(entry.changes)) {
      const members = memberChange(fields[name], change);
      if (members && (members.added.length || members.removed.length)) {
        lines.push(`    ${name}:`);
        for (const m of members.added) lines.push(paint('green', `      + ${fieldValue(undefined, m)}`));
        for (const m of members.removed) lines.push(paint('red', `      - ${fieldValue(undefined, m)}`));
      } else
        lines.push(`    ${name}: ${fieldValue(fields[name], change.from)} → ${fieldValue(fields[name], change.to)}`);
    }
    blocks.push(lines);
  }
  for (const entry of plan.move) {
    const [where, anchor] = 'before' in entry ? ['before', entry.before] : ['after', entry.after];
    blocks.push([paint('yellow', `↕ ${named(entry)}: move ${where} ${value(anchor)}`)]);
  }
  for (const entry of plan.delete) blocks.push([paint('red', `- ${named(entry)}`)]);
  let text = '';
  blocks.forEach((lines, i) => {
    if (i && (lines.length > 1 || blocks[i - 1]!.length > 1)) text += '\n';
    text += `${lines.join('\n')}\n`;
  });
  return text;
}
