// Building blocks for broken and variant servers: each wraps the reference handler, so the
// reference server stays pure and a fault is a few lines naming the requirement it breaks.
import type { Handler, ReferenceOptions, ServerRequest, ServerResponse } from '../../src/reference-server/handler.js';
import type { RunConfig } from '../../src/config/config.js';
import type { RequirementId } from '../../src/checks/requirement.js';
import { parseJson, stringifyJson } from '../../src/wire/json.js';

/** Wraps the reference handler; `apiKey` is the key it accepts, for faults that bypass authentication. */
export type Wrap = (inner: Handler, apiKey: string) => Handler;

/** How to build one server for a harness run: the reference handler, wrapped and configured. */
export interface ServerSetup {
  wrap: Wrap;
  /** Options for the reference handler underneath (a clock, the first id, the base path). */
  options?: Partial<ReferenceOptions>;
  /** What the suite is told (e.g. its clock); the target and key are always the harness's. */
  config?: Partial<RunConfig>;
  /**
   * Runs before the suite starts, against the wrapped handler directly (no HTTP), e.g. to fill
   * the store with pets written "by others": the suite never sees these as its own writes.
   */
  prepare?: (server: PreparedServer) => Promise<void>;
}

export interface PreparedServer {
  handler: Handler;
  apiKey: string;
  /** Where the operations live, e.g. `/v1`. */
  basePath: string;
}

/** A deliberately broken server: it breaks exactly one rule, named by the requirement that must catch it. */
export interface Fault extends ServerSetup {
  /** Short kebab-case name, unique. */
  name: string;
  /** The requirement id that must catch it. */
  breaks: RequirementId;
  /** What the server does wrong, in plain words. */
  does: string;
  /**
   * Requirements whose checks provoke the answers the fault spoils, run beside `breaks` when only
   * that is run (a rule judging every answer of the run, e.g. errors.body). Never credit: the
   * fault is caught only when `breaks` fails.
   */
  alongside?: readonly RequirementId[];
  /**
   * Requirements its evidence must not be filed under (a misreading the story once told): in its
   * whole-catalogue run none of them is a violation, nor named first.
   */
  notUnder?: readonly RequirementId[];
  /**
   * Why what else it breaks depends on timing (a race the fault models: load, a coarse clock) or
   * on the inputs a seed draws (a knock-on only some lists show): across seeds only its own
   * requirement is compared, which must fail with every one.
   */
  racy?: string;
  /**
   * Why its failures are grouped differently from seed to seed although the same ones fail (which
   * rule a generated input's evidence breaks depends on where its ids land): across seeds the
   * failed requirements are compared, not their grouping.
   */
  groupingVaries?: string;
}

/** A correct server that makes a different allowed choice: the suite must report no MUST failure. */
export interface Variant extends ServerSetup {
  /** Short kebab-case name, unique. */
  name: string;
  /** The allowed choice this server makes where the interface is silent. */
  does: string;
}

export type Operation = 'listPets' | 'createPet' | 'getPet';

/** Which operation a request is for (undefined for anything else). */
export function operationOf(req: ServerRequest): Operation | undefined {
  const path = new URL(req.url, 'http://x').pathname;
  if (/\/pets$/.test(path)) return req.method === 'GET' ? 'listPets' : req.method === 'POST' ? 'createPet' : undefined;
  if (/\/pets\/[^/]+$/.test(path) && req.method === 'GET') return 'getPet';
  return undefined;
}

/** A path the interface has an operation on (`/pets` or `/pets/{petId}`), whatever the method. */
export const isRoute = (req: ServerRequest): boolean => /\/pets(\/[^/]+)?$/.test(new URL(req.url, 'http://x').pathname);

/** A URL with malformed percent-encoding (`%ZZ`), which many HTTP layers answer before the application. */
export const badPercentEncoding = (req: ServerRequest): boolean => /%(?![0-9A-Fa-f]{2})/.test(req.url);

/** A framework's own error page, as HTML (or plain text). */
export const frameworkPage = (
  status: number,
  title: string,
  type: 'text/html' | 'text/plain' = 'text/html',
): ServerResponse => ({
  status,
  headers: { 'content-type': `${type}; charset=utf-8` },
  body:
    type === 'text/html'
      ? `<!DOCTYPE html><html><head><title>${status} ${title}</title></head><body><h1>${title}</h1></body></html>`
      : `${status} ${title.toLowerCase()}`,
});

export const isOp =
  (...ops: Operation[]) =>
  (req: ServerRequest) => {
    const op = operationOf(req);
    return op !== undefined && ops.includes(op);
  };

/** Rewrites responses (optionally only for requests matching `when`). */
export const mapResponse =
  (
    fn: (res: ServerResponse, req: ServerRequest) => ServerResponse,
    when: (req: ServerRequest) => boolean = () => true,
  ): Wrap =>
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
  (
    when: (req: ServerRequest) => boolean,
    fn: (req: ServerRequest, inner: Handler) => ServerResponse | Promise<ServerResponse>,
  ): Wrap =>
  (inner) =>
  (req) =>
    when(req) ? fn(req, inner) : inner(req);

/** Rewrites the JSON body of responses (parsed losslessly). */
export const mapJson = (
  fn: (body: unknown, res: ServerResponse, req: ServerRequest) => unknown,
  when?: (req: ServerRequest) => boolean,
): Wrap =>
  mapResponse((res, req) => {
    if (!res.body) return res;
    return { ...res, body: stringifyJson(fn(parseJson(res.body), res, req)) };
  }, when);

export const withQuery = (req: ServerRequest, edit: (q: URLSearchParams) => void): ServerRequest => {
  const url = new URL(req.url, 'http://x');
  edit(url.searchParams);
  return { ...req, url: `${url.pathname}${url.search}` };
};

export const compose =
  (...wraps: Wrap[]): Wrap =>
  (inner, apiKey) =>
    wraps.reduceRight((h, w) => w(h, apiKey), inner);

/** The request as if it carried the right key. */
export const authenticated = (req: ServerRequest, apiKey: string): ServerRequest => ({
  ...req,
  headers: { ...req.headers, authorization: `Bearer ${apiKey}` },
});

/** Rewrites the JSON body of requests (parsed losslessly); bodies that are not JSON pass unchanged. */
export const mapRequestJson = (
  fn: (body: unknown, req: ServerRequest) => unknown,
  when: (req: ServerRequest) => boolean = () => true,
): Wrap =>
  mapRequest((req) => {
    let body: unknown;
    try {
      body = parseJson(req.body);
    } catch {
      return req;
    }
    return { ...req, body: stringifyJson(fn(body, req)) };
  }, when);

/** Whether a text is JSON as JSON.parse reads it. */
export function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON object (not an array, not null). */
export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Applies `fn` to the Pet(s) in a response body: a list's items, or the single Pet. */
export const eachPet = (body: unknown, fn: (pet: Record<string, unknown>) => Record<string, unknown>): unknown =>
  Array.isArray(body) ? body.map((p) => (isObject(p) ? fn(p) : p)) : isObject(body) && 'id' in body ? fn(body) : body;
