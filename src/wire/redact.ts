// The API key must never appear in what came from or goes to the wire: header values, bodies,
// URLs, curl lines, what the network said, and the parts of a message that quote them. The
// suite's own words (ids, statements, sections, message templates) are never touched: a key
// such as `pet`, `key` or `a` occurs in them by chance, and that reveals nothing about it.
//
// The guarantee (tested in self-tests/units/redaction.test.ts, stated in docs/reports.md): for any key K,
// (1) every wire-derived string in the output, split at the placeholder $PETSTORE_API_KEY,
//     contains K in none of its parts; and
// (2) the output with its wire-derived strings set aside is byte for byte the output of the same
//     run with any other key.
export const PLACEHOLDER = '$PETSTORE_API_KEY';
/**
 * The key less its last character (what auth.wrong-key's property sends, for a server comparing
 * by prefix), as a shell writes it: all but one character of the key is the key, near enough.
 */
export const PREFIX_PLACEHOLDER = '${PETSTORE_API_KEY%?}';
/** Keys this long or longer are redacted by their prefix too; a shorter one has none sent (see prefixSent). */
export const PREFIX_REDACTED_FROM = 8;
/** Either placeholder: the pieces between them are what redaction may rewrite. */
const PLACEHOLDERS = /(\$\{PETSTORE_API_KEY%\?\}|\$PETSTORE_API_KEY)/;

const secrets = new Set<string>();
/** Each key's prefix (see PREFIX_PLACEHOLDER), redacted after every key, which holds it. */
const prefixes = new Set<string>();

export function registerSecret(secret: string): void {
  if (!secret) return;
  secrets.add(secret);
  if (secret.length >= PREFIX_REDACTED_FROM) prefixes.add(secret.slice(0, -1));
}

/** For self-tests that redact with one key after another in one process. */
export function forgetSecrets(): void {
  secrets.clear();
  prefixes.clear();
}

/** The key less its last character, when the key is long enough for it to be redacted; else undefined. */
export function prefixSent(key: string): string | undefined {
  return key.length >= PREFIX_REDACTED_FROM ? key.slice(0, -1) : undefined;
}

/**
 * A wire-derived string with every occurrence of a key written as the placeholder, and of a key
 * less its last character as PREFIX_PLACEHOLDER. Placeholders already there are kept as they are
 * (it is idempotent), so a key that is part of a placeholder itself (`E`, `API`) cannot garble it.
 */
export function redact(text: string): string {
  let out = text;
  // A text without the key is left as it is (most are): no split, no copy.
  const rewrite = (s: string, placeholder: string) => {
    if (out.includes(s))
      out = out
        .split(PLACEHOLDERS)
        .map((piece, i) => (i % 2 === 1 ? piece : piece.split(s).join(placeholder)))
        .join('');
  };
  for (const s of secrets) rewrite(s, PLACEHOLDER);
  for (const s of prefixes) rewrite(s, PREFIX_PLACEHOLDER);
  return out;
}

/** Whether any of `texts` holds a key (then redact each). */
export function holdsSecret(...texts: string[]): boolean {
  // A text holding a key holds its prefix: a key with a prefix is found by its prefix alone.
  for (const text of texts) {
    for (const s of prefixes) if (text.includes(s)) return true;
    for (const s of secrets) if (prefixSent(s) === undefined && text.includes(s)) return true;
  }
  return false;
}

// A message mixes the suite's words with quotes from the wire; these marks (private-use code
// points) fence the quotes, so redactMessage redacts them and leaves the words alone. The types
// hold checks to it: quoted() returns QuotedText, and a failure's text is a Message
// (src/checks/message.ts), whose template takes no unmarked string.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/g;

declare const wireText: unique symbol;
/** Text marked as from or to the wire (by quoted()): what a failure message may quote (src/checks/message.ts). */
export type QuotedText = string & { readonly [wireText]: 'wire' };

/** Marks a string that came from or goes to the wire, for a message (see redactMessage). */
export function quoted(text: string): QuotedText {
  // Marks inside (a quote within a quote, or a server's own) are dropped: the span is one quote.
  return `${OPEN}${text.replace(MARKS, '')}${CLOSE}` as QuotedText;
}

/** A message ready to leave the check: its wire quotes redacted, its own words as written, no marks. */
export function redactMessage(message: string): string {
  let out = '';
  let depth = 0;
  let quote = '';
  for (const part of message.split(/([\uE000\uE001])/)) {
    if (part === OPEN) {
      depth++;
    } else if (part === CLOSE) {
      if (depth > 0) depth--;
      if (depth === 0) {
        out += redact(quote);
        quote = '';
      }
    } else if (depth > 0) quote += part;
    else out += part;
  }
  return out + redact(quote);
}
