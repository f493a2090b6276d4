// Parsers for the HTTP header fields the suite judges: authentication challenges (RFC 9110 §11),
// dates (IMF-fixdate, RFC 9110 §5.6.7; Structured Field Date, RFC 9651 §3.3.7) and links (RFC 8288).
// Each returns undefined (or skips a part) where the value does not follow its grammar.
// It stands alone on purpose: pure grammar, no suite types, used by the checks that judge those
// headers (tests/authentication.ts, tests/get-pet.ts), like the JSON reader beneath the client.

export interface Challenge {
  /** As sent; compare case-insensitively (RFC 9110 §11.1). */
  scheme: string;
  /** Lower-case parameter names; quoted-string values unescaped. */
  params: Record<string, string>;
  token68?: string;
}

type Lexeme = { kind: 'word' | 'quoted'; text: string } | { kind: '=' | ',' };

/** Splits a header value into words, quoted strings, "=" and ","; whitespace only separates. */
function lex(value: string): Lexeme[] {
  const out: Lexeme[] = [];
  let i = 0;
  while (i < value.length) {
    const c = value[i] as string;
    if (c === ' ' || c === '\t') i++;
    else if (c === '=' || c === ',') {
      out.push({ kind: c });
      i++;
    } else if (c === '"') {
      let text = '';
      for (i++; i < value.length && value[i] !== '"'; i++) text += value[i] === '\\' ? (value[++i] ?? '') : value[i];
      out.push({ kind: 'quoted', text });
      i++;
    } else {
      const word = /^[^\s=,"]+/.exec(value.slice(i))?.[0] ?? c;
      out.push({ kind: 'word', text: word });
      i += word.length;
    }
  }
  return out;
}

/** The challenges of a WWW-Authenticate value (RFC 9110 §11.6.1: `#challenge`). */
export function parseChallenges(value: string): Challenge[] {
  const lexemes = lex(value);
  const challenges: Challenge[] = [];
  let current: Challenge | undefined;
  for (let i = 0; i < lexemes.length;) {
    const a = lexemes[i];
    const b = lexemes[i + 1];
    const c = lexemes[i + 2];
    if (a?.kind !== 'word') {
      i++;
      continue;
    }
    if (current && b?.kind === '=' && (c?.kind === 'word' || c?.kind === 'quoted')) {
      current.params[a.text.toLowerCase()] = c.text;
      i += 3;
      continue;
    }
    if (
      current &&
      current.token68 === undefined &&
      Object.keys(current.params).length === 0 &&
      lexemes[i - 1]?.kind !== ','
    ) {
      // A token68 right after the scheme, with its "=" padding.
      let j = i + 1;
      while (lexemes[j]?.kind === '=') j++;
      current.token68 = a.text + '='.repeat(j - i - 1);
      i = j;
      continue;
    }
    current = { scheme: a.text, params: {} };
    challenges.push(current);
    i++;
  }
  return challenges;
}

/** The first challenge of `scheme` (lower-case; a scheme is case-insensitive) in a WWW-Authenticate value. */
export function challengeOf(value: string, scheme: string): Challenge | undefined {
  return parseChallenges(value).find((c) => c.scheme.toLowerCase() === scheme);
}

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** An IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`), the form senders must generate; undefined otherwise. */
/** The form of an IMF-fixdate; parseImfFixdate also checks the date exists and its day name. */
export const IMF_FIXDATE = /^(\w{3}), (\d{2}) (\w{3}) (\d{4}) (\d{2}):(\d{2}):(\d{2}) GMT$/;

export function parseImfFixdate(value: string): Date | undefined {
  const m = IMF_FIXDATE.exec(value.trim());
  if (!m) return undefined;
  const [, day, dd, mon, yyyy, hh, mi, ss] = m as unknown as string[];
  const month = MONTHS.indexOf(mon as string);
  const date = new Date(Date.UTC(Number(yyyy), month, Number(dd), Number(hh), Number(mi), Number(ss)));
  // Reject what Date would roll over (31 Feb, 25:00) and a day name that does not match the date.
  const exact =
    month >= 0 &&
    date.getUTCDate() === Number(dd) &&
    date.getUTCHours() === Number(hh) &&
    date.getUTCMinutes() === Number(mi) &&
    date.getUTCSeconds() === Number(ss) &&
    DAYS[date.getUTCDay()] === day;
  return exact ? date : undefined;
}

/** A Structured Field Date (`@1735689600`, RFC 9651 §3.3.7), as a Date; undefined otherwise. */
/** A Structured Field Date (RFC 9651 §3.3.7): @ and the seconds since the epoch. */
export const SF_DATE = /^@(-?\d{1,15})$/;

export function parseSfDate(value: string): Date | undefined {
  const m = SF_DATE.exec(value.trim());
  return m ? new Date(Number(m[1]) * 1000) : undefined;
}

export interface Link {
  /** The URI reference between < and >, unresolved. */
  target: string;
  /** Lower-case parameter names; quoted values unescaped. */
  params: Record<string, string>;
}

/** The links of a Link value (RFC 8288 §3: `#link-value`); malformed parts are left out. */
export function parseLinks(value: string): Link[] {
  const links: Link[] = [];
  const re = /<([^>]*)>((?:\s*;\s*[^;,=\s]+(?:\s*=\s*(?:"(?:[^"\\]|\\.)*"|[^;,\s]*))?)*)/g;
  for (const m of value.matchAll(re)) {
    const params: Record<string, string> = {};
    for (const p of (m[2] ?? '').matchAll(/;\s*([^;,=\s]+)(?:\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;,\s]*)))?/g)) {
      params[(p[1] as string).toLowerCase()] = p[2] !== undefined ? p[2].replace(/\\(.)/g, '$1') : (p[3] ?? '');
    }
    links.push({ target: m[1] as string, params });
  }
  return links;
}

/** The path a link's target names, resolved against the URL of the request, without trailing slashes; undefined for no URL. */
export function resolvedPath(target: string, requestUrl: string): string | undefined {
  try {
    return new URL(target, requestUrl).pathname.replace(/\/+$/, '');
  } catch {
    return undefined;
  }
}
