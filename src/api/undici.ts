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

/**
 * undici's package entry also loads fetch, WebSocket, EventSource, the caches and the mocks: ~50 ms of
 * every run that talks to a device (`npm run bench`). The client needs only Agent, the connector and
 * `request`, so those are loaded from their own modules (the package has no exports map that forbids
 * it). Should a release move them, the package entry is used instead, at the old cost.
 */
export function undici(): Transport {
  if (transport) return transport;
  try {
    const api = load('undici/lib/api/index.js') as { request: (this: Dispatcher, options: Dispatcher.RequestOptions) => Promise<Dispatcher.ResponseData> };
    transport = {
      Agent: load('undici/lib/dispatcher/agent.js') as typeof Agent,
      buildConnector: load('undici/lib/core/connect.js') as typeof buildConnector,
      // What Dispatcher.prototype.request is once the package entry has run.
      request: (dispatcher, options) => api.request.call(dispatcher, options),
    };
  } catch {
    const entry = load('undici') as typeof import('undici');
    transport = { Agent: entry.Agent, buildConnector: entry.buildConnector, request: (dispatcher, options) => dispatcher.request(options) };
  }
  return transport;
}
