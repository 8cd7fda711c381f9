import type { FieldSchema, TableDef } from '../../src/catalogue/index.js';

/** A valid value for a field that differs from `current` where the schema allows it. */
export function sampleValue(schema: FieldSchema, current?: unknown): unknown {
  if (schema.type === 'integer') {
    const min = schema.minimum ?? 0;
    const max = schema.maximum ?? min + 1000;
    const pick = Math.min(max, min + 7);
    return pick === current ? Math.min(max, min + 3) : pick;
  }
  if (schema.type === 'array') return [];
  if (schema.enum) return schema.enum.find((v) => v !== current) ?? schema.enum[0];
  if (schema.format === 'ipv4') return '192.0.2.77';
  if (schema.format?.includes('ipv4') || schema.format === 'ipv4-classnet') return '192.0.2.0 255.255.255.0';
  if (schema.format === 'mac-address') return '00:11:22:33:44:77';
  if (schema.format) return undefined;
  return 'e2e'.slice(0, schema.maxLength ?? 3);
}

/** A field of the table that `--set` can change to a valid new value: an enum, else a plain string. */
export function settableField(
  table: TableDef,
  current: Record<string, unknown> = {},
): { name: string; value: unknown } | undefined {
  const fields = Object.entries(table.fields).filter(([name]) => name !== table.key);
  const order = [
    fields.find(([, f]) => f.type === 'string' && f.enum && f.enum.length > 1),
    fields.find(([, f]) => f.type === 'string' && !f.enum && !f.format && (f.maxLength ?? 10) >= 3),
    fields.find(([, f]) => f.type === 'integer'),
    fields.find(([, f]) => f.type === 'array'),
  ];
  for (const entry of order) {
    if (!entry) continue;
    const value = sampleValue(entry[1], current[entry[0]]);
    if (value !== undefined) return { name: entry[0], value };
  }
  return undefined;
}

/** `--set` text for a sample value: lists as JSON. */
export function setArg(field: { name: string; value: unknown }): string {
  return `${field.name}=${typeof field.value === 'object' ? JSON.stringify(field.value) : String(field.value)}`;
}

/** A key not in use yet. */
export function newKey(table: TableDef, existing: unknown[]): string | number {
  if (table.keyType === 'integer') {
    const max = table.key ? table.fields[table.key]?.maximum : undefined;
    const used = existing.map(Number).filter(Number.isFinite);
    const next = (used.length ? Math.max(...used) : 0) + 11;
    return max !== undefined ? Math.min(next, max) : next;
  }
  return `e2e-${table.path.split('/').pop()}`.slice(0, table.key ? (table.fields[table.key]?.maxLength ?? 35) : 35);
}
