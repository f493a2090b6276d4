// Faults against section "Authentication": each loosens or misreports one part of the bearer check.
import { errorResponse, type ServerRequest } from '../../../src/reference-server/handler.js';
import { parseJson } from '../../../src/wire/json.js';
import { validate } from '../../../src/data/schemas.js';
import { answer, authenticated, isOp, mapResponse, type Fault, type Wrap } from '../faults-kit.js';

/** The Authorization header rewritten before the reference server judges it. */
const rewriteAuth =
  (
    fn: (header: string | undefined, apiKey: string) => string | undefined,
    when: (req: ServerRequest) => boolean = () => true,
  ): Wrap =>
  (inner, apiKey) =>
  (req) =>
    inner(
      when(req) ? { ...req, headers: { ...req.headers, authorization: fn(req.headers.authorization, apiKey) } } : req,
    );

/** Headers of every 401 rewritten. */
const challengeOf = (fn: (challenge: string | undefined, req: ServerRequest) => string | undefined): Wrap =>
  mapResponse((res, req) => {
    if (res.status !== 401) return res;
    const { 'www-authenticate': challenge, ...headers } = res.headers;
    const next = fn(challenge, req);
    return { ...res, headers: next === undefined ? headers : { ...headers, 'www-authenticate': next } };
  });

const validNewPet = (body: string): boolean => {
  try {
    return validate('NewPet', parseJson(body)).valid;
  } catch {
    return false;
  }
};

export const authFaults: Fault[] = [
  {
    name: 'list-without-auth',
    breaks: 'auth.missing-key',
    does: 'listPets answers without checking the key',
    wrap: (inner, apiKey) => (req) =>
      inner(isOp('listPets')(req) && !req.headers.authorization ? authenticated(req, apiKey) : req),
  },
  {
    name: 'get-without-auth',
    breaks: 'auth.missing-key',
    does: 'getPet answers a request without an Authorization header as if it carried the key',
    wrap: rewriteAuth((h, key) => h ?? `Bearer ${key}`, isOp('getPet')),
  },
  {
    name: 'create-without-auth',
    breaks: 'auth.missing-key',
    does: 'createPet accepts a request without an Authorization header',
    wrap: rewriteAuth((h, key) => h ?? `Bearer ${key}`, isOp('createPet')),
  },
  {
    name: 'create-rejects-everything',
    breaks: 'auth.valid-key',
    does: 'createPet answers 401 even to the right key',
    wrap: answer(isOp('createPet'), () => errorResponse(401, 'unauthorized', 'no')),
  },
  {
    name: 'list-accepts-any-token',
    breaks: 'auth.wrong-key',
    does: 'listPets accepts any non-empty bearer token',
    wrap: rewriteAuth((h, key) => (/^Bearer +\S+/i.test(h ?? '') ? `Bearer ${key}` : h), isOp('listPets')),
  },
  {
    name: 'key-prefix-accepted',
    breaks: 'auth.wrong-key',
    does: 'accepts any token that starts with the key (a prefix comparison)',
    wrap: rewriteAuth((h, key) => (h?.startsWith(`Bearer ${key}`) ? `Bearer ${key}` : h)),
  },
  {
    name: 'empty-token-accepted',
    breaks: 'auth.empty-token',
    does: 'getPet treats "Bearer" with no token as authenticated',
    wrap: rewriteAuth((h, key) => (h !== undefined && /^Bearer *$/i.test(h) ? `Bearer ${key}` : h), isOp('getPet')),
  },
  {
    name: 'basic-accepted',
    breaks: 'auth.other-scheme',
    does: 'accepts the key under the Basic scheme',
    wrap: rewriteAuth((h, key) => (h === `Basic ${key}` ? `Bearer ${key}` : h)),
  },
  {
    name: 'token-scheme-accepted',
    breaks: 'auth.other-scheme',
    does: 'accepts the key under the Token scheme on createPet',
    wrap: rewriteAuth((h, key) => (h === `Token ${key}` ? `Bearer ${key}` : h), isOp('createPet')),
  },
  {
    name: 'bare-key-accepted',
    breaks: 'auth.other-scheme',
    does: 'accepts the key sent bare, without a scheme, on listPets',
    wrap: rewriteAuth((h, key) => (h === key ? `Bearer ${key}` : h), isOp('listPets')),
  },
  {
    name: 'create-validates-before-auth',
    breaks: 'auth.before-validation',
    does: 'answers 400 to an invalid createPet body before looking at the key',
    wrap: answer(
      (req) => isOp('createPet')(req) && !validNewPet(req.body),
      () => errorResponse(400, 'invalid_body', 'Invalid NewPet'),
    ),
  },
  {
    name: 'reads-validated-before-auth',
    breaks: 'auth.before-validation',
    does: 'judges limit and petId (400, 404) before the key on listPets and getPet',
    wrap: (inner, apiKey) => async (req) => {
      if (!isOp('listPets', 'getPet')(req)) return inner(req);
      // Reads are safe, so the fault may ask the real server what it would say with the key.
      const asIfAuthenticated = await inner(authenticated(req, apiKey));
      return asIfAuthenticated.status === 400 || asIfAuthenticated.status === 404 ? asIfAuthenticated : inner(req);
    },
  },
  {
    name: 'no-challenge',
    breaks: 'auth.challenge',
    does: 'answers 401 without a WWW-Authenticate header',
    wrap: challengeOf(() => undefined),
  },
  {
    name: 'basic-challenge',
    breaks: 'auth.challenge',
    does: 'challenges with the Basic scheme instead of Bearer',
    wrap: challengeOf(() => 'Basic realm="petstore"'),
  },
  {
    name: 'invalid-token-without-token',
    breaks: 'auth.challenge.error-code',
    does: 'says error="invalid_token" also when no credentials were sent',
    wrap: challengeOf(() => 'Bearer realm="petstore", error="invalid_token"'),
  },
  {
    name: 'wrong-token-without-error',
    breaks: 'auth.challenge.error-code',
    does: 'never says why a token was refused: no error attribute for a wrong token',
    wrap: challengeOf(() => 'Bearer realm="petstore"'),
  },
  {
    name: 'lower-case-scheme-rejected',
    breaks: 'auth.scheme-case',
    does: 'accepts the scheme only when written exactly "Bearer"',
    wrap: rewriteAuth((h) => (h && /^bearer /i.test(h) && !h.startsWith('Bearer ') ? `Refused ${h}` : h)),
  },
  {
    name: 'token-the-key-starts-with-accepted',
    breaks: 'auth.wrong-key',
    does: 'accepts any non-empty token the key starts with (key.startsWith(token)), e.g. the key less its last character',
    wrap: rewriteAuth((h, key) => {
      const token = h?.startsWith('Bearer ') ? h.slice(7) : '';
      return token && key.startsWith(token) ? `Bearer ${key}` : h;
    }),
  },
];
