#!/usr/bin/env node
// Build step (after tsc): the command-line program as five CommonJS files in dist/src/bundle/, so that a
// run reads and compiles a few files instead of linking some 30 ES modules and 25 of undici's one by one
// (the measured floor of every start, docs/dev/performance.md):
//   quick.cjs     --version and --help from the pre-rendered text (src/cli/quick.ts);
//   complete.cjs  Tab completion (`cmdb __complete`) when it needs neither a device nor the profile file
//                 (src/completion/quick.ts), else cli.cjs answers;
//   early.cjs     on a Tab's key cache miss, the keychain read started before cli.cjs loads
//                 (src/device/early.ts);
//   cli.cjs       everything else: main() from src/cli/main.ts, and earlySettingsOf() for the launcher;
//   undici.cjs    the parts of undici the client uses, without its HTTP/2 client: cli.cjs require()s it
//                 where src/device/connect.ts loads the CLI's HTTP stack.
// bin/cmdb.js, the launcher, loads them all (loadBundle): cli.cjs and undici.cjs with the V8 code cache
// written here beside each (.cache, trained: see below), so that V8 does not parse them again on every
// run; the others as Node requires any file. Each file ships its source map (.map, to the TypeScript
// sources through tsc's maps; sources not inlined), which the launcher reads only in a --verbose run, to
// name src/ files in stack traces. The library export (dist/src/index.js) is not bundled and knows
// nothing of this: it loads undici from the package unless given a transport.
//
// What stays lazy: esbuild wraps each module that the sources import with import() in a function run
// at the first import() (commands, formatters, the emulator, the HTTP stack...), and the packages and
// Node built-ins such a module imports are require()d inside that function, so they load only when it
// runs. The packages stay outside cli.cjs (commander, undici, yaml, chalk, @napi-rs/keyring) and load
// from node_modules, or undici from undici.cjs. An import() left in the output of a built-in, of yaml
// (CommonJS under Node) or of early.cjs becomes a require() there, so that no run starts Node's ES
// module loader for it; the one of chalk (an ES module, which require() cannot load before Node 20.19)
// becomes a call of the launcher's import function, as a script compiled with a code cache cannot
// import() by itself in Node 20. Those rewrites keep every line where it was (the maps stay right to
// the line; a column after one on the same line is off by the few characters added).
//
// import.meta.url is the bundle's own URL: every module that locates a file by it (the catalogue,
// package.json, help.json, the keychain helper) names it from dist/src/<folder>/, the depth of
// dist/src/bundle/, so the same relative URL works from the bundle and from the compiled tree.
//
// dist/src/bundle/meta.json lists the modules in each bundle file, for the tests that trace which
// modules a run loads.
import { createHash } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
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
  metafile: true,
  write: false,
  logLevel: 'warning',
  // A map beside each file (linked by its last line), to the TypeScript sources through tsc's maps.
  sourcemap: 'linked',
  sourcesContent: false,
};

const meta = {};

async function bundle(name, options) {
  const result = await build({ ...common, ...options, outfile: join(outdir, name) });
  const output = result.outputFiles.find((f) => f.path.endsWith(name));
  const map = result.outputFiles.find((f) => f.path.endsWith(`${name}.map`));
  const [info] = Object.entries(result.metafile.outputs)
    .find(([path]) => path.endsWith(name))
    .slice(1);
  let text = output.text;
  // Every import() left is of a package or built-in outside the bundle. A built-in, a package that
  // Node loads as CommonJS (yaml), or early.cjs beside it, is required where the import() was, so a run that needs one
  // does not start Node's ES module loader; any other (chalk, an ES module only) is the loader's
  // import().
  const external = info.imports.filter((i) => i.kind === 'dynamic-import' && i.external).length;
  let replaced = 0;
  text = text.replace(
    /\bimport\(("(?:node:[^"]+|yaml|\.\/early\.cjs)")\)/g,
    (_, specifier) => (replaced++, `Promise.resolve().then(() => require(${specifier}))`),
  );
  text = text.replace(/\bimport\((?=")/g, () => (replaced++, '__cmdbImport('));
  if (replaced !== external) throw new Error(`${name}: ${replaced} import() calls replaced, ${external} expected`);
  // ASCII only (esbuild escapes strings, not the comments it keeps): V8 holds the source of a run's
  // script for as long as it runs, two bytes a character if a single one is not Latin-1.
  text = text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  meta[name] = Object.keys(info.inputs)
    .filter((p) => p !== '<stdin>')
    .map((p) => relative(root, join(root, p)));
  return { text, map: JSON.parse(map.text) };
}

function write(name, data) {
  const file = join(outdir, name);
  writeFileSync(`${file}.tmp`, data);
  renameSync(`${file}.tmp`, file);
}

/** Writes a file of the bundle and its source map. */
function writeBundle(name, { text, map }) {
  write(`${name}.map`, JSON.stringify(map));
  write(name, text);
}

/**
 * Writes a file bin/cmdb.js runs with a code cache. Its first line names its build (its map shifted by
 * that line); the cache is that line, the checksum of V8's data, then the data (bin/cmdb.js uses it only
 * when both match: V8 itself would check only the source's length).
 */
async function writeWithCache(name, { text, map }, { train } = {}) {
  const id = createHash('sha256').update(text).digest('hex').slice(0, 16);
  const source = `// cmdb ${id}\n${text}`;
  writeBundle(name, { text: source, map: { ...map, mappings: `;${map.mappings}` } });
  const file = join(outdir, name);
  // Run by the launcher's own loader, as a run runs it (a file whose loading has no effect but defining
  // things): the cache then holds the compiled modules, not only the outer function.
  const { runBundleFile, checksum } = createRequire(import.meta.url)('../bin/cmdb.js');
  const { module, script } = runBundleFile(file, source);
  // Train: exercise the loaded file, so that the functions a run calls come compiled too. A training
  // that fails leaves a cache of what did run (a warning, not a failed build).
  if (train)
    await train(module.exports).catch((err) =>
      process.stderr.write(`warning: ${name}'s code cache not trained: ${err.message}\n`),
    );
  const data = script.createCachedData();
  write(`${name}.cache`, Buffer.concat([Buffer.from(`// cmdb ${id}\n${checksum(data)}\n`), data]));
}

const program = {
  packages: 'external',
  // A class's name is part of what it does (errors take new.target.name): kept where esbuild renames
  // it (`var ApiError = class _ApiError`, in a module run at its first import()).
  keepNames: true,
  // import.meta.url: the bundle file's URL.
  define: { 'import.meta.url': '__cmdbModuleUrl' },
  banner: { js: "var __cmdbModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
};
writeBundle('quick.cjs', await bundle('quick.cjs', { ...program, entryPoints: [join(root, 'dist/src/cli/quick.js')] }));
// What completion reads on every Tab: the engine, the catalogue, the command registry and the key cache.
// The registry's commands (load() imports each one's module) and the formatters are never run there:
// each import() becomes a module that throws, so none of them is in the file. One import() is kept: on
// a key cache miss, the start of the credential's keychain read (src/device/early.ts, with the profile
// file's reader), run before the program loads, from a file of its own (early.cjs): a Tab the cache
// answers neither runs nor compiles it (complete.cjs loaded ~0.5 ms slower with it inside).
const noImports = {
  name: 'no-imports',
  setup(b) {
    b.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind !== 'dynamic-import') return undefined;
      if (args.path === '../device/early.js') return { path: './early.cjs', external: true };
      return { path: args.path, namespace: 'not-in-complete' };
    });
    b.onLoad({ filter: /.*/, namespace: 'not-in-complete' }, () => ({
      contents: "throw new Error('not in complete.cjs');",
      loader: 'js',
    }));
  },
};
// Required as it is, like quick.cjs: at its size (~60 KB) a code cache costs more to load (node:vm,
// node:module) than V8's lazy compile of the functions a Tab runs.
// The program model (src/completion/program.ts) generated here from the registry, as data: neither the
// registry nor the code that turns it into the model runs on a Tab (in complete.cjs and cli.cjs).
const { completionModel } = await import(join(root, 'dist/src/completion/model.js'));
const modelAsData = {
  name: 'model-as-data',
  setup(b) {
    b.onLoad({ filter: /[\\/]dist[\\/]src[\\/]completion[\\/]program\.js$/ }, () => ({
      contents: `export const PROGRAM = JSON.parse(${JSON.stringify(JSON.stringify(completionModel()))});`,
      loader: 'js',
    }));
  },
};
writeBundle(
  'complete.cjs',
  await bundle('complete.cjs', {
    ...program,
    entryPoints: [join(root, 'dist/src/completion/quick.js')],
    plugins: [noImports, modelAsData],
  }),
);
writeBundle(
  'early.cjs',
  await bundle('early.cjs', { ...program, entryPoints: [join(root, 'dist/src/device/early.js')] }),
);
// The model as data there too: a Tab that falls through to the program (keys not cached) builds nothing.
// Run for its cache: loading cli.cjs only defines its modules (main() is called by bin/cmdb.js), and
// the cache then holds the ones every run initialises, which V8 would otherwise compile from the
// source on each run (~2 ms of the ~5 ms the file took to initialise; the cache grows by ~45 KB).
/**
 * Trains cli.cjs's cache: the commands a script or a Tab runs most (the catalogue, a read, a list, a key
 * completion) against the emulator on loopback, in a throwaway HOME, their output thrown away. The cache
 * then holds the functions of those paths compiled (~360 KB instead of ~200), which V8 would otherwise
 * compile from the source on every run: with undici.cjs trained too, a token `get` took ~0.87 of its
 * time, a keychain `get` ~0.89, a cold Tab ~0.92, `tables` ~0.9, paired against the untrained build.
 */
async function someCommands({ main }) {
  const { startEmulator } = await import(join(root, 'dist/src/emulator/index.js'));
  const { mkdtempSync } = await import('node:fs');
  const { tmpdir } = await import('node:os');
  const { PassThrough } = await import('node:stream');
  const emu = await startEmulator({ port: 0, seed: 'demo' });
  const home = mkdtempSync(join(tmpdir(), 'cmdb-build-'));
  const env = {
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'c'),
    XDG_STATE_HOME: join(home, 's'),
    XDG_CACHE_HOME: join(home, 'k'),
    CMDB_HOST: emu.url,
    CMDB_TOKEN: emu.token,
  };
  const io = () => ({
    stdout: new PassThrough().resume(),
    stderr: new PassThrough().resume(),
    stdin: new PassThrough(),
  });
  try {
    const commands = [
      ['tables', '-o', 'json'],
      ['get', 'log.disk/setting', '-o', 'json'],
      ['list', 'firewall.ipmacbinding/table', '-o', 'table'],
      ['__complete', 'bash', '--', 'cmdb get router/access-list '],
    ];
    for (const argv of commands) await main(argv, io(), env);
  } finally {
    // connect() set V8's --liftoff-only, as in every run that talks to a device, but after the program
    // and undici have loaded: their caches must be made under V8's defaults (the flag and what it implies).
    (await import('node:v8')).setFlagsFromString('--no-liftoff-only --wasm-tier-up --wasm-dynamic-tiering');
    await emu.close();
    rmSync(home, { recursive: true, force: true });
  }
}
// The three modules undiciParts() loads (src/api/undici.ts), as it loads them, with undici's HTTP/2 client
// (which loads node:http2) replaced by a stub: the program never asks undici for HTTP/2. Built before
// cli.cjs, whose training loads it.
const withoutHttp2 = {
  name: 'without-http2',
  setup(b) {
    b.onResolve({ filter: /^\.\/client-h2\.js$/ }, () => ({ path: 'client-h2', namespace: 'without-http2' }));
    b.onLoad({ filter: /.*/, namespace: 'without-http2' }, () => ({
      contents: "module.exports = function connectH2() { throw new Error('HTTP/2 is not used by this client'); };",
      loader: 'js',
    }));
  },
};
const parts =
  "module.exports = { Agent: require('undici/lib/dispatcher/agent.js'), buildConnector: require('undici/lib/core/connect.js'), request: require('undici/lib/api/api-request.js') };";
// Trained by one request to a local server: the functions of a request (the pool, the connector, the
// HTTP/1.1 client, the body) come compiled, where V8 would compile them from the source on each run.
async function oneRequest({ Agent, request }) {
  const { createServer } = await import('node:http');
  const server = createServer((_req, res) => res.setHeader('content-type', 'application/json').end('{"results":[]}'));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const agent = new Agent();
  try {
    const res = await request.call(agent, {
      origin: `http://127.0.0.1:${server.address().port}`,
      path: '/api/v2/cmdb/system/status',
      method: 'GET',
      headers: { accept: 'application/json' },
    });
    await res.body.text();
  } finally {
    await agent.close();
    await new Promise((resolve) => server.close(resolve));
  }
}
await writeWithCache(
  'undici.cjs',
  await bundle('undici.cjs', {
    stdin: { contents: parts, resolveDir: join(root, 'dist/src/api'), loader: 'js' },
    plugins: [withoutHttp2],
  }),
  { train: oneRequest },
);

// The program's entry: main(), and for the launcher the early reading of argv and the environment (a
// --verbose run maps its stack traces to the sources).
const cliEntry = "export { main, earlySettingsOf } from './main.js';";
// undici.cjs is required beside cli.cjs, where src/device/connect.ts loads the CLI's HTTP stack.
const undiciBeside = {
  name: 'undici-beside',
  setup(b) {
    b.onResolve({ filter: /^\.\/undici\.cjs$/ }, (args) => ({ path: args.path, external: true }));
  },
};
await writeWithCache(
  'cli.cjs',
  await bundle('cli.cjs', {
    ...program,
    stdin: { contents: cliEntry, resolveDir: join(root, 'dist/src/cli'), loader: 'js', sourcefile: 'cli.js' },
    plugins: [modelAsData, undiciBeside],
  }),
  { train: someCommands },
);

write('meta.json', JSON.stringify(meta, null, 1));
process.stdout.write(`bundled ${Object.values(meta).flat().length} modules into ${relative(root, outdir)}/\n`);
