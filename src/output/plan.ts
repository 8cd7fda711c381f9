// A plan for people (create, update, move, delete, like `terraform plan`), and a step in words.
import { paint as style, type Style } from './color.js';
import { keyWord, sanitizeMultiline } from './text.js';

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

function value(v: unknown): string {
  if (typeof v === 'string' && v !== '' && v.trim() === v) return sanitizeMultiline(v).replace(/\n/g, '\\n');
  return JSON.stringify(v ?? null);
}

/** ` (vdom root)`, ` (global)`; nothing for a run without --vdom (the device's own VDOM, which it does not name). */
function inVdom(vdom: string | null): string {
  return vdom === null ? ' (global)' : vdom ? ` (vdom ${vdom})` : '';
}

function subject(entry: Place): string {
  const key =
    entry.key === null || entry.key === undefined
      ? ''
      : ` ${typeof entry.key === 'string' ? keyWord(entry.key) : value(entry.key)}`;
  return `${entry.table}${key}${inVdom(entry.vdom)}`;
}

/**
 * The plan for people, like `terraform plan`: `+` objects to create with their fields, `~` objects to
 * update with each changed field `old → new`, `↕` objects to move (`move before K` or `move after K`),
 * `-` objects to delete; green, yellow, yellow and red on a terminal.
 */
export function formatPlan(plan: PlanView, color: boolean): string {
  const paint = (name: Style, s: string) => (color ? style(name, s) : s);
  const lines: string[] = [];
  for (const entry of plan.create) {
    lines.push(paint('green', `+ ${subject(entry)}`));
    for (const [name, v] of Object.entries(entry.object)) lines.push(`    ${name}: ${value(v)}`);
  }
  for (const entry of plan.update) {
    lines.push(paint('yellow', `~ ${subject(entry)}`));
    for (const [name, change] of Object.entries(entry.changes))
      lines.push(`    ${name}: ${value(change.from)} → ${value(change.to)}`);
  }
  for (const entry of plan.move) {
    const [where, anchor] = 'before' in entry ? ['before', entry.before] : ['after', entry.after];
    lines.push(paint('yellow', `↕ ${subject(entry)}: move ${where} ${value(anchor)}`));
  }
  for (const entry of plan.delete) lines.push(paint('red', `- ${subject(entry)}`));
  return lines.length ? `${lines.join('\n')}\n` : '';
}

/** `update firewall/address a (vdom root)`, or the transaction of a VDOM: a step in an error or a warning. */
export function stepInWords(step: { action: string; vdom: string | null; table: string | null; key: unknown }): string {
  return step.table === null
    ? `the transaction${step.vdom ? ` of vdom ${step.vdom}` : ''}`
    : `${step.action} ${step.table}${step.key === null ? '' : ` ${keyWord(step.key)}`}${inVdom(step.vdom)}`;
}
