// `cmdb edit`: an object in the user's editor, its changed fields written back.
import type { FieldSchema, TableDef } from '../catalogue/index.js';
import { isMetaField, withoutMeta } from '../catalogue/validate.js';
import type { Context } from '../run/context.js';
import { CmdbError, EXIT, UsageError } from '../errors.js';
import { checkBody } from '../request/body.js';
import { parseYaml } from '../request/input.js';
import { parseMkey, requireOperation, vdomQuery } from '../request/table.js';
import { readForChange, requireUnchanged } from './common/readback.js';
import { lineTable, printWrite, requestWrite, runWrites, vdomsFor, type WriteOptions } from './common/request.js';
import { expectFields } from '../outcome/index.js';

type Obj = Record<string, unknown>;

/** `status: enable, disable` for each enum field (nested ones as `rule[].action`), for the header. */
function allowedValues(fields: Record<string, FieldSchema>, prefix = ''): string[] {
  return Object.entries(fields).flatMap(([name, schema]) => {
    if (schema.items) return allowedValues(schema.items, `${prefix}${name}[].`);
    if (!schema.enum) return [];
    return [`${prefix}${name}: ${schema.enum.join(', ')}${schema.multiple ? ' (several, space-separated)' : ''}`];
  });
}

function header(table: TableDef, mkey: string | number | undefined, vdom: string | undefined): string {
  const lines = [
    `cmdb edit: ${table.path}${mkey === undefined ? '' : ` ${table.key} ${JSON.stringify(mkey)}`}` +
      `${vdom ? ` in vdom ${vdom}` : ''}`,
    'Save to send the fields you changed (one PUT); save it unchanged to send nothing; empty the file to abort.',
    'A field you delete from the document is left as it is on the device.',
  ];
  const allowed = allowedValues(table.fields);
  if (allowed.length) lines.push('Allowed values:', ...allowed.map((a) => `  ${a}`));
  return lines.map((l) => `# ${l}\n`).join('');
}

/** The text without comment lines and blank lines: empty means the user aborted. */
const isEmpty = (text: string) => text.split('\n').every((line) => !line.trim() || line.trimStart().startsWith('#'));

/** The document with a previous error removed, and the new one on top as a comment. */
function withError(text: string, message: string): string {
  const body = text.replace(/^(# error: .*\n|# {3}.*\n)*/, '');
  const [first, ...rest] = message.split('\n');
  return `# error: ${first}\n${rest.map((l) => `#   ${l}\n`).join('')}${body}`;
}

function changedFields(original: Obj, edited: Obj): Obj {
  const out: Obj = {};
  for (const [name, value] of Object.entries(edited)) {
    if (isMetaField(name)) continue;
    if (JSON.stringify(value) !== JSON.stringify(original[name])) out[name] = value;
  }
  return out;
}

/**
 * `cmdb edit <table> [key]`: the object as YAML in the user's editor; on save, a PUT of only the
 * fields that changed. A document that does not parse or fit the table is reopened with the error
 * on top; an empty file aborts; an object that changed on the device meanwhile is not overwritten
 * (exit 7) unless --force.
 */
export async function run(ctx: Context, args: { table: string; key?: string }, opts: WriteOptions): Promise<number> {
  return runWrites(ctx, opts, () => edit(ctx, args, opts));
}

async function edit(
  ctx: Context,
  { table: tableInput, key }: { table: string; key?: string },
  opts: WriteOptions,
): Promise<number> {
  const table = await lineTable(ctx, tableInput);
  if (table.singleton) {
    if (key !== undefined)
      throw new UsageError(`${table.path} is a singleton table: it takes no key`, `use 'cmdb edit ${table.path}'`);
    requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'P');
  } else {
    if (key === undefined)
      throw new UsageError(
        `${table.path} is a keyed table: give the ${table.key} of the object to edit`,
        `list the objects with 'cmdb list ${table.path}'`,
      );
    requireOperation(table, { force: ctx.settings.force, say: ctx.out }, 'U');
  }
  const mkey = key === undefined ? undefined : parseMkey(table, key, { vdoms: vdomsFor(ctx, table) });
  const query = vdomQuery(vdomsFor(ctx, table));
  if (query.vdom && (query.vdom.length > 1 || query.vdom.includes('*')))
    throw new UsageError('edit works in one VDOM at a time', 'give one VDOM with --vdom');
  const read = await readForChange(ctx, table, mkey, query);
  const original = withoutMeta(read.object);
  const { yamlText } = await import('../output/yaml.js');
  let text = header(table, mkey, query.vdom?.[0] ?? read.vdom) + yamlText(original);
  let changes: Obj;
  for (;;) {
    const saved = await ctx.prompt.editText(text, `${table.path.replace(/[^a-z0-9.-]+/gi, '_')}.yaml`);
    if (isEmpty(saved)) throw new CmdbError('edit cancelled: the file was empty; nothing was sent', EXIT.USAGE);
    let problem: string | undefined;
    try {
      const doc = await parseYaml(saved, 'the document');
      if (!doc || typeof doc !== 'object' || Array.isArray(doc))
        throw new UsageError('the document must be a mapping of field: value');
      changes = changedFields(original, doc as Obj);
      checkBody(table, changes, 'the document');
    } catch (err) {
      problem = err instanceof Error ? err.message : String(err);
    }
    if (problem === undefined) break;
    // Saved again without a fix (or an editor that cannot fix it): stop rather than ask forever.
    if (saved === text)
      throw new UsageError(
        `the document still has an error: ${problem.split('\n')[0].replace(/:\s*$/, '')}; nothing was sent`,
      );
    text = withError(saved, problem);
  }
  const what = `${table.path}${mkey === undefined ? '' : ` ${mkey}`}`;
  if (!Object.keys(changes!).length) {
    ctx.out.notice(`no changes to ${what}: nothing was sent`);
    return 0;
  }
  await requireUnchanged(ctx, table, mkey, query, read, ctx.settings.force, '--force sends your changes anyway');
  const result = await requestWrite(
    ctx,
    opts,
    table,
    { method: 'PUT', mkey, query, body: changes! },
    expectFields(table, mkey, changes!),
  );
  return printWrite(ctx, opts, result, 'updated', table, mkey);
}
