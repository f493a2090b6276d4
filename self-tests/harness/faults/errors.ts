// Faults against section "Errors": the Error body, its status field, the content type, and
// malformed input that makes the server fail.
import { errorResponse, json, type ServerRequest, type ServerResponse } from '../../../src/reference-server/handler.js';
import { parseJson } from '../../../src/wire/json.js';
import {
  answer,
  badPercentEncoding,
  frameworkPage,
  isObject,
  isOp,
  isRoute,
  mapJson,
  mapResponse,
  operationOf,
  type Fault,
  type Wrap,
} from '../faults-kit.js';

/** Rewrites the Error body of error answers (optionally only for one status). */
const errorBody = (fn: (body: Record<string, unknown>, res: ServerResponse) => unknown, status?: number): Wrap =>
  mapJson((body, res) =>
    res.status >= 400 && (status === undefined || res.status === status) && isObject(body)
      ? fn({ ...body }, res)
      : body,
  );

const without = (body: Record<string, unknown>, field: string) => {
  delete body[field];
  return body;
};

const pathOf = (req: ServerRequest) => new URL(req.url, 'http://x').pathname;

/** A method the interface does not define, on a path it does. */
const undefinedMethod = (req: ServerRequest) => isRoute(req) && operationOf(req) === undefined;
const unknownPath = (req: ServerRequest) => !isRoute(req);

/** JSON that is malformed (it starts like JSON but does not parse), not merely another kind of body. */
const malformedJson = (body: string) => {
  if (!/^\s*[[{]/.test(body)) return false;
  try {
    parseJson(body);
    return false;
  } catch {
    return true;
  }
};

/** A framework answering some requests itself, with its own page instead of the Error body. */
const ownPage = (
  name: string,
  breaks: Fault['breaks'],
  does: string,
  when: (req: ServerRequest) => boolean,
  res: (req: ServerRequest) => ServerResponse,
): Fault => ({
  name,
  breaks,
  does,
  wrap: answer(when, res),
});

/** A limit from 102 up: the out-of-range property sends them, and one example (1000), so every seed does. */
const propertyOnlyLimit = (req: ServerRequest) => {
  const limit = new URL(req.url, 'http://x').searchParams.get('limit') ?? '';
  return isOp('listPets')(req) && /^\d{3,10}$/.test(limit) && Number(limit) > 101;
};

export const errorsFaults: Fault[] = [
  {
    name: 'error-without-code',
    breaks: 'errors.body',
    does: 'leaves code out of the Error body of a 404',
    wrap: errorBody((b) => without(b, 'code'), 404),
  },
  {
    name: 'numeric-error-code',
    breaks: 'errors.body',
    does: 'writes the Error code as a number (the status) instead of a string',
    wrap: errorBody((b, res) => ({ ...b, code: res.status })),
  },
  {
    name: 'empty-error-code',
    breaks: 'errors.body',
    does: 'sends an empty Error code on 401',
    wrap: errorBody((b) => ({ ...b, code: '' }), 401),
  },
  {
    name: 'error-without-message',
    breaks: 'errors.body',
    does: 'leaves message out of the Error body of a 400',
    wrap: errorBody((b) => without(b, 'message'), 400),
  },
  {
    name: 'error-status-mismatch',
    breaks: 'errors.status-field',
    does: 'says status 400 in the Error body of a 401',
    wrap: errorBody((b) => ({ ...b, status: 400 }), 401),
  },
  {
    name: 'error-status-string',
    breaks: 'errors.status-field',
    does: 'writes Error.status as a string ("404")',
    wrap: errorBody((b, res) => ({ ...b, status: String(res.status) }), 404),
  },
  {
    name: 'errors-text-plain',
    breaks: 'errors.content-type',
    does: 'sends error answers as text/plain (the body is still the JSON Error)',
    wrap: mapResponse((res) =>
      res.status >= 400 ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } } : res,
    ),
  },
  {
    name: 'errors-problem-json',
    breaks: 'errors.content-type',
    does: 'sends 400 answers as application/problem+json',
    wrap: mapResponse((res) =>
      res.status === 400 ? { ...res, headers: { ...res.headers, 'content-type': 'application/problem+json' } } : res,
    ),
  },
  ownPage(
    'html-404-unknown-path',
    'errors.unknown-path',
    "answers a path no operation has with the framework's HTML 404 page",
    unknownPath,
    () => frameworkPage(404, 'Not Found'),
  ),
  ownPage(
    'text-404-default-handler',
    'errors.unknown-path',
    "answers a path no operation has with a default handler's text/plain 404 page not found",
    unknownPath,
    () => frameworkPage(404, 'Page Not Found', 'text/plain'),
  ),
  ownPage(
    'detail-404-unknown-path',
    'errors.unknown-path',
    'answers a path no operation has with {"detail": "Not Found"}',
    unknownPath,
    () => json(404, { detail: 'Not Found' }),
  ),
  ownPage(
    'detail-json-routing-errors',
    'errors.undefined-method',
    'answers unknown paths with {"detail": "Not Found"} and undefined methods with {"detail": "Method Not Allowed"}',
    (req) => unknownPath(req) || undefinedMethod(req),
    (req) =>
      unknownPath(req)
        ? json(404, { detail: 'Not Found' })
        : json(405, { detail: 'Method Not Allowed' }, { allow: 'GET, POST' }),
  ),
  ownPage(
    'html-405',
    'errors.undefined-method',
    "answers a method the interface does not define with the framework's HTML 405 page",
    undefinedMethod,
    () => frameworkPage(405, 'Method Not Allowed'),
  ),
  ownPage(
    'text-405',
    'errors.undefined-method',
    'answers a method the interface does not define with a text/plain 405',
    undefinedMethod,
    () => frameworkPage(405, 'Method Not Allowed', 'text/plain'),
  ),
  ownPage(
    'html-413-large-body',
    'errors.refused-body',
    "refuses a body over 1 MiB with the framework's HTML 413 page",
    (req) => Buffer.byteLength(req.body) > 1 << 20,
    () => frameworkPage(413, 'Payload Too Large'),
  ),
  ownPage(
    'html-415-media-type',
    'errors.refused-body',
    "refuses a createPet body that is not application/json with the framework's HTML 415 page",
    (req) => isOp('createPet')(req) && !/^application\/json/.test(req.headers['content-type'] ?? 'application/json'),
    () => frameworkPage(415, 'Unsupported Media Type'),
  ),
  {
    name: 'html-400-malformed-json',
    breaks: 'errors.body',
    does: "answers a createPet body of malformed JSON (truncated, say) with the framework's HTML 400 page; other bad bodies get the Error",
    // Only errors.no-server-error's malformed inputs send such a body: errors.body judges them too.
    alongside: ['errors.no-server-error'],
    wrap: answer(
      (req) => isOp('createPet')(req) && malformedJson(req.body),
      () => frameworkPage(400, 'Bad Request'),
    ),
  },
  {
    name: 'error-status-off-for-large-limits',
    breaks: 'errors.status-field',
    does: 'says status 422 in the Error body of its 400 to a limit from 102 up',
    // listPets.limit.out-of-range sends such limits: errors.status-field judges its answers too.
    alongside: ['listPets.limit.out-of-range'],
    wrap: mapJson((b, res) => (res.status === 400 && isObject(b) ? { ...b, status: 422 } : b), propertyOnlyLimit),
  },
  {
    name: 'html-400-bad-percent-encoding',
    breaks: 'errors.malformed-uri',
    does: 'has its HTTP layer answer malformed percent-encoding (%ZZ) with an HTML 400 page',
    wrap: answer(badPercentEncoding, () => frameworkPage(400, 'Bad Request')),
  },
  {
    name: 'crash-on-deep-json',
    breaks: 'errors.no-server-error',
    does: 'overflows its stack (500) on a createPet body nested more than 1000 levels deep',
    wrap: answer(
      (req) => isOp('createPet')(req) && /^\[{1000}/.test(req.body),
      () => errorResponse(500, 'internal_error', 'Maximum call stack size exceeded'),
    ),
  },
  {
    name: 'crash-on-repeated-parameter',
    breaks: 'errors.no-server-error',
    does: 'fails (500) when a query parameter is given twice',
    wrap: answer(
      (req) => isOp('listPets')(req) && new URL(req.url, 'http://x').searchParams.getAll('status').length > 1,
      () => errorResponse(500, 'internal_error', 'expected a string, got an array'),
    ),
  },
  {
    name: 'crash-on-nul-in-path',
    breaks: 'errors.no-server-error',
    does: 'answers 502 to a petId holding a NUL character',
    wrap: answer(
      (req) => isOp('getPet')(req) && pathOf(req).includes('%00'),
      () => errorResponse(502, 'bad_gateway', 'upstream closed the connection'),
    ),
  },
];
