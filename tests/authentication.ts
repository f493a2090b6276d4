// Interface section "Authentication": bearer key on every operation, 401 with an Error body.
// Every check runs on each operation the server still offers (getPet until its removal day).
import { expectHeader, expectStatus } from '../src/checks/assert.js';
import { expectError } from './rules/assert.js';
import type { ApiResponse, Auth } from '../src/wire/requests.js';
import { challengeOf, type Challenge } from '../src/wire/headers.js';
import { show } from '../src/wire/json.js';
import { quoted } from '../src/wire/redact.js';
import type { CatalogueInput, Requirement, RequirementId } from '../src/checks/requirement.js';
import { because, eachCase, type CaseCause } from '../src/checks/requirement.js';
import type { RunContext } from '../src/checks/context.js';
import { expectKeyAccepted, getPetStage, liveOperations, type Operation } from './operations.js';
import { unknownPetIds } from './pets.js';
import { wrongKeyProperty } from './properties/authentication.js';
import { msg, words, type Message } from '../src/checks/message.js';
import { AUTHORIZATION_LENIENCIES, KEY_LESS_LAST_CHARACTER } from './leniencies/index.js';

const SECTION = 'Authentication';

const bearer = (token: string): Auth => ({ authorization: `Bearer ${token}` });

interface Credentials {
  what: Message;
  auth: Auth;
  /** The catalogued input they are, if any (for the run's coverage). */
  input?: CatalogueInput;
  /** The requirement whose rule says these credentials get a 401. */
  refusedBy: RequirementId;
}

const NO_KEY: Credentials = { what: msg`no key`, auth: 'none', refusedBy: 'auth.missing-key' };

/**
 * Wrong keys: one made up from the seed, and the right key with a suffix (catches a prefix
 * comparison). The key less its last character (redacted as ${PETSTORE_API_KEY%?}) is the
 * property's; no other near copy of the key is sent, as none is redacted.
 */
function wrongKeys(ctx: RunContext): Credentials[] {
  return [
    {
      what: msg`a made-up key`,
      auth: bearer(`wrong-key-${(ctx.config.seed >>> 0).toString(16).padStart(8, '0')}`),
      refusedBy: 'auth.wrong-key',
    },
    { what: msg`the right key with a suffix`, auth: bearer(`${ctx.config.apiKey}-x`), refusedBy: 'auth.wrong-key' },
  ];
}

/** The catalogue's Authorization values (tests/leniencies/authorization.ts), made from the key; the property sends the key less its last character. */
const catalogued = (ctx: RunContext): Credentials[] =>
  AUTHORIZATION_LENIENCIES.filter((input) => input !== KEY_LESS_LAST_CHARACTER).map((input) => ({
    what: words(input.what),
    auth: { authorization: input.value(ctx.config.apiKey) },
    refusedBy: 'auth.wrong-key',
    input,
  }));

/** Runs `fn` for every live operation and every item, concurrently, reporting every failing pair. */
function onEveryOperation<T>(
  ctx: RunContext,
  items: readonly T[],
  fn: (op: Operation, item: T) => Promise<void>,
): Promise<void> {
  return eachCase(
    ctx,
    liveOperations(ctx).flatMap((op) => items.map((item) => [op, item] as const)),
    ([op, item]) => fn(op, item),
  );
}

/** What every value with a Bearer challenge holds (a scheme is case-insensitive): the form an exported test checks. */
const HAS_BEARER = /[Bb][Ee][Aa][Rr][Ee][Rr]/;
/** What every challenge saying error="invalid_token" holds (a parameter's name is case-insensitive, its value exact). */
const HAS_INVALID_TOKEN = /[Ee][Rr][Rr][Oo][Rr]\s*=\s*"?invalid_token/;

/** The Bearer challenge of a WWW-Authenticate value, if any. */
const bearerChallenge = (value: string): Challenge | undefined => challengeOf(value, 'bearer');

/** A 401 with a Bearer challenge (RFC 6750 §3); returns the challenge. No 401 at all breaks the rule of `c` (see CaseCause). */
function expectBearerChallenge(res: ApiResponse, c: Credentials): Challenge {
  because([c.refusedBy], () => expectStatus(res, 401));
  const value = expectHeader(
    res,
    msg`WWW-Authenticate`,
    msg`a challenge with the Bearer scheme (RFC 6750 §3)`,
    (v) => bearerChallenge(v) !== undefined,
    HAS_BEARER,
  );
  return bearerChallenge(value) as Challenge;
}

/** Requests that are invalid in some other way too: authentication must still be judged first. */
interface InvalidRequest {
  what: Message;
  /** The requirement whose rule covers this input with a key. */
  input: RequirementId;
  getPet?: true;
  send(ctx: RunContext, auth: Auth): Promise<ApiResponse>;
}

const INVALID_REQUESTS: readonly InvalidRequest[] = [
  {
    what: msg`listPets with limit=0`,
    input: 'listPets.limit.out-of-range',
    send: (ctx, auth) => ctx.api.listPets([['limit', '0']], { auth }),
  },
  {
    what: msg`listPets with limit=abc`,
    input: 'listPets.limit.malformed',
    send: (ctx, auth) => ctx.api.listPets([['limit', 'abc']], { auth }),
  },
  {
    what: msg`createPet with a body that is not JSON`,
    input: 'createPet.body-not-object',
    send: (ctx, auth) => ctx.api.createPet(undefined, { body: { raw: '{"name": ' }, auth }),
  },
  {
    what: msg`createPet without name and categoryId`,
    input: 'createPet.missing-name',
    send: (ctx, auth) => ctx.api.createPet({}, { auth }),
  },
  {
    what: msg`getPet for an unknown id`,
    input: 'getPet.unknown',
    getPet: true,
    send: (ctx, auth) => ctx.api.getPet(unknownPetIds(ctx)[0], { auth }),
  },
  {
    what: msg`getPet for id abc`,
    input: 'getPet.malformed-id',
    getPet: true,
    send: (ctx, auth) => ctx.api.getPet('abc', { auth }),
  },
];

/** The Bearer challenge's error attribute, as bearerChallenge parses it: what an exported test asserts. */
const bearerError = (equals: string | null) => ({ challenge: 'bearer', param: 'error', equals });

export const authentication: Requirement[] = [
  {
    id: 'auth.missing-key',
    level: 'MUST',
    section: SECTION,
    statement: 'A request without an Authorization header is answered 401 with an Error body, on every operation',
    check: (ctx) =>
      eachCase(ctx, liveOperations(ctx), async (op) => {
        expectError(await op.send(ctx, { auth: 'none' }), 401, msg`${op.name} without a key`);
      }),
  },
  {
    id: 'auth.wrong-key',
    properties: [wrongKeyProperty],
    level: 'MUST',
    section: SECTION,
    statement: 'A bearer token that is not the key is answered 401 with an Error body, on every operation',
    inputs: AUTHORIZATION_LENIENCIES,
    check: (ctx) =>
      onEveryOperation(ctx, [...wrongKeys(ctx), ...catalogued(ctx)], async (op, key) => {
        expectError(
          await ctx.coverage.sending(key.input, op.send(ctx, { auth: key.auth })),
          401,
          msg`${op.name} with ${key.what}`,
        );
      }),
  },
  {
    id: 'auth.empty-token',
    level: 'MUST',
    section: SECTION,
    statement: 'The Bearer scheme with an empty token is answered 401 with an Error body, on every operation',
    check: (ctx) =>
      onEveryOperation(ctx, ['Bearer ', 'Bearer'], async (op, authorization) => {
        expectError(
          await op.send(ctx, { auth: { authorization } }),
          401,
          msg`${op.name} with Authorization: ${show(authorization)}`,
        );
      }),
  },
  {
    id: 'auth.other-scheme',
    level: 'MUST',
    section: SECTION,
    statement:
      'The right key under another scheme (Basic, Token, or bare) is answered 401 with an Error body, on every operation',
    check: (ctx) =>
      onEveryOperation(
        ctx,
        [
          ['Basic ', msg`under the Basic scheme`],
          ['Token ', msg`under the Token scheme`],
          ['', msg`bare, without a scheme`],
        ] as const,
        async (op, [scheme, how]) => {
          const res = await op.send(ctx, { auth: { authorization: `${scheme}${ctx.config.apiKey}` } });
          expectError(res, 401, msg`${op.name} with the key ${how}`);
        },
      ),
  },
  {
    id: 'auth.valid-key',
    level: 'MUST',
    section: SECTION,
    statement: 'The right key sent as a bearer token is accepted on every operation',
    check: (ctx) =>
      eachCase(ctx, liveOperations(ctx), async (op) => {
        expectKeyAccepted(op, await op.send(ctx, { auth: 'key' }), msg`${op.name} with the right key`);
      }),
  },
  {
    id: 'auth.before-validation',
    level: 'MUST',
    section: SECTION,
    statement: 'A request that is both unauthenticated and invalid is answered 401, not 400 or 404',
    check: (ctx) => {
      // In read-only mode the createPet cases are not sent (eachCase notes them).
      const requests = INVALID_REQUESTS.filter((r) => !r.getPet || getPetStage(ctx) === 'live');
      const credentials = [NO_KEY, ...wrongKeys(ctx).slice(0, 1)];
      return eachCase(
        ctx,
        requests.flatMap((r) => credentials.map((c) => [r, c] as const)),
        async ([r, c]) => {
          const res = await r.send(ctx, c.auth);
          // A 5xx shows the input crashed the server (errors.no-server-error's rule), not validation
          // before authentication. No 401 at all: these credentials refused nowhere breaks their rule
          // too, and this one is grouped under it when that failed as well.
          const cause: CaseCause =
            res.status >= 500
              ? { rules: ['errors.no-server-error', r.input] }
              : res.status !== 401
                ? { rules: [c.refusedBy], mine: true }
                : {};
          because(cause, () => expectError(res, 401, msg`${r.what}, with ${c.what}: authentication comes first`));
        },
      );
    },
  },
  {
    id: 'auth.challenge',
    level: 'SHOULD',
    section: SECTION,
    // RFC 9110 §11.6.1: a 401 carries WWW-Authenticate; RFC 6750 §3: the challenge uses the Bearer scheme.
    statement: 'A 401 carries a WWW-Authenticate header with a Bearer challenge (RFC 6750 §3)',
    check: (ctx) =>
      onEveryOperation(
        ctx,
        [
          NO_KEY,
          ...wrongKeys(ctx).slice(0, 1),
          { what: msg`an empty token`, auth: bearer(''), refusedBy: 'auth.empty-token' } satisfies Credentials,
        ],
        async (op, c) => {
          expectBearerChallenge(await op.send(ctx, { auth: c.auth }), c);
        },
      ),
  },
  {
    id: 'auth.challenge.error-code',
    level: 'SHOULD',
    section: SECTION,
    // RFC 6750 §3 and §3.1: error="invalid_token" when a token failed; no error code when none was sent.
    statement:
      'The Bearer challenge says error="invalid_token" for a wrong token and carries no error attribute when no key was sent (RFC 6750 §3.1)',
    check: (ctx) =>
      onEveryOperation(ctx, [NO_KEY, ...wrongKeys(ctx).slice(0, 1)], async (op, c) => {
        const res = await op.send(ctx, { auth: c.auth });
        const { error } = expectBearerChallenge(res, c).params;
        if (c !== NO_KEY) {
          expectHeader(
            res,
            msg`WWW-Authenticate`,
            msg`a Bearer challenge with error="invalid_token", since a wrong token was sent (RFC 6750 §3.1)`,
            () => error === 'invalid_token',
            HAS_INVALID_TOKEN,
            bearerError('invalid_token'),
          );
        } else {
          expectHeader(
            res,
            msg`WWW-Authenticate`,
            msg`a Bearer challenge without an error attribute, since no credentials were sent (RFC 6750 §3.1)`,
            () => error === undefined,
            undefined,
            bearerError(null),
          );
        }
      }),
  },
  {
    id: 'auth.scheme-case',
    level: 'SHOULD',
    section: SECTION,
    // RFC 9110 §11.1: the authentication scheme name is case-insensitive.
    statement:
      'The scheme name is matched case-insensitively: "bearer" and "BEARER" with the right key are accepted (RFC 9110 §11.1)',
    check: (ctx) =>
      onEveryOperation(ctx, ['bearer', 'BEARER'], async (op, scheme) => {
        // The key in another spelling: reserved here, as op.send reserves ahead only for auth 'key'.
        if (op.name === 'createPet') ctx.reserveCreates(1, msg`createPet with a differently cased scheme`);
        const res = await op.send(ctx, { auth: { authorization: `${scheme} ${ctx.config.apiKey}` } });
        expectKeyAccepted(op, res, msg`${op.name} with the scheme written "${quoted(scheme)}"`);
      }),
  },
];
