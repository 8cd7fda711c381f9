#!/usr/bin/env node
// CommonJS (bin/package.json): a CommonJS entry starts faster than an ES module, whose loader Node
// would set up first. The program is the bundle scripts/bundle.js writes at build time:
// dist/src/bundle/quick.cjs answers --version and --help, complete.cjs most Tab presses (`__complete`),
// dist/src/bundle/cli.cjs the rest.
'use strict';

/**
 * A file of the bundle as a function of CommonJS's parameters, an import() and this loader (the build
 * compiles the same text for the cache).
 */
function wrap(source) {
  return `(function (exports, require, module, __filename, __dirname, __cmdbImport, __cmdbLoad) {${source}\n})`;
}

/**
 * The CRC-32 of a cache's data, as 8 hex digits: zlib's, native (node:zlib loads in under 1 ms, where
 * the same check in JavaScript took ~2.5 ms for cli.cjs's 150 KB cache, and node:crypto takes ~5 ms).
 */
function checksum(data) {
  return require('node:zlib').crc32(data).toString(16).padStart(8, '0');
}

const loaded = new Map();

/**
 * Runs a file of dist/src/bundle/ once, as Node runs a CommonJS module, with the V8 code cache the
 * build wrote beside it, so that V8 does not parse it again. The cache file is the bundle file's first
 * line (which names its build), the checksum of the data, then V8's data: it is given to V8 only when
 * both match, as V8 itself checks only the source's length, its own version and flags (a cache of
 * other flags is rejected and the source compiled as if there were none) and would crash on damaged
 * data. globalThis.cmdbCodeCache says, by file, what happened (for tests): used, rejected (by V8),
 * none (no usable cache).
 */
function loadBundle(name) {
  if (loaded.has(name)) return loaded.get(name);
  const { readFileSync } = require('node:fs');
  const { Script } = require('node:vm');
  const file = require.resolve(`../dist/src/bundle/${name}`);
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
  const script = new Script(wrap(source), { filename: file, cachedData });
  globalThis.cmdbCodeCache = {
    ...globalThis.cmdbCodeCache,
    [name]: cachedData === undefined ? 'none' : script.cachedDataRejected ? 'rejected' : 'used',
  };
  const module = { exports: {} };
  const fileRequire = require('node:module').createRequire(file);
  script.runInThisContext()(
    module.exports,
    fileRequire,
    module,
    file,
    require('node:path').dirname(file),
    (specifier) => import(specifier),
    loadBundle,
  );
  loaded.set(name, module.exports);
  return module.exports;
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
  loadBundle('cli.cjs').main(argv).then(exitWhenWritten);
}

if (require.main === module) {
  const argv = process.argv.slice(2);
  // Tab: complete.cjs answers what needs no device (a warm key cache too), else the program does.
  if (argv[0] === '__complete')
    require('../dist/src/bundle/complete.cjs')
      .completeQuickly(argv.slice(1))
      .then((done) => done || runProgram(argv));
  else if (!require('../dist/src/bundle/quick.cjs').answerQuickly(argv)) runProgram(argv);
}

module.exports = { wrap, checksum, loadBundle };
