// The text of a failure: the suite's own words, with each quote from the wire marked by quoted()
// (src/wire/redact.ts) so that redactMessage redacts the quotes and never the words. A Message is
// built only by msg`...`, whose interpolations are wire text, other messages, numbers, requirement
// ids or operation names: a plain string (a header, a body, what the network said) does not
// compile, so a check cannot forget to mark what it quotes.
import type { RequirementId } from '../data/generated/requirement-ids.js';
import type { QuotedText } from '../wire/redact.js';

declare const message: unique symbol;
export type Message = string & { readonly [message]: 'message' };

/** The interface's operations: a closed vocabulary of the suite, like requirement ids. */
export type OperationName = 'listPets' | 'createPet' | 'getPet';

/** What a Message may quote: nothing that can hold unmarked text from the wire. */
export type Part = Message | QuotedText | number | bigint | RequirementId | OperationName;

/** The suite's words with marked quotes: the same string the template literal would make. */
export function msg(strings: TemplateStringsArray, ...parts: readonly Part[]): Message {
  // String.raw over the cooked strings: the template's escapes as a literal reads them.
  return String.raw({ raw: strings }, ...parts) as Message;
}

/** Parts joined with a separator, e.g. cases one per line. */
export function joined(parts: readonly Part[], separator: Message): Message {
  return parts.join(separator) as Message;
}

/**
 * The suite's own words, never text from the wire: for what the suite says at run time that no
 * template holds (a check's name, a rule the generators describe). Each use says why.
 */
export function words(text: string): Message {
  return text as Message;
}

/** "1 Pet", "20 Pets": a count of the interface's Pets. */
export const petsCount = (n: number): Message => (n === 1 ? msg`1 Pet` : msg`${n} Pets`);
