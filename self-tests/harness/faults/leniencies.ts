// Faults of servers built on mainstream parsers with their defaults (tests/leniencies/): each
// forgives one kind of input the interface refuses, and the catalogue, sent on every run, must
// catch it whatever the seed.
import { errorResponse, type Handler, type ServerRequest } from '../../../src/reference-server/handler.js';
import { answer, isJson, isObject, isOp, mapRequest, mapRequestJson, withQuery, type Fault } from '../faults-kit.js';
import { allPets, ok } from './list-pets.js';

const listing = (test: (q: URLSearchParams) => boolean) => (req: ServerRequest) =>
  isOp('listPets')(req) && test(new URL(req.url, 'http://x').searchParams);

/** Every pet the store shows (up to 100 of each status: more than 100 in all), as one list. */
const everyPet = async (req: ServerRequest, inner: Handler) => ok(await allPets(req, inner));

/** A createPet body that is not JSON, read as the forgiving parser reads it; unchanged when it cannot. */
const forgivingBody = (read: (body: string) => string | undefined) =>
  mapRequest((req) => {
    const text = isJson(req.body) ? undefined : read(req.body);
    return text === undefined ? req : { ...req, body: text };
  }, isOp('createPet'));

/** A createPet body's JSON object with its members rewritten; bodies that are not objects pass unchanged. */
const editObject = (edit: (body: Record<string, unknown>) => Record<string, unknown>) =>
  mapRequestJson((body) => (isObject(body) ? edit(body) : body), isOp('createPet'));

export const lenienciesFaults: Fault[] = [
  {
    name: 'limit-coerced-nonfinite',
    breaks: 'listPets.limit.malformed',
    does: "coerces limit with Number() (zod's z.coerce.number()) and checks the range of a finite number only: limit=Infinity lists every pet",
    wrap: answer(
      listing((q) => q.get('limit') === 'Infinity'),
      (req, inner) => everyPet(req, inner),
    ),
  },
  {
    name: 'limit-last-of-repeated',
    breaks: 'listPets.limit.malformed',
    does: 'validates the first of a repeated limit and lists with the last (PHP, Django): limit=1&limit=1000 lists every pet',
    wrap: answer(
      listing((q) => q.getAll('limit').length > 1),
      (req, inner) => {
        const limits = new URL(req.url, 'http://x').searchParams.getAll('limit');
        const last = limits[limits.length - 1] ?? '';
        if (!/^\d+$/.test(limits[0] ?? '')) return errorResponse(400, 'invalid_parameter', 'limit must be an integer');
        return Number(last) > 100 ? everyPet(req, inner) : inner(withQuery(req, (q) => q.set('limit', last)));
      },
    ),
  },
  {
    name: 'body-python-json-nan',
    breaks: 'createPet.body-not-object',
    does: "reads bodies with Python's json module defaults: NaN, Infinity and -Infinity are numbers to it",
    wrap: forgivingBody((body) => {
      const text = body.replace(/([:[,]\s*)-?(?:NaN|Infinity)(?=\s*[,}\]])/g, '$1null');
      return isJson(text) ? text : undefined;
    }),
  },
  {
    name: 'body-first-value',
    breaks: 'createPet.body-not-object',
    does: "reads a body with Go's json.Decoder.Decode: the first JSON value, whatever follows it",
    wrap: forgivingBody((body) => {
      for (let end = body.indexOf('}'); end >= 0; end = body.indexOf('}', end + 1))
        if (isJson(body.slice(0, end + 1))) return body.slice(0, end + 1);
      return undefined;
    }),
  },
  {
    name: 'body-comments-trailing-commas',
    breaks: 'createPet.body-not-object',
    does: "reads bodies with Jackson's ALLOW_COMMENTS and ALLOW_TRAILING_COMMA (.NET: ReadCommentHandling.Skip, AllowTrailingCommas)",
    wrap: forgivingBody((body) => {
      const text = body
        .replace(/\/\*[\s\S]*?\*\//g, '')
        .replace(/\/\/[^\n]*\n/g, '')
        .replace(/,(\s*[}\]])/g, '$1');
      return isJson(text) ? text : undefined;
    }),
  },
  {
    name: 'category-array-unwrapped',
    breaks: 'createPet.category-type',
    does: "validates bodies with Ajv's coerceTypes: 'array' (Fastify's default): a categoryId of [7] is 7",
    wrap: editObject((body) =>
      Array.isArray(body.categoryId) && body.categoryId.length === 1
        ? { ...body, categoryId: body.categoryId[0] }
        : body,
    ),
  },
  {
    name: 'keys-case-insensitive',
    breaks: 'createPet.missing-name',
    does: "matches body members to fields ignoring case (Go's encoding/json, ASP.NET Core's web defaults): Name is name",
    wrap: editObject((body) =>
      Object.fromEntries(
        Object.entries(body).map(([key, value]) => [
          ['name', 'categoryId', 'status'].find((k) => k.toLowerCase() === key.toLowerCase()) ?? key,
          value,
        ]),
      ),
    ),
  },
  {
    name: 'pet-id-parse-int',
    breaks: 'getPet.malformed-id',
    does: 'reads petId with parseInt: 7abc is pet 7',
    wrap: mapRequest((req) => {
      const url = new URL(req.url, 'http://x');
      const id = Number.parseInt(url.pathname.slice(url.pathname.lastIndexOf('/') + 1), 10);
      return Number.isNaN(id)
        ? req
        : { ...req, url: `${url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1)}${id}` };
    }, isOp('getPet')),
  },
  {
    name: 'auth-second-word',
    breaks: 'auth.wrong-key',
    does: 'takes the key as the second word of the Authorization header: "Bearer KEY extra" is the key',
    wrap: mapRequest((req) => {
      const words = (req.headers.authorization ?? '').split(' ');
      return words[0] === 'Bearer' && words.length > 2
        ? { ...req, headers: { ...req.headers, authorization: `Bearer ${words[1]}` } }
        : req;
    }),
  },
];
