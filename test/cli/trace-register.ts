// Preloaded with --import by startup tests: logs every module the process resolves, both through the
// ESM loader (hooks in trace-hooks.js) and through require/createRequire (CommonJS resolution). A file
// of the bundle (dist/src/bundle/, scripts/bundle.js) is logged with every source module bundled in it,
// as listed in the bundle's meta.json: a run that loads the bundle counts as loading all of them.
import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire, register } from 'node:module';
import { basename, dirname, join } from 'node:path';

register('./trace-hooks.js', import.meta.url);

type Resolve = (request: string, ...rest: unknown[]) => string;
const cjs = createRequire(import.meta.url)('node:module') as { _resolveFilename: Resolve };
const resolveFilename = cjs._resolveFilename;
cjs._resolveFilename = function (this: unknown, request: string, ...rest: unknown[]) {
  const file = resolveFilename.call(this, request, ...rest);
  if (process.env.CMDB_TRACE_FILE)
    appendFileSync(process.env.CMDB_TRACE_FILE, [file, ...bundled(file)].map((f) => `${f}\n`).join(''));
  return file;
};

/** The source modules in a file of the bundle, by absolute path; none for any other file. */
function bundled(file: string): string[] {
  if (basename(dirname(file)) !== 'bundle') return [];
  try {
    const meta = JSON.parse(readFileSync(join(dirname(file), 'meta.json'), 'utf8')) as Record<string, string[]>;
    const root = join(dirname(file), '../../..');
    return (meta[basename(file)] ?? []).map((input) => join(root, input));
  } catch {
    return [];
  }
}

// Node's own modules (node:http2...) are loaded without resolution: listed at exit from moduleLoadList.
process.on('exit', () => {
  const builtins = (process as unknown as { moduleLoadList: string[] }).moduleLoadList
    .filter((m) => m.startsWith('NativeModule '))
    .map((m) => `node:${m.slice('NativeModule '.length)}`);
  if (process.env.CMDB_TRACE_FILE) appendFileSync(process.env.CMDB_TRACE_FILE, builtins.join('\n') + '\n');
});
