// The parts of undici the client uses (an Agent, its connector, request), handed in by its caller
// (the CLI's bundle) or loaded from the package.
import { createRequire } from 'node:module';
import type { Agent, Dispatcher, buildConnector } from 'undici';

/**
 * What a client sends its requests with: undici's Agent (one keep-alive pool per client), its connector
 * (TLS options, a pinned certificate) and `request`. A caller may give its own (ClientOptions.transport:
 * the CLI gives the copy of these parts it loads); without one, defaultTransport().
 */
export interface Transport {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  request(dispatcher: Dispatcher, options: Dispatcher.RequestOptions): Promise<Dispatcher.ResponseData>;
}

/**
 * The exports of undici's three modules: `request` is what Dispatcher.prototype.request is once the
 * package entry has run.
 */
export interface UndiciParts {
  Agent: typeof Agent;
  buildConnector: typeof buildConnector;
  request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData>;
}

/** A transport of those three parts, wherever they were loaded from. */
export function transportFrom(parts: UndiciParts): Transport {
  return {
    Agent: parts.Agent,
    buildConnector: parts.buildConnector,
    request: (dispatcher, options) => parts.request.call(dispatcher, options),
  };
}

const load = createRequire(import.meta.url);

/**
 * undici's package entry also loads fetch, WebSocket, EventSource, the caches and the mocks: ~50 ms of
 * every run that talks to a device (`npm run bench`). The client needs only Agent, the connector and
 * `request`, so those are loaded from their own modules (the package has no exports map that forbids
 * it); of the request API only `request` (not stream, pipeline, upgrade, connect). Throws should a
 * release move them.
 */
export function undiciParts(): UndiciParts {
  return {
    request: load('undici/lib/api/api-request.js') as UndiciParts['request'],
    Agent: load('undici/lib/dispatcher/agent.js') as typeof Agent,
    buildConnector: load('undici/lib/core/connect.js') as typeof buildConnector,
  };
}

let transport: Transport | undefined;

/** The transport of a client given none: undici's parts from their own modules, else its package entry. */
export function defaultTransport(): Transport {
  if (transport) return transport;
  try {
    transport = transportFrom(undiciParts());
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
