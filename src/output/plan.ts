// A plan for people (create, update, move, delete, like `terraform plan`), and a step in words.
import { paint as style, type Style } from './color.js';
import { keyWord, sanitizeMultiline } from './text.js';

type Obj = Record<string, unknown>;

/** A plan as the output layer sees it (CLI.md's plan object). */
export interface PlanView {
  create: { vdom: string; table: string; key: unknown; object: Obj }[];
  update: { vdom: string; table: string; key: unknown; changes: Record<string, { from: unknown; to: unknown }> }[];
  move: ({ vdom: string; table: string; key: unknown } & ({ before: unknown } | { after: unknown }))[];
  delete: { vdom: string; table: string; key: unknown }[];
}

function value(v: unknown): string {
  if (typeof v === 'string' && v !== '' && v.trim() === v) return sanitizeMultiline(v).replace(/\n/g, '\\n');
  return JSON.stringify(v ?? null);
}

/** ` (vdom root)`; nothing for a run without --vdom (the device's own VDOM, which it does not name). */
function inVdom(vdom: string): string {
  return vdom ? ` (vdom ${vdom})` : '';
}

function subject(entry: { vdom: string; table: string; key: unknown }): string {
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
export function stepInWords(step: { action: string; vdom: string; table: string | null; key: unknown }): string {
  return step.table === null
    ? `the transaction${step.vdom ? ` of vdom ${step.vdom}` : ''}`
    : `${step.action} ${step.table}${step.key === null ? '' : ` ${keyWord(step.key)}`}${inVdom(step.vdom)}`;
}
