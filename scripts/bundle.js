#!/usr/bin/env node
// Build step (after tsc): the command-line program as two CommonJS files, so that a run reads, compiles
// and links two files instead of some 30 ES modules one by one through Node's ESM loader (the measured
// floor of every start, README "Performance"):
//   dist/src/bundle/quick.cjs  --version and --help from the pre-rendered text (src/cli/quick.ts);
//   dist/src/bundle/cli.cjs    everything else, from src/cli/main.ts.
// bin/cmdb.js loads cli.cjs with the V8 code cache written here (cli.cjs.cache), so that V8 does not
// parse the bundle again on every run. The library export (dist/src/index.js) is not bundled.
//
// What stays lazy: esbuild wraps each module that the sources import with import() in a function run
// at the first import() (commands, formatters, the emulator, the HTTP stack...), and the packages and
// Node built-ins such a module imports are require()d inside that function, so they load only when it
// runs. The packages stay outside the bundle (commander, undici, yaml, chalk, @napi-rs/keyring) and
// load from node_modules as before. An import() of a package left in the output (chalk is an ES
// module, which require() cannot load before Node 20.19) becomes a call of the loader's import
// function, as a script compiled with a code cache cannot import() by itself in Node 20.
//
// import.meta.url is the bundle's own URL: every module that locates a file by it (the catalogue,
// package.json, help.json, the keychain helper) names it from dist/src/<folder>/, the depth of
// dist/src/bundle/, so the same relative URL works from the bundle and from the compiled tree.
//
// dist/src/bundle/meta.json lists the source modules of each bundle file, for the tests that trace
// which modules a run loads.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { Script } from 'node:vm';
import { build } from 'esbuild';

const root = fileURLToPath(new URL('..', import.meta.url));
const outdir = join(root, 'dist/src/bundle');
rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

const common = {
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  packages: 'external',
  metafile: true,
  write: false,
  logLevel: 'warning',
  define: { 'import.meta.url': '__cmdbModuleUrl' },
  banner: { js: "var __cmdbModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};

const meta = {};

async function bundle(entry, name) {
  const result = await build({ ...common, entryPoints: [join(root, entry)], outfile: join(outdir, name) });
  const [output] = result.outputFiles;
  const [info] = Object.values(result.metafile.outputs);
  let text = output.text;
  // Every import() left is of a package or built-in outside the bundle: the loader's import instead.
  const external = info.imports.filter((i) => i.kind === 'dynamic-import' && i.external).length;
  let replaced = 0;
  text = text.replace(/\bimport\((?=")/g, () => (replaced++, '__cmdbImport('));
  if (replaced !== external) throw new Error(`${name}: ${replaced} import() calls replaced, ${external} expected`);
  meta[name] = Object.keys(info.inputs).map((p) => relative(root, join(root, p)));
  return text;
}

function write(name, data) {
  const file = join(outdir, name);
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

write('quick.cjs', await bundle('dist/src/cli/quick.js', 'quick.cjs'));

// The bundle's first line names its build. Its cache: that line, the checksum of V8's data, the data
// (bin/cmdb.js uses it only when both match: V8 itself would check only the source's length).
const body = await bundle('dist/src/cli/main.js', 'cli.cjs');
const id = createHash('sha256').update(body).digest('hex').slice(0, 16);
const source = `// cmdb ${id}\n${body}`;
write('cli.cjs', source);
const { wrap, checksum } = createRequire(import.meta.url)('../bin/cmdb.js');
const data = new Script(wrap(source), { filename: join(outdir, 'cli.cjs') }).createCachedData();
write('cli.cjs.cache', Buffer.concat([Buffer.from(`// cmdb ${id}\n${checksum(data)}\n`), data]));

write('meta.json', JSON.stringify(meta, null, 1));
process.stdout.write(`bundled ${Object.values(meta).flat().length} modules into ${relative(root, outdir)}/ (${Math.round(source.length / 1024)} KB)\n`);
