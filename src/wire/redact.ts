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

const secrets = new Set<string>();

export function registerSecret(secret: string): void {
  if (secret) secrets.add(secret);
}

/** For self-tests that redact with one key after another in one process. */
export function forgetSecrets(): void {
  secrets.clear();
}

/**
 * A wire-derived string with every occurrence of a key written as the placeholder. Placeholders
 * already there are kept as they are (it is idempotent), so a key that is part of the placeholder
 * itself (`E`, `API`) cannot garble it.
 */
export function redact(text: string): string {
  let out = text;
  // A text without the key is left as it is (most are): no split, no copy.
  for (const s of secrets)
    if (out.includes(s))
      out = out
        .split(PLACEHOLDER)
        .map((piece) => piece.split(s).join(PLACEHOLDER))
        .join(PLACEHOLDER);
  return out;
}

/** Whether any of `texts` holds a key (then redact each). */
export function holdsSecret(...texts: string[]): boolean {
  for (const s of secrets) for (const text of texts) if (text.includes(s)) return true;
  return false;
}

// A message mixes the suite's words with quotes from the wire; these marks (private-use code
// points) fence the quotes, so redactMessage redacts them and leaves the words alone. The types
// hold checks to it: wire() returns WireText, and a failure's text is a Message
// (src/checks/message.ts), whose template takes no unmarked string.
const OPEN = '\uE000';
const CLOSE = '\uE001';
const MARKS = /[\uE000\uE001]/g;

declare const wireText: unique symbol;
/** Text marked as from or to the wire (by wire()): what a failure message may quote (src/checks/message.ts). */
export type WireText = string & { readonly [wireText]: 'wire' };

/** Marks a string that came from or goes to the wire, for a message (see redactMessage). */
export function wire(text: string): WireText {
  // Marks inside (a quote within a quote, or a server's own) are dropped: the span is one quote.
  return `${OPEN}${text.replace(MARKS, '')}${CLOSE}` as WireText;
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
