// A read-modify-write (edit, update with += or -=): the object read with the table's revision,
// and the refusal to write it back when another change came first.
import type { QueryParams } from '../../api/url.js';
import type { TableDef } from '../../catalogue/index.js';
import { isEncrypted } from '../../catalogue/secrets.js';
import { isMetaField } from '../../catalogue/validate.js';
import type { Context } from '../../run/context.js';
import { CmdbError, EXIT } from '../../errors.js';
import { request } from './request.js';

type Obj = Record<string, unknown>;

/** An object read to be changed and written back, with the table's revision at that read. */
export interface ReadForChange {
  object: Obj;
  revision: string | undefined;
  /** The VDOM the device answered for. */
  vdom: string | undefined;
}

/** One object (or a singleton) as it stands, for a read-modify-write. */
export async function readForChange(
  ctx: Context,
  table: TableDef,
  mkey: string | number | undefined,
  query: QueryParams,
): Promise<ReadForChange> {
  const result = await request(ctx, table, { method: 'GET', mkey, query });
  const envelope = result.envelopes[0] ?? {};
  const results = envelope.results;
  const object = (Array.isArray(results) ? results[0] : results) as Obj | undefined;
  if (!object || typeof object !== 'object')
    throw new CmdbError(
      `${table.path}${mkey === undefined ? '' : ` ${mkey}`}: the device returned no object`,
      EXIT.DEVICE,
    );
  return {
    object,
    revision: typeof envelope.revision === 'string' ? envelope.revision : undefined,
    vdom: typeof envelope.vdom === 'string' ? envelope.vdom : undefined,
  };
}

/** The object's own fields (no `q_*`), secrets counting as equal whatever their encryption. */
function comparable(object: Obj): string {
  return JSON.stringify(object, (key, value: unknown) =>
    key && isMetaField(key) ? undefined : isEncrypted(value) ? 'ENC' : value,
  );
}

/**
 * Refuses (exit 7) when the object changed on the device since it was read: the table's revision is
 * asked again, and only when it moved is the object read again and compared (another object of the
 * same table may have changed instead). `force` writes anyway.
 */
export async function requireUnchanged(
  ctx: Context,
  table: TableDef,
  mkey: string | number | undefined,
  query: QueryParams,
  read: ReadForChange,
  force: boolean,
  hint = 'run the command again to work from its current state',
): Promise<void> {
  if (force) return;
  const asked = await request(ctx, table, { method: 'GET', query: { ...query, action: 'revision' } });
  const envelope = asked.envelopes[0] ?? {};
  const results = envelope.results as Obj | undefined;
  const now = typeof results?.revision === 'string' ? results.revision : envelope.revision;
  if (read.revision !== undefined && now === read.revision) return;
  const again = await readForChange(ctx, table, mkey, query);
  if (comparable(again.object) === comparable(read.object)) return;
  const what = `${table.path}${mkey === undefined ? '' : ` ${mkey}`}`;
  throw new CmdbError(`${what} changed on the device since it was read: nothing was sent`, EXIT.REJECTED, hint);
}
