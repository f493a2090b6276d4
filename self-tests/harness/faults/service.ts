// Faults against section "What the service does": bodies are JSON (application/json).
import type { ServerResponse } from '../../../src/reference-server/handler.js';
import { isOp, mapResponse, type Fault, type Operation } from '../faults-kit.js';

/** Successful answers of `op` carry this Content-Type instead. */
const successTyped = (op: Operation, contentType: string) =>
  mapResponse(
    (res: ServerResponse) =>
      res.status < 300 ? { ...res, headers: { ...res.headers, 'content-type': contentType } } : res,
    isOp(op),
  );

export const serviceFaults: Fault[] = [
  {
    name: 'list-text-plain',
    breaks: 'service.json-content-type',
    does: 'answers a successful listPets with Content-Type text/plain (the body is still JSON)',
    wrap: successTyped('listPets', 'text/plain'),
  },
  {
    name: 'get-text-json',
    breaks: 'service.json-content-type',
    does: 'answers a successful getPet with the unregistered type text/json',
    wrap: successTyped('getPet', 'text/json; charset=utf-8'),
  },
  {
    name: 'create-json-lookalike',
    breaks: 'service.json-content-type',
    does: 'answers a successful createPet with Content-Type application/json-patch+json',
    wrap: successTyped('createPet', 'application/json-patch+json'),
  },
];
