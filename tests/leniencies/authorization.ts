// The Authorization header, on every operation.
import { prefixSent } from '../../src/wire/redact.js';
import { judged, type Entry } from './entry.js';

type Header = (key: string) => string;
/** Authorization header values made from the key; the rule: 401 with an Error body on every operation. */
const wrongKey = judged<Header>('every', 'authorization', 'auth.wrong-key', 'MUST');

/**
 * The key less its last character: sent by auth.wrong-key's property as its examples (every
 * operation, every seed), not by its fixed check, so a store turned failing meets it as before.
 */
export const KEY_LESS_LAST_CHARACTER: Entry<Header> = wrongKey('key-less-last-character', {
  // Reports write it ${PETSTORE_API_KEY%?}; a key under 8 characters is sent twice over instead.
  value: (key) => `Bearer ${prefixSent(key) ?? `${key}${key}`}`,
  what: 'the key less its last character (a token the key starts with)',
  acceptedBy: [
    'comparing with key.startsWith(token) or key.includes(token)',
    "comparing only the token's length of the key (strncmp(key, token, strlen(token)))",
  ],
});

export const AUTHORIZATION_LENIENCIES: readonly Entry<Header>[] = [
  wrongKey('token-then-words', {
    value: (key) => `Bearer ${key} extra`,
    what: 'the key followed by a space and a word (the token is then not the key)',
    acceptedBy: ['splitting the header on spaces and taking the second part (header.split(" ")[1])'],
  }),
  wrongKey('scheme-colon', {
    value: (key) => `Bearer:${key}`,
    what: 'Bearer: with a colon and no space, which is no Bearer credential',
    acceptedBy: ['a pattern such as /Bearer\\W+(.+)/', 'stripping the first 7 characters'],
  }),
  KEY_LESS_LAST_CHARACTER,
];
