// Faults against the list-pets requirements.
import { errorResponse, type Handler, type ServerRequest } from '../../../src/reference-server/handler.js';
import { parseJson, stringifyJson } from '../../../src/wire/json.js';
import { PET_STATUSES } from '../../../src/data/schemas.js';
import { answer, isOp, mapJson, mapRequest, withQuery, type Fault, type Wrap } from '../faults-kit.js';
import { variants } from '../variants.js';

const paramsOf = (req: ServerRequest) => new URL(req.url, 'http://x').searchParams;
/** List requests whose query passes `test`. */
const listingWhere = (test: (q: URLSearchParams) => boolean) => (req: ServerRequest) =>
  isOp('listPets')(req) && test(paramsOf(req));
const digits = (v: string | null) => v !== null && /^\d+$/.test(v);
const knownStatus = (v: string | null) => v !== null && PET_STATUSES.includes(v);

/** Rewrites the query of matching list requests before the reference server sees them. */
const editQuery = (edit: (q: URLSearchParams) => void, test: (q: URLSearchParams) => boolean = () => true): Wrap =>
  mapRequest((req) => withQuery(req, edit), listingWhere(test));

/** The reference server's list for this request with its query edited (its own answer when not 200). */
async function listVia(
  inner: Handler,
  req: ServerRequest,
  edit: (q: URLSearchParams) => void,
): Promise<Record<string, unknown>[]> {
  const res = await inner(withQuery(req, edit));
  return res.status === 200 ? (parseJson(res.body) as Record<string, unknown>[]) : [];
}

/** Pets of several lists, oldest first, as one list of at most `limit`. */
const merged = (lists: Record<string, unknown>[][], limit: number) =>
  lists
    .flat()
    .sort((a, b) => (BigInt(a.id as number) < BigInt(b.id as number) ? -1 : 1))
    .slice(0, limit);

/** Up to 100 pets of each status, oldest first: more than the reference server lists at once. */
export async function allPets(req: ServerRequest, inner: Handler): Promise<Record<string, unknown>[]> {
  const lists = await Promise.all(
    PET_STATUSES.map((s) => listVia(inner, req, (q) => (q.set('status', s), q.set('limit', '100')))),
  );
  return merged(lists, Infinity);
}

export const ok = (body: unknown) => ({
  status: 200,
  headers: { 'content-type': 'application/json' },
  body: stringifyJson(body),
});
const crash = (message: string) => () => errorResponse(500, 'internal_error', message);
const allowedChoice = (name: string): Wrap => {
  const variant = variants.find((v) => v.name === name);
  if (!variant) throw new Error(`no variant ${name}`);
  return variant.wrap;
};

export const listPetsFaults: Fault[] = [
  {
    name: 'list-wrapped-in-object',
    breaks: 'listPets.ok',
    does: 'answers listPets with {"items": [...]} instead of a JSON array',
    wrap: mapJson((body, res) => (res.status === 200 ? { items: body } : body), isOp('listPets')),
  },
  {
    name: 'limit-one-rejected',
    breaks: 'listPets.limit.min',
    does: 'treats the minimum as exclusive: limit=1 is answered 400',
    wrap: answer(
      listingWhere((q) => q.get('limit') === '1'),
      () => errorResponse(400, 'invalid_parameter', 'limit must be above 1'),
    ),
  },
  {
    name: 'limit-hundred-rejected',
    breaks: 'listPets.limit.max',
    does: 'treats the maximum as exclusive: limit=100 is answered 400',
    wrap: answer(
      listingWhere((q) => q.get('limit') === '100'),
      () => errorResponse(400, 'invalid_parameter', 'limit must be below 100'),
    ),
  },
  {
    name: 'limit-ignored',
    breaks: 'listPets.limit.respected',
    does: 'ignores limit and always answers with the default 20',
    wrap: editQuery((q) => q.delete('limit')),
  },
  {
    name: 'limit-one-over',
    breaks: 'listPets.limit.respected',
    does: 'answers limit=N with N+1 pets (off by one)',
    wrap: editQuery(
      (q) => q.set('limit', String(Number(q.get('limit')) + 1)),
      (q) => digits(q.get('limit')) && Number(q.get('limit')) < 100,
    ),
  },
  {
    name: 'limit-one-short',
    breaks: 'listPets.limit.exact',
    does: 'drops the last pet of every full page (off by one)',
    wrap: mapJson(
      (body, res, req) =>
        Array.isArray(body) && body.length === Number(paramsOf(req).get('limit') ?? 20) ? body.slice(0, -1) : body,
      isOp('listPets'),
    ),
  },
  {
    name: 'default-fifty',
    breaks: 'listPets.limit.default',
    does: 'uses a default limit of 50 instead of 20',
    wrap: editQuery(
      (q) => q.set('limit', '50'),
      (q) => !q.has('limit'),
    ),
  },
  {
    name: 'default-ignored-with-filter',
    breaks: 'listPets.limit.default',
    does: 'applies no default limit when a status filter is given (answers up to 100)',
    wrap: editQuery(
      (q) => q.set('limit', '100'),
      (q) => !q.has('limit') && q.has('status'),
    ),
  },
  {
    name: 'default-ten',
    breaks: 'listPets.limit.default-exact',
    does: 'uses a default limit of 10 instead of 20',
    // A page of 10 without a limit looks complete; the MUSTs that took it so are blocked by the SHOULD.
    notUnder: ['consistency.create-then-list', 'consistency.model'],
    wrap: editQuery(
      (q) => q.set('limit', '10'),
      (q) => !q.has('limit'),
    ),
  },
  {
    name: 'max-not-enforced',
    breaks: 'listPets.limit.out-of-range',
    does: 'honours a limit above 100 (limit=101 yields 101 pets)',
    wrap: answer(
      listingWhere((q) => digits(q.get('limit')) && Number(q.get('limit')) > 100 && !q.has('status')),
      async (req, inner) => ok((await allPets(req, inner)).slice(0, Number(paramsOf(req).get('limit')))),
    ),
  },
  {
    name: 'zero-limit-crashes',
    breaks: 'listPets.limit.out-of-range',
    does: 'answers limit=0 with 500 (a division by zero)',
    wrap: answer(
      listingWhere((q) => q.get('limit') === '0'),
      crash('division by zero'),
    ),
  },
  {
    name: 'malformed-limit-crashes',
    breaks: 'listPets.limit.malformed',
    does: 'answers a limit that is not an integer with 500',
    wrap: answer(
      listingWhere((q) => q.has('limit') && !/^-?\d+$/.test(q.get('limit') ?? '')),
      crash('NumberFormatException'),
    ),
  },
  {
    name: 'limit-clamped',
    breaks: 'listPets.limit.rejected',
    does: 'clamps an out-of-range limit and ignores a malformed one instead of answering 400 (allowed, but not the SHOULD)',
    wrap: allowedChoice('clamp-limit'),
  },
  {
    name: 'filter-ignored',
    breaks: 'listPets.status.filter',
    does: 'ignores the status filter',
    wrap: editQuery((q) => q.delete('status')),
  },
  {
    name: 'filter-leaks-next-status',
    breaks: 'listPets.status.filter',
    does: 'lets the next status of the enumeration through the filter too (available admits pending, pending admits sold)',
    wrap: answer(
      listingWhere((q) => knownStatus(q.get('status'))),
      async (req, inner) => {
        const status = paramsOf(req).get('status') ?? '';
        const next = PET_STATUSES[(PET_STATUSES.indexOf(status) + 1) % PET_STATUSES.length] ?? status;
        const limit = paramsOf(req).get('limit') ?? '20';
        const lists = await Promise.all([status, next].map((s) => listVia(inner, req, (q) => q.set('status', s))));
        return ok(merged(lists, Number(limit)));
      },
    ),
  },
  {
    name: 'limit-ignored-with-filter',
    breaks: 'listPets.status.with-limit',
    does: 'ignores limit when a status filter is given (answers the default 20)',
    wrap: editQuery(
      (q) => q.delete('limit'),
      (q) => q.has('status'),
    ),
  },
  {
    name: 'filter-after-limit',
    breaks: 'listPets.status.exact',
    does: 'takes the first `limit` pets, then filters them by status',
    wrap: answer(
      listingWhere((q) => knownStatus(q.get('status'))),
      async (req, inner) => {
        const status = paramsOf(req).get('status');
        return ok((await listVia(inner, req, (q) => q.delete('status'))).filter((p) => p.status === status));
      },
    ),
  },
  {
    name: 'unknown-status-crashes',
    breaks: 'listPets.status.unknown',
    does: 'answers a status outside the enumeration with 500',
    wrap: answer(
      listingWhere((q) => q.has('status') && !knownStatus(q.get('status'))),
      crash('No enum constant Status.adopted'),
    ),
  },
  {
    name: 'unknown-status-ignored',
    breaks: 'listPets.status.unknown-rejected',
    does: 'ignores a status outside the enumeration instead of answering 400 (allowed, but not the SHOULD)',
    wrap: allowedChoice('ignore-unknown-status'),
  },
  {
    name: 'list-repeats-first-for-last',
    breaks: 'listPets.distinct-ids',
    does: 'puts the first pet of a list in place of its last one: a pet twice, another missing',
    wrap: mapJson(
      (body) => (Array.isArray(body) && body.length > 1 ? [...body.slice(0, -1), body[0]] : body),
      isOp('listPets'),
    ),
  },
];
