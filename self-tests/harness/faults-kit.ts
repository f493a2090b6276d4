// Building blocks for broken and variant servers: each wraps the reference handler, so the
// reference server stays pure and a fault is a few lines naming the requirement it breaks.
import type { Handler, ReferenceOptions, ServerRequest, ServerResponse } from '../../src/reference-server/handler.js';
import { parseJson, stringifyJson } from '../../src/json.js';

/** Wraps the reference handler; `apiKey` is the key it accepts, for faults that bypass authentication. */
export type Wrap = (inner: Handler, apiKey: string) => Handler;

export interface Fault {
  /** Short kebab-case name, unique. */
  name: string;
  /** The requirement id that must catch it. */
  breaks: string;
  /** What the server does wrong, in plain words. */
  does: string;
  wrap: Wrap;
  /** Options for the reference handler underneath (e.g. a clock). */
  options?: Partial<ReferenceOptions>;
}

export interface Variant {
  name: string;
  /** The allowed choice this server makes where the interface is silent. */
  does: string;
  wrap: Wrap;
  options?: Partial<ReferenceOptions>;
}

export type Operation = 'listPets' | 'createPet' | 'getPet';

/** Which operation a request is for (undefined for anything else). */
export function operationOf(req: ServerRequest): Operation | undefined {
  const path = new URL(req.url, 'http://x').pathname;
  if (/\/pets$/.test(path)) return req.method === 'GET' ? 'listPets' : req.method === 'POST' ? 'createPet' : undefined;
  if (/\/pets\/[^/]+$/.test(path) && req.method === 'GET') return 'getPet';
  return undefined;
}

export const isOp = (...ops: Operation[]) => (req: ServerRequest) => {
  const op = operationOf(req);
  return op !== undefined && ops.includes(op);
};

/** Rewrites responses (optionally only for requests matching `when`). */
export const mapResponse =
  (fn: (res: ServerResponse, req: ServerRequest) => ServerResponse, when: (req: ServerRequest) => boolean = () => true): Wrap =>
  (inner) =>
  async (req) => {
    const res = await inner(req);
    return when(req) ? fn(res, req) : res;
  };

/** Rewrites requests before the reference server sees them. */
export const mapRequest =
  (fn: (req: ServerRequest) => ServerRequest, when: (req: ServerRequest) => boolean = () => true): Wrap =>
  (inner) =>
  (req) =>
    inner(when(req) ? fn(req) : req);

/** Answers some requests itself instead of the reference server. */
export const answer =
  (when: (req: ServerRequest) => boolean, fn: (req: ServerRequest, inner: Handler) => ServerResponse | Promise<ServerResponse>): Wrap =>
  (inner) =>
  (req) =>
    when(req) ? fn(req, inner) : inner(req);

/** Rewrites the JSON body of responses (parsed losslessly). */
export const mapJson = (fn: (body: unknown, res: ServerResponse, req: ServerRequest) => unknown, when?: (req: ServerRequest) => boolean): Wrap =>
  mapResponse((res, req) => {
    if (!res.body) return res;
    return { ...res, body: stringifyJson(fn(parseJson(res.body), res, req)) };
  }, when);

export const withQuery = (req: ServerRequest, edit: (q: URLSearchParams) => void): ServerRequest => {
  const url = new URL(req.url, 'http://x');
  edit(url.searchParams);
  return { ...req, url: `${url.pathname}${url.search}` };
};

export const compose = (...wraps: Wrap[]): Wrap => (inner, apiKey) => wraps.reduceRight((h, w) => w(h, apiKey), inner);

/** The request as if it carried the right key. */
export const authenticated = (req: ServerRequest, apiKey: string): ServerRequest => ({
  ...req,
  headers: { ...req.headers, authorization: `Bearer ${apiKey}` },
});
