// Secrets in objects: a password field is never shown (redacted), and a value the device sends
// encrypted (`ENC ...`) is known as such.
import type { FieldSchema, TableDef } from './index.js';

type Obj = Record<string, unknown>;

export const REDACTED = '<redacted>';

/** A secret the device returned: encrypted, and re-encrypted differently on every read. */
export function isEncrypted(value: unknown): boolean {
  return typeof value === 'string' && value.startsWith('ENC ');
}

// Outside the catalogue (or a field it does not name), a secret is recognised by its name.
const SECRET_NAME = /passw|secret|psk|passphrase/i;

function isSecret(name: string, schema: FieldSchema | undefined): boolean {
  return schema ? schema.format === 'password' : SECRET_NAME.test(name);
}

/** An object with the table's secret fields hidden (nested list entries too), for anything printed. */
export function redactSecrets(fields: TableDef['fields'] | undefined, object: Obj): Obj {
  const out: Obj = {};
  for (const [name, value] of Object.entries(object)) {
    const schema = fields?.[name];
    if (isSecret(name, schema) && typeof value === 'string' && value !== '' && !isEncrypted(value))
      out[name] = REDACTED;
    else if (Array.isArray(value))
      out[name] = value.map((entry) =>
        entry && typeof entry === 'object' && !Array.isArray(entry)
          ? redactSecrets(schema?.items, entry as Obj)
          : entry,
      );
    else out[name] = value;
  }
  return out;
}

function holdsPlainSecret(name: string, schema: FieldSchema | undefined, value: unknown): boolean {
  if (Array.isArray(value))
    return value.some(
      (entry) =>
        !!entry &&
        typeof entry === 'object' &&
        Object.entries(entry as Obj).some(([n, v]) => holdsPlainSecret(n, schema?.items?.[n], v)),
    );
  return isSecret(name, schema) && typeof value === 'string' && value !== '' && !isEncrypted(value);
}

/** The top-level fields of an object that hold a secret in plain text (not `ENC ...`), in list entries too. */
export function plainSecretFields(fields: TableDef['fields'] | undefined, object: Obj): string[] {
  return Object.keys(object).filter((name) => holdsPlainSecret(name, fields?.[name], object[name]));
}
