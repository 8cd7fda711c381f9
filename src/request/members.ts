// `--set 'f+=a'` and `'f-=a'`: members added to or removed from a list field of the object as read.
import type { FieldSchema, TableDef } from '../catalogue/index.js';
import { multipleValues, withoutMeta } from '../catalogue/validate.js';
import { UsageError } from '../errors.js';
import { unknownField } from './body.js';

type Obj = Record<string, unknown>;

/** `--set 'member+=a,b'` or `--set 'member-=a'`: members to add to or remove from a list field. */
export interface MemberChange {
  field: string;
  op: '+' | '-';
  values: string[];
  /** The list entries' naming field (`name`), or null for a `multiple` option field. */
  naming: string | null;
}

/** Splits --set assignments into plain ones (`f=v`) and member changes (`f+=v`, `f-=v`). */
export function splitMemberChanges(table: TableDef, sets: string[]): { sets: string[]; changes: MemberChange[] } {
  const plain: string[] = [];
  const changes: MemberChange[] = [];
  for (const assignment of sets) {
    const m = /^([^=]*?)([+-])=(.*)$/s.exec(assignment);
    if (!m?.[1].trim()) {
      plain.push(assignment);
      continue;
    }
    const field = m[1].trim();
    const schema: FieldSchema | undefined = table.fields[field];
    if (!schema) throw unknownField(table, field);
    const naming = schema.type === 'array' ? namingField(schema) : null;
    if (schema.type === 'array' ? !naming : !schema.multiple) {
      throw new UsageError(
        `--set '${assignment}': '${field}' is not a list of named members or a multi-value option`,
        `replace the whole field with --set ${field}=...`,
      );
    }
    const values = m[3]
      .split(naming ? ',' : /[\s,]+/)
      .map((v) => v.trim())
      .filter(Boolean);
    if (!values.length) throw new UsageError(`--set '${assignment}': name at least one member`);
    changes.push({ field, op: m[2] as '+' | '-', values, naming });
  }
  return { sets: plain, changes };
}

function namingField(schema: FieldSchema): string | null {
  const fields = Object.keys(schema.items ?? {});
  return fields.includes('name') ? 'name' : fields.length === 1 ? fields[0] : null;
}

/**
 * The new value of each changed field from the object as read: members appended in the order given,
 * removed ones dropped; adding a present member or removing an absent one changes nothing. Only
 * fields whose value changed are returned.
 */
export function applyMemberChanges(table: TableDef, current: Obj, changes: MemberChange[]): Obj {
  const out: Obj = {};
  for (const change of changes) {
    const value = change.field in out ? out[change.field] : current[change.field];
    if (change.naming) {
      const naming = change.naming;
      const itemType = table.fields[change.field].items?.[naming]?.type;
      const entries = (Array.isArray(value) ? value : []).map((e) =>
        e && typeof e === 'object' ? withoutMeta(e as Obj) : { [naming]: e },
      );
      const names = entries.map((e) => String(e[naming]));
      let next: Obj[];
      if (change.op === '+') {
        const added = newMembers(names, change.values);
        next = [
          ...entries,
          ...added.map((v) => ({ [naming]: itemType === 'integer' && /^-?\d+$/.test(v) ? Number(v) : v })),
        ];
      } else next = entries.filter((e) => !change.values.includes(String(e[naming])));
      if (next.length !== entries.length) out[change.field] = next;
    } else {
      const members = typeof value === 'string' ? multipleValues(value) : [];
      const next =
        change.op === '+'
          ? [...members, ...newMembers(members, change.values)]
          : members.filter((m) => !change.values.includes(m));
      if (next.length !== members.length) out[change.field] = next.join(' ');
    }
  }
  return out;
}

/** The values not yet among the members, each once, in the order given. */
function newMembers(members: string[], values: string[]): string[] {
  return values.filter((v, i) => !members.includes(v) && values.indexOf(v) === i);
}
