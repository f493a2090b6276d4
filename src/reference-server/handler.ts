// The bundled reference implementation of the interface, as a pure function from request to
// response over an in-memory store. Broken and variant servers wrap this handler; it stays correct.
import { timingSafeEqual } from 'node:crypto';
import { INT64_MAX, INT64_MIN, parseJson, stringifyJson, type Int64 } from '../wire/json.js';
import { validate, PET_STATUSES } from '../data/schemas.js';
import type { Pet, NewPet } from '../data/generated/schema-types.js';

export interface ServerRequest {
  method: string;
  /** Path and query as received, e.g. `/v1/pets?limit=5`. */
  url: string;
  /** Lower-case names. */
  headers: Readonly<Record<string, string | undefined>>;
  body: string;
}

export interface ServerResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Handler = (req: ServerRequest) => ServerResponse | Promise<ServerResponse>;

export interface ReferenceOptions {
  apiKey: string;
  /** Path prefix the operations live under. */
  basePath?: string;
  /** The server's clock, for the removal date of getPet. */
  now?: () => Date;
  /** First id handed out. */
  firstId?: bigint;
  /** Largest request body accepted, in bytes; larger ones get 413 (default 1 MiB). */
  maxBodyBytes?: number;
}

export const LIMIT = { min: 1, max: 100, default: 20 } as const;
/** The reference server's request-size limit (the interface leaves it open): 1 MiB. */
export const DEFAULT_MAX_BODY_BYTES = 1 << 20;
/** getPet deprecation (RFC 9745) and removal (RFC 8594) dates. */
export const DEPRECATED_AT = new Date('2025-01-01T00:00:00Z');
export const REMOVAL_AT = new Date('2030-12-05T00:00:00Z');
const REALM = 'petstore';

export function errorResponse(
  status: number,
  code: string,
  message: string,
  headers: Record<string, string> = {},
): ServerResponse {
  return json(status, { code, message, status }, headers);
}

export function json(status: number, body: unknown, headers: Record<string, string> = {}): ServerResponse {
  return { status, headers: { 'content-type': 'application/json', ...headers }, body: stringifyJson(body) };
}

function keyMatches(token: string, key: string): boolean {
  const a = Buffer.from(token);
  const b = Buffer.from(key);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** RFC 6750 §3: a challenge on every 401; `error="invalid_token"` only when a token was sent. */
function authenticate(header: string | undefined, apiKey: string): ServerResponse | undefined {
  const match = /^Bearer +(\S*) *$/i.exec(header ?? '');
  const token = match?.[1] ?? '';
  if (match && token && keyMatches(token, apiKey)) return undefined;
  const challenge = match && token ? `Bearer realm="${REALM}", error="invalid_token"` : `Bearer realm="${REALM}"`;
  const message = header === undefined ? 'Missing Authorization header' : 'Missing or invalid API key';
  return errorResponse(401, 'unauthorized', message, { 'www-authenticate': challenge });
}

export function createReferenceHandler(options: ReferenceOptions): Handler {
  const basePath = (options.basePath ?? '/v1').replace(/\/+$/, '');
  const now = options.now ?? (() => new Date());
  const pets = new Map<string, Pet>();
  let nextId = options.firstId ?? 1n;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;

  /** A body the server refuses before reading it as a NewPet: too large, or not JSON by its media type. */
  function refuseBody(req: ServerRequest): ServerResponse | undefined {
    if (Buffer.byteLength(req.body) > maxBodyBytes) {
      return errorResponse(413, 'body_too_large', `Request bodies are limited to ${maxBodyBytes} bytes`);
    }
    const type = req.headers['content-type'];
    // No Content-Type is read as JSON; any other media type is refused.
    if (type !== undefined && !/^application\/json\s*(;|$)/i.test(type)) {
      return errorResponse(415, 'unsupported_media_type', 'Request bodies must be application/json');
    }
    return undefined;
  }

  function listPets(query: URLSearchParams): ServerResponse {
    const limits = query.getAll('limit');
    const statuses = query.getAll('status');
    if (limits.length > 1 || statuses.length > 1)
      return errorResponse(400, 'invalid_parameter', 'limit and status may each be given once');
    const rawLimit = limits[0];
    let limit: number = LIMIT.default;
    if (rawLimit !== undefined) {
      limit = /^\d{1,3}$/.test(rawLimit) ? Number(rawLimit) : NaN;
      if (!(limit >= LIMIT.min && limit <= LIMIT.max)) {
        return errorResponse(400, 'invalid_parameter', `limit must be an integer from ${LIMIT.min} to ${LIMIT.max}`);
      }
    }
    const status = statuses[0];
    if (status !== undefined && !PET_STATUSES.includes(status)) {
      return errorResponse(400, 'invalid_parameter', `status must be one of ${PET_STATUSES.join(', ')}`);
    }
    const page: Pet[] = [];
    for (const pet of pets.values()) {
      if (page.length >= limit) break;
      if (status === undefined || pet.status === status) page.push(pet);
    }
    return json(200, page);
  }

  function createPet(body: string): ServerResponse {
    let parsed: unknown;
    try {
      parsed = parseJson(body);
    } catch {
      return errorResponse(400, 'invalid_body', 'Request body must be a JSON object');
    }
    const result = validate('NewPet', parsed);
    if (!result.valid) return errorResponse(400, 'invalid_body', `Invalid NewPet: ${result.problems.join('; ')}`);
    const input = parsed as NewPet;
    // Only the NewPet fields are kept: a client-sent id or unknown field is ignored.
    const pet: Pet = { id: toInt64(nextId++), name: input.name, categoryId: input.categoryId };
    if (input.status !== undefined) pet.status = input.status;
    pets.set(String(pet.id), pet);
    return json(201, pet);
  }

  function getPet(rawId: string): ServerResponse {
    const headers = {
      deprecation: `@${Math.floor(DEPRECATED_AT.getTime() / 1000)}`,
      sunset: REMOVAL_AT.toUTCString(),
      link: `<${basePath}/pets>; rel="successor-version"`,
    };
    if (now() >= REMOVAL_AT)
      return errorResponse(410, 'gone', 'getPet was removed on 2030-12-05; use GET /pets', headers);
    const id = /^-?\d{1,20}$/.test(rawId) ? BigInt(rawId) : undefined;
    if (id === undefined || id < INT64_MIN || id > INT64_MAX) {
      return errorResponse(400, 'invalid_parameter', 'petId must be an int64 integer', headers);
    }
    const pet = pets.get(String(toInt64(id)));
    return pet ? json(200, pet, headers) : errorResponse(404, 'not_found', `No pet with id ${rawId}`, headers);
  }

  return (req) => {
    const url = new URL(req.url, 'http://reference.invalid');
    if (!url.pathname.startsWith(`${basePath}/`))
      return errorResponse(404, 'not_found', `No resource at ${url.pathname}`);
    const denied = authenticate(req.headers.authorization, options.apiKey);
    if (denied) return denied;
    const path = url.pathname.slice(basePath.length);
    const petIdMatch = /^\/pets\/([^/]+)$/.exec(path);
    if (path === '/pets') {
      if (req.method === 'GET') return listPets(url.searchParams);
      if (req.method === 'POST') return refuseBody(req) ?? createPet(req.body);
      return errorResponse(405, 'method_not_allowed', `${req.method} is not allowed on /pets`, { allow: 'GET, POST' });
    }
    if (petIdMatch) {
      if (req.method === 'GET') return getPet(decodePathSegment(petIdMatch[1] ?? ''));
      return errorResponse(405, 'method_not_allowed', `${req.method} is not allowed on /pets/{petId}`, {
        allow: 'GET',
      });
    }
    return errorResponse(404, 'not_found', `No resource at ${url.pathname}`);
  };
}

/** A path segment decoded; malformed percent-encoding (`%ZZ`) is kept as it is, so it is a malformed id (400), not a crash. */
function decodePathSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Stores ids the way the parser would read them back: number when safe, else bigint. */
function toInt64(id: bigint): Int64 {
  const n = Number(id);
  return Number.isSafeInteger(n) ? n : id;
}
