import { appendFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { pathToFileURL } from 'node:url';

register('./trace-hooks.js', import.meta.url);

// require() (createRequire, used to load commander and yaml lazily) bypasses the ESM hooks above.
type Resolve = (request: string, ...rest: unknown[]) => string;
const cjs = Module as unknown as { _resolveFilename: Resolve };
const resolveFilename = cjs._resolveFilename;
cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]): string {
  const filename = resolveFilename.call(this, request, ...rest);
  if (process.env.CMDB_TRACE_FILE && filename.startsWith('/')) appendFileSync(process.env.CMDB_TRACE_FILE, `${pathToFileURL(filename).href}\n`);
  return filename;
};
