// Faults against section "Authentication".
import { errorResponse } from '../../../src/reference-server/handler.js';
import { answer, authenticated, isOp, type Fault } from '../faults-kit.js';

export const authFaults: Fault[] = [
  {
    name: 'list-without-auth',
    breaks: 'auth.missing-key',
    does: 'listPets answers without checking the key',
    wrap: (inner, apiKey) => (req) => inner(isOp('listPets')(req) && !req.headers.authorization ? authenticated(req, apiKey) : req),
  },
  {
    name: 'create-rejects-everything',
    breaks: 'auth.valid-key',
    does: 'createPet answers 401 even to the right key',
    wrap: answer(isOp('createPet'), () => errorResponse(401, 'unauthorized', 'no')),
  },
];
