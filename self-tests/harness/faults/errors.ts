// Faults against section "Errors": the Error body, its status field, the content type, and
// malformed input that makes the server fail.
import { errorResponse, type ServerRequest, type ServerResponse } from '../../../src/reference-server/handler.js';
import { answer, isObject, isOp, mapJson, mapResponse, type Fault, type Wrap } from '../faults-kit.js';

/** Rewrites the Error body of error answers (optionally only for one status). */
const errorBody = (fn: (body: Record<string, unknown>, res: ServerResponse) => unknown, status?: number): Wrap =>
  mapJson((body, res) => (res.status >= 400 && (status === undefined || res.status === status) && isObject(body) ? fn({ ...body }, res) : body));

const without = (body: Record<string, unknown>, field: string) => {
  delete body[field];
  return body;
};

const pathOf = (req: ServerRequest) => new URL(req.url, 'http://x').pathname;

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
    wrap: mapResponse((res) => (res.status >= 400 ? { ...res, headers: { ...res.headers, 'content-type': 'text/plain' } } : res)),
  },
  {
    name: 'errors-problem-json',
    breaks: 'errors.content-type',
    does: 'sends 400 answers as application/problem+json',
    wrap: mapResponse((res) => (res.status === 400 ? { ...res, headers: { ...res.headers, 'content-type': 'application/problem+json' } } : res)),
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
