// A device's refusal of a write explained with what the catalogue and the device say (CLI.md
// "References between tables"): a write naming an object the device lacks (-3 with HTTP 500, -651)
// names the field, the value and where it was looked for; a delete refused as in use (-23) names every
// user; a create refused for a missing attribute names the catalogue's required fields the body lacks.
// The words of the plain refusal (and its exit code) are src/run/hints.ts's; these add what reading finds.
import type { ApiRequest } from '../../api/client.js';
import { ApiError } from '../../api/errors.js';
import { isGlobal, type TableDef } from '../../catalogue/index.js';
import { factoryObjects, isFactoryObject } from '../../catalogue/factory.js';
import { referencesOf, valuesAt, type ObjectReference } from '../../catalogue/references.js';
import { CmdbError, EXIT } from '../../errors.js';
import { missingRequired, refusedReferenceMessage, usedByMessage } from '../../plan/references/index.js';
import { isObject } from '../../objects/normalize.js';
import type { Context } from '../../run/context.js';
import { refsCommand } from '../../run/hints.js';
import { shellWord } from '../../request/table.js';
import { objectsAt, usersOfObjects } from './users.js';

type Write = Omit<ApiRequest, 'tablePath' | 'group'>;

/** The target of a hint: `cmdb list firewall/address --fields name`, with the VDOM asked. */
function listCommand(table: string, field: string, vdom: string | undefined): string {
  return `cmdb list ${table} --fields ${field.split('.', 1)[0]}${vdom ? ` --vdom ${shellWord(vdom)}` : ''}`;
}

/** The one VDOM a refusal was about, when it names one (`*` and several are none). */
function oneVdom(err: ApiError): string | undefined {
  const vdoms = err.subject.vdoms;
  return vdoms?.length === 1 && vdoms[0] !== '*' ? vdoms[0] : undefined;
}

/** The value a device's own words say it could not find (`value parse error before 'nope'`, `for name nope`). */
function valueNamed(cliError: string | null): string | undefined {
  if (!cliError) return undefined;
  return /parse error before '([^']*)'/.exec(cliError)?.[1] ?? /fail! for \S+ (\S+)/.exec(cliError)?.[1];
}

/** Whether the device holds a value in one of a reference's targets (null: none could be read). */
async function held(ctx: Context, ref: ObjectReference, vdom: string | undefined): Promise<boolean | null> {
  const catalogue = await ctx.device().catalogue();
  const client = await ctx.device().client();
  let read = false;
  for (const t of ref.targets) {
    if (factoryObjects().databases.has(t.table) || isFactoryObject(t.table, ref.value, t.field)) return true;
    const def = catalogue.find(t.table);
    if (!def) continue;
    try {
      const answer = await client.request({
        method: 'GET',
        tablePath: def.path,
        group: def.group,
        query: isGlobal(def) || !vdom ? {} : { vdom: [vdom] },
      });
      read = true;
      const results = answer.envelopes[0]?.results;
      const objects = Array.isArray(results) ? results : [results];
      if (objects.some((o) => isObject(o) && valuesAt(o, t.field).some((v) => String(v) === String(ref.value))))
        return true;
    } catch {
      // A table this caller may not read: the others may still tell.
    }
  }
  return read ? false : null;
}

/** A write refused for naming an object the device lacks: which field and value, and where it was looked for. */
async function missingReference(ctx: Context, table: TableDef, req: Write, err: ApiError): Promise<unknown> {
  if (!isObject(req.body)) return err;
  const refs = referencesOf(table, req.body);
  const said = valueNamed(err.cliError);
  const vdom = oneVdom(err);
  let found = said === undefined ? undefined : refs.find((r) => String(r.value) === said);
  // The device named a value no reference holds: refused for something else.
  if (said !== undefined && !found) return err;
  if (!found)
    for (const ref of refs)
      if ((await held(ctx, ref, vdom)) === false) {
        found = ref;
        break;
      }
  if (!found) return err;
  const verb = req.method === 'POST' ? 'create' : 'update';
  const what = `${table.path}${req.mkey === undefined ? '' : ` ${JSON.stringify(String(req.mkey))}`}`;
  const first = found.targets[0];
  return new CmdbError(
    `cannot ${verb} ${what}${vdom ? ` in vdom ${vdom}` : ''}: ` +
      refusedReferenceMessage(found.field, found.value, found.targets),
    EXIT.REJECTED,
    `create it first, or name one the device has ('${listCommand(first.table, first.field, vdom)}')`,
    { cause: err },
  );
}

/** A delete refused as in use: every user, from the device's usage query or the tables that can name it. */
async function inUse(ctx: Context, table: TableDef, req: Write, err: ApiError): Promise<unknown> {
  if (req.mkey === undefined || table.singleton) return err;
  const vdom = oneVdom(err);
  const at = await objectsAt(ctx, table, req.mkey, vdom ? [vdom] : undefined);
  if (at.length !== 1) return err;
  const [users] = (await usersOfObjects(ctx, at)).users;
  if (!users?.length) return err;
  return new CmdbError(
    `cannot delete ${table.path} ${JSON.stringify(String(req.mkey))}${vdom ? ` in vdom ${vdom}` : ''}: ` +
      usedByMessage(
        req.mkey,
        users,
        users.some((u) => u.vdom !== null && u.vdom !== at[0].vdom),
      ),
    EXIT.REJECTED,
    `remove those references first; '${refsCommand(table.path, req.mkey, err.subject.vdoms)}' lists them`,
    { cause: err },
  );
}

/** A create refused for a missing attribute: the catalogue's required fields the body lacks (a hint, never a check). */
function missingAttribute(table: TableDef, req: Write, err: ApiError): unknown {
  if (!isObject(req.body)) return err;
  const lacking = missingRequired(table, req.body);
  if (!lacking.length) return err;
  const named = /Attribute '([^']+)'/.exec(err.cliError ?? '')?.[1];
  const fields = named && !lacking.includes(named) ? [named, ...lacking] : lacking;
  return new CmdbError(
    `cannot create ${table.path}: a field it needs is not set; ` +
      `the body lacks these the catalogue marks as required: ${fields.join(', ')}`,
    EXIT.REJECTED,
    `give them with --set, e.g. --set ${fields[0]}=<value>; 'cmdb schema ${table.path}' describes each`,
    { cause: err },
  );
}

/**
 * The refusal of a write in words that say what to fix, or the error as it came when there is nothing
 * to add (or reading to find out failed: the refusal itself is what matters).
 */
export async function explainRefusal(ctx: Context, table: TableDef, req: Write, err: unknown): Promise<unknown> {
  if (!(err instanceof ApiError)) return err;
  try {
    if (err.code === -23 && req.method === 'DELETE') return await inUse(ctx, table, req, err);
    if (req.method === 'POST' && /MUST be set/.test(err.cliError ?? '')) return missingAttribute(table, req, err);
    if ((req.method === 'POST' || req.method === 'PUT') && (err.missingReference || err.code === -651))
      return await missingReference(ctx, table, req, err);
  } catch {
    // Explaining needs reads that may fail: the refusal as the device said it.
  }
  return err;
}
