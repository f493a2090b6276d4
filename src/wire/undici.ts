// undici's classes the client uses, each from its own file. Its index loads the whole library
// (fetch, WebSocket, caches, cookies, and through them Node's own copy of undici): some 40 ms of
// every run's start-up for nothing it sends. The types are the index's; a file moved by an
// upgrade of the locked version fails at the first import, in every test.
import { createRequire } from 'node:module';
import type * as Undici from 'undici';

const require = createRequire(import.meta.url);

export const Agent = require('undici/lib/dispatcher/agent.js') as typeof Undici.Agent;
export const Client = require('undici/lib/dispatcher/client.js') as typeof Undici.Client;
export const Dispatcher = require('undici/lib/dispatcher/dispatcher.js') as typeof Undici.Dispatcher;
export const buildConnector = require('undici/lib/core/connect.js') as typeof Undici.buildConnector;
// As the index does: a proxy's agent tunnels with dispatcher.connect(), one of these.
Object.assign(Dispatcher.prototype, require('undici/lib/api/index.js'));
/** Loaded only for a run whose environment names a proxy. */
export const envHttpProxyAgent = (): typeof Undici.EnvHttpProxyAgent =>
  require('undici/lib/dispatcher/env-http-proxy-agent.js') as typeof Undici.EnvHttpProxyAgent;

export type Agent = Undici.Agent;
export type Client = Undici.Client;
export type Dispatcher = Undici.Dispatcher;
export declare namespace Agent {
  type Options = Undici.Agent.Options;
}
export declare namespace Client {
  type Options = Undici.Client.Options;
}
export declare namespace Dispatcher {
  type DispatchOptions = Undici.Dispatcher.DispatchOptions;
  type DispatchHandler = Undici.Dispatcher.DispatchHandler;
}
export declare namespace buildConnector {
  type connector = Undici.buildConnector.connector;
}
