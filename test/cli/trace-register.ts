// Preloaded with --import by startup tests: logs every module the process resolves, both through the
// ESM loader (hooks in trace-hooks.js) and through require/createRequire (CommonJS resolution).
import { appendFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';

register('./trace-hooks.js', import.meta.url);

type Resolve = (request: string, ...rest: unknown[]) => string;
const cjs = createRequire(import.meta.url)('node:module') as { _resolveFilename: Resolve };
const resolveFilename = cjs._resolveFilename;
cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  const file = resolveFilename.call(this, request, ...rest);
  if (process.env.CMDB_TRACE_FILE) appendFileSync(process.env.CMDB_TRACE_FILE, `${file}\n`);
  return file;
};

// Node's own modules (node:http2...) are loaded without resolution: listed at exit from moduleLoadList.
process.on('exit', () => {
  const builtins = (process as unknown as { moduleLoadList: string[] }).moduleLoadList.filter((m) => m.startsWith('NativeModule ')).map((m) => `node:${m.slice('NativeModule '.length)}`);
  if (process.env.CMDB_TRACE_FILE) appendFileSync(process.env.CMDB_TRACE_FILE, builtins.join('\n') + '\n');
});
