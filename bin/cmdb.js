#!/usr/bin/env node
// The launcher. CommonJS (bin/package.json): a CommonJS entry starts faster than an ES module, whose
// loader Node would set up first. The program is the bundle scripts/bundle.js writes at build time into
// dist/src/bundle/: quick.cjs answers --version and --help, complete.cjs most Tab presses (`__complete`),
// cli.cjs the rest; undici.cjs (the parts of undici the client uses) and early.cjs are required by those.
'use strict';

const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const BUNDLE = join(__dirname, '../dist/src/bundle');
/** The files the build writes a V8 code cache for (.cache beside each): the large ones, run compiled. */
const CACHED = new Set(['cli.cjs', 'undici.cjs']);

/**
 * A file of the bundle as a function of CommonJS's parameters and an import() (the build compiles the
 * same text for the cache).
 */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname, __cmdbImport) {${source}\n})`;
}

/**
 * The CRC-32 of a cache's data, as 8 hex digits: zlib's, native (node:zlib loads in under 1 ms, where
 * the same check in JavaScript took ~2.5 ms for cli.cjs's 150 KB cache, and node:crypto takes ~5 ms).
 */
function checksum(data) {
  return require('node:zlib').crc32(data).toString(16).padStart(8, '0');
}

/**
 * Runs a file of the bundle's source as Node runs a CommonJS module, compiled with V8's data when given
 * (cachedData), and returns its module and script (the build makes the cache from the script). Its
 * `require` of another file of the bundle (`./undici.cjs`, `./early.cjs`) is loadBundle(), anything else
 * Node's; its import() is this module's (a script compiled with a code cache cannot import() in Node 20).
 */
function runBundleFile(file, source, cachedData) {
  const { Script } = require('node:vm');
  const script = new Script(wrap(source), { filename: file, cachedData });
  const module = { exports: {} };
  const nodeRequire = require('node:module').createRequire(file);
  const bundleRequire = (id) => (/^\.\/[\w-]+\.cjs$/.test(id) ? loadBundle(id.slice(2)) : nodeRequire(id));
  script.runInThisContext()(
    module.exports,
    Object.assign(bundleRequire, nodeRequire),
    module,
    file,
    BUNDLE,
    (specifier) => import(specifier),
  );
  return { module, script };
}

const loaded = new Map();

/**
 * The one loader of the bundle's files: each runs once. A file with a code cache (CACHED) runs with the
 * cache the build wrote beside it, so that V8 does not parse it again. The cache file is the bundle
 * file's first line (which names its build), the checksum of the data, then V8's data: it is given to V8
 * only when both match, as V8 itself checks only the source's length, its own version and flags (a cache
 * of other flags is rejected and the source compiled as if there were none) and would crash on damaged
 * data. globalThis.cmdbCodeCache says, by file, what happened (for tests): used, rejected (by V8), none
 * (no usable cache). The others (small: a cache would cost more to load than V8's lazy compile) are
 * required as they are.
 */
function loadBundle(name) {
  if (loaded.has(name)) return loaded.get(name);
  // Resolved as Node resolves a require() (the startup tests trace resolution to see what a run loads).
  const file = require.resolve(join(BUNDLE, name));
  if (!CACHED.has(name)) {
    const exports = require(file);
    loaded.set(name, exports);
    return exports;
  }
  const source = readFileSync(file, 'utf8');
  let cachedData;
  try {
    const cache = readFileSync(`${file}.cache`);
    const header = source.slice(0, source.indexOf('\n') + 1);
    const start = header.length + 9;
    const data = cache.subarray(start);
    if (header.startsWith('// cmdb ') && cache.toString('latin1', 0, start) === `${header}${checksum(data)}\n`)
      cachedData = data;
  } catch {
    // no cache: compiled from the source
  }
  const { module, script } = runBundleFile(file, source, cachedData);
  globalThis.cmdbCodeCache = {
    ...globalThis.cmdbCodeCache,
    [name]: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used',
  };
  loaded.set(name, module.exports);
  return module.exports;
}

/**
 * --verbose (or CMDB_DEBUG): stack traces name the sources (`src/....ts`), not the bundle. V8 compiled
 * the bundle as in any run (Node maps only what its own loaders compiled, so
 * process.setSourceMapsEnabled would miss cli.cjs); a frame in a file of the bundle is mapped through the
 * source map the build wrote beside it (.map), read when a trace is first formatted.
 */
function traceSources() {
  const maps = new Map();
  const mapOf = (file) => {
    if (!maps.has(file)) {
      let map = null;
      try {
        const { SourceMap } = require('node:module');
        map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, 'utf8')));
      } catch {
        // no map: the bundle's own line
      }
      maps.set(file, map);
    }
    return maps.get(file);
  };
  const where = (site) => {
    const file = site.getFileName();
    const line = site.getLineNumber();
    const column = site.getColumnNumber();
    const text = `${site}`;
    if (!file?.startsWith(BUNDLE) || !line || !column) return text;
    const entry = mapOf(file)?.findEntry(line - 1, column - 1);
    if (!entry?.originalSource) return text;
    const source = join(BUNDLE, entry.originalSource);
    return text.replace(`${file}:${line}:${column}`, `${source}:${entry.originalLine + 1}:${entry.originalColumn + 1}`);
  };
  Error.prepareStackTrace = (error, sites) =>
    [Error.prototype.toString.call(error), ...sites.map((site) => `    at ${where(site)}`)].join('\n');
}

/**
 * Ends the process with the run's exit code once what it printed has been written. main() has awaited
 * all of its work by then (answers, writes, saved state, logouts, closed connections); what the event
 * loop would still wait for is the connections' sockets closing (~2.5 ms of a run that talked to a
 * device), and an early keychain read nobody took.
 */
function exitWhenWritten(code) {
  process.exitCode = code;
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
}

function runProgram(argv) {
  const program = loadBundle('cli.cjs');
  if (program.earlySettingsOf(argv, process.env).verbose) traceSources();
  program.main(argv).then(exitWhenWritten);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  // Tab: complete.cjs answers what needs no device (a warm key cache too), else the program does.
  if (argv[0] === '__complete')
    loadBundle('complete.cjs')
      .completeQuickly(argv.slice(1))
      .then((done) => done || runProgram(argv));
  else if (!loadBundle('quick.cjs').answerQuickly(argv)) runProgram(argv);
}

module.exports = { wrap, checksum, runBundleFile, loadBundle };
