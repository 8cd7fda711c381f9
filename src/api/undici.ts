import { createRequire } from 'node:module';
import type { Agent, Dispatcher, buildConnector } from 'undici';

/** The three parts of undici the client uses. */
export interface Transport {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

const load = createRequire(import.meta.url);
let transport: Transport | undefined;
let http1Only = false;

/**
 * For a process that never asks undici for HTTP/2 (the CLI: no client sets `allowH2`): its HTTP/2
 * client, which loads `node:http2` (~15 ms), is replaced by a stub before undici is loaded. Call it
 * before the first undici(); a library user's process, which may use undici's HTTP/2 elsewhere, keeps
 * the real one.
 */
export function withoutHttp2(): void {
  http1Only = true;
}

function stubHttp2Client(): void {
  const path = load.resolve('undici/lib/dispatcher/client-h2.js');
  if (load.cache[path]) return;
  const { Module } = load('node:module') as { Module: new (id: string) => NodeJS.Module };
  const stub = new Module(path);
  stub.filename = path;
  stub.loaded = true;
  // Reached only when a server negotiates h2 through ALPN, which undici offers only with allowH2.
  stub.exports = function connectH2(): never {
    throw new Error('HTTP/2 is not used by this client');
  };
  load.cache[path] = stub;
}

/**
 * undici's package entry also loads fetch, WebSocket, EventSource, the caches and the mocks: ~50 ms of
 * every run that talks to a device (`npm run bench`). The client needs only Agent, the connector and
 * `request`, so those are loaded from their own modules (the package has no exports map that forbids
 * it); of the request API only `request` (not stream, pipeline, upgrade, connect). Should a release
 * move them, the package entry is used instead, at the old cost.
 */
export function undici(): Transport {
  if (transport) return transport;
  const bundled = http1Only ? fromBundle() : undefined;
  if (bundled) return (transport = fromParts(bundled));
  try {
    if (http1Only) stubHttp2Client();
    transport = fromParts({
      request: load('undici/lib/api/api-request.js') as Parts['request'],
      Agent: load('undici/lib/dispatcher/agent.js') as typeof Agent,
      buildConnector: load('undici/lib/core/connect.js') as typeof buildConnector,
    });
  } catch {
    const entry = load('undici') as typeof import('undici');
    transport = {
      Agent: entry.Agent,
      buildConnector: entry.buildConnector,
      request: (dispatcher, options) => dispatcher.request(options),
    };
  }
  return transport;
}

/** The modules' exports: `request` is what Dispatcher.prototype.request is once the package entry has run. */
interface Parts {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

function fromParts(parts: Parts): Transport {
  return {
    Agent: parts.Agent,
    buildConnector: parts.buildConnector,
    request: (dispatcher, options) => parts.request.call(dispatcher, options),
  };
}

/**
 * Defined only in the bundled command-line program (scripts/bundle.js replaces the name): loads a file
 * of the bundle with its V8 code cache (bin/cmdb.js).
 */
declare const CMDB_LOAD_BUNDLE: ((name: string) => unknown) | undefined;

/**
 * In the bundled program, the same three modules and what they load, built into one file with the
 * HTTP/2 client left out (dist/src/bundle/undici.cjs): one file to read and, with its code cache,
 * nothing to parse, instead of some 25 modules. Undefined anywhere else, or should that file fail to load.
 */
function fromBundle(): Parts | undefined {
  if (typeof CMDB_LOAD_BUNDLE !== 'function') return undefined;
  try {
    return CMDB_LOAD_BUNDLE('undici.cjs') as Parts;
  } catch {
    return undefined;
  }
}
