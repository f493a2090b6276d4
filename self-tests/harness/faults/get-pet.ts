// Faults against getPet and its deprecation: retrieval, unknown and malformed ids, the removal
// date, and the Deprecation, Sunset and Link headers.
import { errorResponse, json, type ServerResponse } from '../../../src/reference-server/handler.js';
import { isOp, mapJson, mapResponse, type Fault, type Operation, type Wrap } from '../faults-kit.js';

/** Rewrites the headers of `op`'s answers; `undefined` removes a header. */
const headersOf = (op: Operation, change: Record<string, string | undefined>): Wrap =>
  mapResponse((res) => {
    const headers: Record<string, string> = { ...res.headers };
    for (const [name, value] of Object.entries(change)) {
      if (value === undefined) delete headers[name];
      else headers[name] = value;
    }
    return { ...res, headers };
  }, isOp(op));

/** A fault that rewrites the headers of one operation's answers. */
const headerFault = (
  name: string,
  breaks: Fault['breaks'],
  does: string,
  op: Operation,
  change: Record<string, string | undefined>,
): Fault => ({ name, breaks, does, wrap: headersOf(op, change) });

/** Rewrites getPet answers of one status. */
const getPetAnswers = (status: number, fn: (res: ServerResponse) => ServerResponse): Wrap =>
  mapResponse((res) => (res.status === status ? fn(res) : res), isOp('getPet'));

const AFTER_REMOVAL = '2031-01-01T00:00:00.000Z';
const BEFORE_REMOVAL = new Date('2030-06-01T00:00:00Z');

export const getPetFaults: Fault[] = [
  {
    name: 'get-changes-name',
    breaks: 'getPet.existing',
    does: 'getPet answers the pet with a trailing space added to its name',
    wrap: mapJson(
      (body, res) =>
        res.status === 200 && typeof body === 'object' && body !== null
          ? { ...body, name: `${(body as { name: string }).name} ` }
          : body,
      isOp('getPet'),
    ),
  },
  {
    name: 'unknown-id-200-null',
    breaks: 'getPet.unknown',
    does: 'answers 200 with null for an id no pet has',
    wrap: getPetAnswers(404, () => json(200, null)),
  },
  {
    name: 'unknown-id-500',
    breaks: 'getPet.unknown',
    does: 'fails (500) on an id no pet has',
    wrap: getPetAnswers(404, () => errorResponse(500, 'internal_error', 'Cannot read properties of undefined')),
  },
  {
    name: 'malformed-id-500',
    breaks: 'getPet.malformed-id',
    does: 'fails (500) on a petId that is not an integer',
    wrap: getPetAnswers(400, () => errorResponse(500, 'internal_error', 'NumberFormatException')),
  },
  {
    name: 'malformed-id-bare-404',
    breaks: 'getPet.malformed-id',
    does: 'answers a malformed petId 404 with an empty body',
    wrap: getPetAnswers(400, () => ({ status: 404, headers: {}, body: '' })),
  },
  {
    name: 'removed-early',
    breaks: 'getPet.removal',
    does: 'removed getPet (410) before 5 December 2030: its clock runs ahead',
    wrap: (inner) => inner,
    options: { now: () => new Date(AFTER_REMOVAL) },
  },
  {
    name: 'not-removed',
    breaks: 'getPet.removal',
    does: 'still answers getPet 200 after 5 December 2030',
    wrap: (inner) => inner,
    options: { now: () => BEFORE_REMOVAL },
    config: { now: AFTER_REMOVAL },
  },
  {
    name: 'removed-without-error-body',
    breaks: 'getPet.removal',
    does: 'answers the removed getPet 410 with an empty body',
    wrap: getPetAnswers(410, () => ({ status: 410, headers: {}, body: '' })),
    options: { now: () => new Date(AFTER_REMOVAL) },
    config: { now: AFTER_REMOVAL },
  },
  headerFault('no-deprecation-header', 'getPet.deprecation-header', 'sends no Deprecation header on getPet', 'getPet', {
    deprecation: undefined,
  }),
  headerFault(
    'deprecation-true',
    'getPet.deprecation-header',
    'sends the old draft form "Deprecation: true"',
    'getPet',
    { deprecation: 'true' },
  ),
  headerFault(
    'deprecation-http-date',
    'getPet.deprecation-header',
    'sends Deprecation as an HTTP date (a draft form) instead of @<unix-seconds>',
    'getPet',
    { deprecation: 'Wed, 01 Jan 2025 00:00:00 GMT' },
  ),
  headerFault('no-sunset-header', 'getPet.sunset-header', 'sends no Sunset header on getPet', 'getPet', {
    sunset: undefined,
  }),
  headerFault(
    'sunset-day-month-swapped',
    'getPet.sunset-header',
    'announces the sunset on 12 May 2030 (day and month swapped)',
    'getPet',
    { sunset: 'Sun, 12 May 2030 00:00:00 GMT' },
  ),
  headerFault(
    'sunset-not-gmt',
    'getPet.sunset-header',
    'writes Sunset with a numeric zone offset instead of GMT',
    'getPet',
    { sunset: 'Thu, 05 Dec 2030 01:00:00 +0100' },
  ),
  headerFault(
    'sunset-iso-date',
    'getPet.sunset-header',
    'writes Sunset as an ISO 8601 date instead of an HTTP date',
    'getPet',
    { sunset: '2030-12-05T00:00:00Z' },
  ),
  headerFault(
    'sunset-before-deprecation',
    'getPet.sunset-header',
    'dates the deprecation (2031) after the sunset (2030)',
    'getPet',
    { deprecation: `@${Date.parse(AFTER_REMOVAL) / 1000}` },
  ),
  headerFault('no-successor-link', 'getPet.successor-link', 'sends no Link header on getPet', 'getPet', {
    link: undefined,
  }),
  headerFault(
    'link-to-docs-only',
    'getPet.successor-link',
    'links only to a documentation page, not to the /pets collection',
    'getPet',
    { link: '<https://docs.example.com/migrating-from-getpet>; rel="deprecation"' },
  ),
  headerFault('deprecation-on-list', 'getPet.no-deprecation-elsewhere', 'marks listPets deprecated too', 'listPets', {
    deprecation: '@1735689600',
  }),
  headerFault(
    'deprecation-on-create',
    'getPet.no-deprecation-elsewhere',
    'sends the getPet headers on createPet as well',
    'createPet',
    { deprecation: '@1735689600', sunset: 'Thu, 05 Dec 2030 00:00:00 GMT' },
  ),
];
