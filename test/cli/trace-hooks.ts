// Module-resolution hooks that log every resolved URL to CMDB_TRACE_FILE (used by startup.test.ts).
import { appendFileSync } from 'node:fs';

type Next = (specifier: string, context: unknown) => Promise<{ url: string }>;

export async function resolve(specifier: string, context: unknown, next: Next): Promise<{ url: string }> {
  const result = await next(specifier, context);
  if (process.env.CMDB_TRACE_FILE) appendFileSync(process.env.CMDB_TRACE_FILE, `${result.url}\n`);
  return result;
}
