// Conforming servers: each makes a different choice where the interface is silent or leaves
// room. The suite must report no MUST failure against any of them (a false alarm is a defect).
// The reference server itself covers the other side of each choice (it rejects an out-of-range
// limit and an unknown status, leaves status absent when omitted, accepts empty names, ignores
// unknown fields, answers 400 to a malformed petId, lists oldest first).
import { errorResponse, type ServerResponse } from '../../src/reference-server/handler.js';
import { INT64_MAX, INT64_MIN, parseJson, stringifyJson } from '../../src/wire/json.js';
import { NAME_SURELY_ACCEPTED, nameGap } from '../../src/data/generators.js';
import { PET_STATUSES } from '../../src/data/schemas.js';
import {
  answer,
  badPercentEncoding,
  authenticated,
  frameworkPage,
  isRoute,
  operationOf,
  compose,
  eachPet,
  isObject,
  isOp,
  mapJson,
  mapRequest,
  mapRequestJson,
  mapResponse,
  withQuery,
  type PreparedServer,
  type Variant,
  type Wrap,
} from './faults-kit.js';

const asIs: Wrap = (h) => h;
const AFTER_REMOVAL = '2031-06-01T00:00:00.000Z';

/** An out-of-range limit is clamped to 1..100; a malformed one falls back to the default. */
const clampLimit: Wrap = mapRequest(
  (req) =>
    withQuery(req, (q) => {
      const raw = q.get('limit');
      if (raw === null) return;
      const n = Number(raw);
      if (raw.trim() === '' || !Number.isFinite(n)) q.delete('limit');
      else q.set('limit', String(Math.min(100, Math.max(1, Math.trunc(n)))));
    }),
  isOp('listPets'),
);

/** A status filter outside the enum is dropped: the list is unfiltered. */
const ignoreUnknownStatus: Wrap = mapRequest(
  (req) =>
    withQuery(req, (q) => {
      const s = q.get('status');
      if (s !== null && !PET_STATUSES.includes(s)) q.delete('status');
    }),
  isOp('listPets'),
);

/** A pet created without a status gets `available`. */
const defaultStatus: Wrap = mapRequestJson(
  (body) => (isObject(body) && !('status' in body) ? { ...body, status: 'available' } : body),
  isOp('createPet'),
);

/** More fields than the interface lists, on Pets and on Error bodies, and more headers. */
const extraFieldsAndHeaders: Wrap = compose(
  mapResponse((res) => ({
    ...res,
    headers: {
      ...res.headers,
      'x-request-id': 'req-0001',
      'cache-control': 'no-store',
      'x-ratelimit-remaining': '999',
      vary: 'Authorization',
    },
  })),
  mapJson((body, res) =>
    res.status >= 400 && isObject(body)
      ? { ...body, details: [{ field: 'body', issue: 'see message' }], requestId: 'req-0001' }
      : eachPet(body, (pet) => ({
          ...pet,
          tags: ['friendly'],
          photoUrls: [],
          category: { id: pet.categoryId, name: 'other' },
          createdAt: '2025-01-01T00:00:00Z',
        })),
  ),
);

/** `Connection: close` on every response and a charset parameter on the JSON media type. */
const closeAndCharset: Wrap = mapResponse((res) => ({
  ...res,
  headers: {
    ...res.headers,
    connection: 'close',
    ...(/^application\/json/i.test(res.headers['content-type'] ?? '')
      ? { 'content-type': 'application/json; charset=utf-8' }
      : {}),
  },
}));

const badRequest = (message: string) => errorResponse(400, 'invalid_body', message);

/** Parsed request body, or undefined when it is not JSON. */
function bodyOf(req: { body: string }): unknown {
  try {
    return parseJson(req.body);
  } catch {
    return undefined;
  }
}

const rejectEmptyNames: Wrap = answer(
  (req) => isOp('createPet')(req) && isObject(bodyOf(req)) && (bodyOf(req) as Record<string, unknown>).name === '',
  () => badRequest('name must not be empty'),
);

/**
 * Every 25th request is turned away with 429 and Retry-After: 0 (rate limits are not shown); the
 * suite is told to retry. A request is refused at most once, so no retry can be refused again
 * by chance and exhaust the retries (the verdict must not depend on timing).
 */
const rateLimited: Wrap = (inner) => {
  let n = 0;
  const refused = new Set<string>();
  return (req) => {
    const key = `${req.method} ${req.url} ${req.body}`;
    if (++n % 25 !== 0 || refused.has(key)) return inner(req);
    refused.add(key);
    return errorResponse(429, 'rate_limited', 'Too many requests', { 'retry-after': '0' });
  };
};

/** Request bodies are limited to 4 KiB: larger ones are answered 413 with an Error body (request-size limits are not shown). */
const smallBodies: Wrap = answer(
  (req) => Buffer.byteLength(req.body) > 4096,
  () => errorResponse(413, 'payload_too_large', 'Request bodies are limited to 4096 bytes'),
);

/** Routing before authentication: an unknown path or undefined method gets 404/405 (with the Error body) even without a key. */
const routesBeforeAuth: Wrap = (inner, apiKey) => (req) =>
  !isRoute(req) || operationOf(req) === undefined ? inner(authenticated(req, apiKey)) : inner(req);

/** Any createPet body is read as JSON, whatever its Content-Type (with a larger body limit, see its options). */
const anyMediaType: Wrap = mapRequest(
  (req) => ({ ...req, headers: { ...req.headers, 'content-type': 'application/json' } }),
  isOp('createPet'),
);

/** Malformed percent-encoding is answered by the HTTP layer in front of the service, with its own HTML 400. */
const httpLayerRefusesBadEncoding: Wrap = answer(badPercentEncoding, () => frameworkPage(400, 'Bad Request'));

/** JSON written differently: indented, keys in reverse order. */
const prettyJson: Wrap = mapResponse((res) => {
  // By hand: the lossless writer does not indent, and bigint digits must survive.
  const write = (v: unknown, indent: string): string => {
    const inner = `${indent}  `;
    if (Array.isArray(v))
      return v.length ? `[\n${v.map((x) => inner + write(x, inner)).join(',\n')}\n${indent}]` : '[]';
    if (isObject(v)) {
      const entries = Object.entries(v).reverse();
      return entries.length
        ? `{\n${entries.map(([k, x]) => `${inner}${JSON.stringify(k)}: ${write(x, inner)}`).join(',\n')}\n${indent}}`
        : '{}';
    }
    return stringifyJson(v);
  };
  return res.body ? { ...res, body: `${write(parseJson(res.body), '')}\n` } : res;
});

/** Refuses every name the suite's own rule (nameGap) says a server may refuse: long, odd characters, padded. */
const restrictNames: Wrap = answer(
  (req) => {
    const body = bodyOf(req);
    return (
      isOp('createPet')(req) && isObject(body) && typeof body.name === 'string' && nameGap(body.name) !== undefined
    );
  },
  (req) => badRequest(`name refused: ${nameGap((bodyOf(req) as { name: string }).name) ?? ''}`),
);

const NEW_PET_FIELDS = new Set(['name', 'categoryId', 'status']);
const rejectUnknownFields: Wrap = answer(
  (req) => {
    const body = bodyOf(req);
    return isOp('createPet')(req) && isObject(body) && Object.keys(body).some((k) => !NEW_PET_FIELDS.has(k));
  },
  () => badRequest('only name, categoryId and status may be sent'),
);

/** Error codes and messages of the server's own choosing (their values are not shown). */
const otherErrorCodes: Wrap = mapJson((body, res) =>
  res.status >= 400 && isObject(body)
    ? { ...body, code: `E${res.status}_${String(body.code).toUpperCase()}`, message: `Request failed (${res.status})` }
    : body,
);

/** A petId that is not an int64 integer is "not found" rather than a bad request. */
const malformedIdNotFound: Wrap = mapResponse(
  (res) =>
    res.status === 400
      ? errorResponse(
          404,
          'not_found',
          'No such pet',
          Object.fromEntries(Object.entries(res.headers).filter(([k]) => k !== 'content-type')),
        )
      : res,
  isOp('getPet'),
);

/** getPet is gone: the route answers 404 with an Error body and no deprecation headers. */
const getPetRouteGone: Wrap = answer(isOp('getPet'), (req, inner) => {
  // Authentication still comes first: an unauthenticated request is 401 whatever the route.
  const probe = inner({ ...req, method: 'GET', url: req.url.replace(/\/pets\/[^/?]*/, '/pets'), body: '' });
  return Promise.resolve(probe).then((res): ServerResponse =>
    res.status === 401 ? res : errorResponse(404, 'not_found', 'getPet was removed; use GET /pets'),
  );
});

/**
 * Lists newest first (the order of a list is not shown): keeps its own index of created pets
 * and answers a valid list request from it, after the reference server has accepted it.
 */
const newestFirst: Wrap = (inner) => {
  const created: Record<string, unknown>[] = [];
  return async (req) => {
    const res = await inner(req);
    if (isOp('createPet')(req) && res.status === 201) created.push(parseJson(res.body) as Record<string, unknown>);
    if (!isOp('listPets')(req) || res.status !== 200) return res;
    const q = new URL(req.url, 'http://x').searchParams;
    const limit = Number(q.get('limit') ?? 20);
    const status = q.get('status');
    const page: unknown[] = [];
    for (let i = created.length - 1; i >= 0 && page.length < limit; i--) {
      if (status === null || created[i]?.status === status) page.push(created[i]);
    }
    return { ...res, body: stringifyJson(page) };
  };
};

/**
 * Ids scattered over the whole int64 range, negative ones included (only uniqueness is promised):
 * a bijection of the reference's ids, public = internal × odd (mod 2^64), read as signed.
 */
const scatteredIds: Wrap = (inner) => {
  const M = 2n ** 64n;
  const ODD = 0x9e3779b97f4a7c15n;
  let inverse = 1n; // Newton's iteration: ODD × inverse ≡ 1 (mod 2^64)
  for (let i = 0; i < 7; i++) inverse = (inverse * (2n - ODD * inverse)) % M;
  const signed = (u: bigint) => (u > INT64_MAX ? u - M : u);
  const scramble = (id: bigint, by: bigint) => signed((((id * by) % M) + M) % M);
  const toPublic = (id: unknown) => {
    const n = scramble(BigInt(id as number | bigint), ODD);
    return Number.isSafeInteger(Number(n)) ? Number(n) : n;
  };
  const toInternal = mapRequest((req) => {
    const m = /^(.*\/pets\/)(-?\d{1,20})(\?.*)?$/.exec(req.url);
    const id = m ? BigInt(m[2] as string) : undefined;
    if (!m || id === undefined || id < INT64_MIN || id > INT64_MAX) return req;
    return { ...req, url: `${m[1]}${scramble(id, inverse)}${m[3] ?? ''}` };
  }, isOp('getPet'));
  const outward = mapJson((body, res) =>
    res.status < 300 ? eachPet(body, (pet) => ({ ...pet, id: toPublic(pet.id) })) : body,
  );
  return outward(toInternal(inner, ''), '');
};

/** The status filter is matched case-insensitively: `Available` lists the available pets. */
const statusCaseInsensitive: Wrap = mapRequest(
  (req) =>
    withQuery(req, (q) => {
      const s = q.get('status');
      if (s !== null && PET_STATUSES.includes(s.toLowerCase())) q.set('status', s.toLowerCase());
    }),
  isOp('listPets'),
);

/** Challenges with more parameters: a scope, and an error_description beside the error code. */
const richerChallenges: Wrap = mapResponse((res) => {
  const challenge = res.headers['www-authenticate'];
  if (res.status !== 401 || !challenge) return res;
  const more = challenge.includes('error=') ? ', error_description="The access token is not valid"' : '';
  return {
    ...res,
    headers: {
      ...res.headers,
      'www-authenticate': `${challenge.replace('Bearer realm="petstore"', 'Bearer realm="Pet Store", scope="pets:read pets:write"')}${more}`,
    },
  };
});

/**
 * Deprecation headers written differently: another deprecation date, a sunset late on the removal
 * day, an absolute successor link with a status filter beside a link to the deprecation policy.
 */
const otherDeprecationHeaders: Wrap = mapResponse((res, req) => {
  if (!res.headers.link) return res;
  const base = new URL(req.url, `http://${req.headers.host ?? 'localhost'}`);
  const successor = new URL(base.pathname.replace(/\/pets\/[^/]*$/, '/pets?status=available'), base);
  return {
    ...res,
    headers: {
      ...res.headers,
      deprecation: '@1704067200',
      sunset: 'Thu, 05 Dec 2030 23:59:59 GMT',
      link: `<https://docs.example.com/deprecations/get-pet>; rel="deprecation"; type="text/html", <${successor.href}>; rel="successor-version"`,
    },
  };
}, isOp('getPet'));

type StatusOf = (i: number) => string | undefined;

/** 560 available, 280 pending, 120 without status, 40 sold: sold lists stay provably complete. */
const mixed: StatusOf = (i) => {
  const k = i % 25;
  return k === 0 ? 'sold' : k <= 3 ? undefined : k <= 10 ? 'pending' : 'available';
};

/** 500 available, 250 pending, 250 sold: no list can be proven complete. */
const crowded: StatusOf = (i) => (['available', 'pending', 'sold', 'available'] as const)[i % 4];

const OTHERS_NAMES = ['Rex', 'Mia 🐈', '小白', 'שלום', 'Zoë', '', 'a'.repeat(300)];

/** Fills the store with `count` pets written by someone else, before the suite starts. */
const prefill =
  (count: number, statusOf: StatusOf = mixed) =>
  async ({ handler, apiKey, basePath }: PreparedServer): Promise<void> => {
    for (let i = 0; i < count; i++) {
      const status = statusOf(i);
      const pet = {
        name: `${OTHERS_NAMES[i % OTHERS_NAMES.length]} ${i}`,
        categoryId: i % 7 === 0 ? 2n ** 62n + BigInt(i) : i % 13,
        ...(status ? { status } : {}),
      };
      const res = await handler({
        method: 'POST',
        url: `${basePath}/pets`,
        headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
        body: stringifyJson(pet),
      });
      if (res.status !== 201) throw new Error(`prefill: pet ${i} was answered ${res.status} ${res.body}`);
    }
  };

/** nginx's own page for a status, as its default configuration serves it. */
export function nginxPage(status: 400 | 413, reason: string): ServerResponse {
  const title = `${status} ${reason}`;
  return {
    status,
    headers: { 'content-type': 'text/html', server: 'nginx/1.27.0' },
    body:
      `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n` +
      '<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n',
  };
}

/** nginx's defaults in front: a NUL (%00) in the path is a bad request; client_max_body_size is 1 MB. */
const behindNginxDefaults: Wrap = (inner) => (req) => {
  if (new URL(req.url, 'http://x').pathname.includes('%00')) return nginxPage(400, 'Bad Request');
  if (Buffer.byteLength(req.body) > 1024 * 1024) return nginxPage(413, 'Request Entity Too Large');
  return inner(req);
};

export const variants: readonly Variant[] = [
  {
    name: 'clamp-limit',
    does: 'clamps an out-of-range limit to 1..100 and treats a malformed one as absent (200, not 400)',
    wrap: clampLimit,
  },
  {
    name: 'ignore-unknown-status',
    does: 'ignores a status filter outside the enum and lists unfiltered (200, not 400)',
    wrap: ignoreUnknownStatus,
  },
  { name: 'default-status', does: 'gives a pet created without status the status "available"', wrap: defaultStatus },
  {
    name: 'extra-fields-and-headers',
    does: 'adds fields to every Pet and Error body and extra response headers',
    wrap: extraFieldsAndHeaders,
  },
  {
    name: 'ids-above-2^53',
    does: 'hands out ids from 2^53+1 upwards (not exact as a double)',
    wrap: asIs,
    options: { firstId: 2n ** 53n + 1n },
  },
  {
    name: 'prefilled-1000',
    does: 'starts with 1,000 pets of others (560 available, 280 pending, 120 without status, 40 sold)',
    wrap: asIs,
    prepare: prefill(1000),
  },
  {
    name: 'other-base-path',
    does: 'serves the operations under /api/petstore/v1 instead of /v1',
    wrap: asIs,
    options: { basePath: '/api/petstore/v1' },
  },
  {
    name: 'close-and-charset',
    does: 'sends Connection: close and application/json; charset=utf-8 on every response',
    wrap: closeAndCharset,
  },
  {
    name: 'empty-names-rejected',
    does: 'rejects an empty name with 400 and an Error body (the reference accepts it)',
    wrap: rejectEmptyNames,
  },
  {
    name: 'names-restricted',
    does:
      `refuses with 400 every name the suite's nameGap lets it refuse: empty, over ${NAME_SURELY_ACCEPTED} code points, white space at the ends, ` +
      `controls, private use, bidi overrides`,
    wrap: restrictNames,
  },
  {
    name: 'rate-limited',
    does: 'turns every 25th request away with 429 and Retry-After: 0; the suite runs with PETSTORE_RETRIES=2',
    wrap: rateLimited,
    config: { retries: 2 },
  },
  {
    name: 'small-bodies',
    does: 'limits request bodies to 4 KiB and answers larger ones 413 with an Error body',
    wrap: smallBodies,
  },
  {
    name: 'routes-before-auth',
    does: 'answers an unknown path or undefined method 404/405 with an Error body before checking the key (the reference answers 401 first)',
    wrap: routesBeforeAuth,
  },
  {
    name: 'lenient-bodies',
    does: 'accepts createPet bodies up to 8 MiB (the suite sends 5 MiB) and of any Content-Type, read as JSON (the reference refuses with 413 and 415)',
    wrap: anyMediaType,
    options: { maxBodyBytes: 8 << 20 },
  },
  {
    name: 'http-layer-html-400',
    does: 'has its HTTP layer answer malformed percent-encoding (%ZZ) with an HTML 400 page: a SHOULD warning, no MUST failure',
    wrap: httpLayerRefusesBadEncoding,
  },
  { name: 'pretty-json', does: 'writes its JSON indented, with keys in reverse order', wrap: prettyJson },
  {
    name: 'unknown-fields-rejected',
    does: 'rejects a body with fields beyond name, categoryId and status (a client id too) with 400',
    wrap: rejectUnknownFields,
  },
  { name: 'other-error-codes', does: 'uses its own Error codes and messages', wrap: otherErrorCodes },
  {
    name: 'malformed-id-not-found',
    does: 'answers a petId that is not an int64 integer with 404 instead of 400',
    wrap: malformedIdNotFound,
  },
  { name: 'newest-first', does: 'lists the newest pets first', wrap: newestFirst, prepare: prefill(300) },
  {
    name: 'scattered-ids',
    does: 'hands out ids scattered over the whole int64 range, negative ones included',
    wrap: scatteredIds,
  },
  {
    name: 'status-case-insensitive',
    does: 'matches the status filter case-insensitively (Available lists the available pets)',
    wrap: statusCaseInsensitive,
  },
  {
    name: 'richer-challenges',
    does: 'adds a scope and an error_description to its WWW-Authenticate challenges',
    wrap: richerChallenges,
  },
  {
    name: 'other-deprecation-headers',
    does: 'deprecates getPet from 2024, sunsets it at 23:59:59 on the removal day, links an absolute /pets?status=available successor and a policy',
    wrap: otherDeprecationHeaders,
  },
  {
    name: 'read-only-run',
    does: 'the reference server with 1,000 pets of others, tested with PETSTORE_READ_ONLY=1: what must write is skipped, nothing fails',
    wrap: asIs,
    prepare: prefill(1000),
    config: { readOnly: true },
  },
  {
    name: 'small-write-budget',
    does: 'the reference server, tested with PETSTORE_MAX_CREATES=10: what the budget cannot pay for is skipped, nothing fails',
    wrap: asIs,
    config: { maxCreates: 10 },
  },
  {
    name: 'after-removal-410',
    does: 'runs after 5 December 2030 (both clocks): getPet answers 410 Gone with an Error body',
    wrap: asIs,
    options: { now: () => new Date(AFTER_REMOVAL) },
    config: { now: AFTER_REMOVAL },
  },
  {
    name: 'after-removal-404',
    does: 'runs after 5 December 2030 (both clocks): the getPet route is gone, 404 with an Error body',
    wrap: getPetRouteGone,
    options: { now: () => new Date(AFTER_REMOVAL) },
    config: { now: AFTER_REMOVAL },
  },
  {
    name: 'behind-nginx-defaults',
    does: 'sits behind nginx with its defaults: nginx itself answers a %00 in the path with its HTML 400 page and a body over 1 MB with its HTML 413 page',
    wrap: behindNginxDefaults,
  },
  {
    name: 'all-choices-at-once',
    does:
      'combines clamping, ignoring unknown statuses, a default status, extra fields and headers, charset, ids near 2^62, another base path and 1,' +
      '000 pets of others, so many of each status that no list can be proven complete',
    wrap: compose(closeAndCharset, extraFieldsAndHeaders, clampLimit, ignoreUnknownStatus, defaultStatus),
    options: { firstId: 2n ** 62n, basePath: '/petstore/v1' },
    prepare: prefill(1000, crowded),
  },
];
