// What a failure shows: the exchange that revealed it and a one-line reproduction.
import type { ApiResponse, SentRequest } from './wire.js';
import { detach } from './json.js';
import { PLACEHOLDER, redact } from './redact.js';

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
/** Double quotes so the shell expands $PETSTORE_API_KEY; everything else stays literal. */
const shellQuoteKey = (s: string) => `"${s.replace(/(["\\`])/g, '\\$1').replace(/\$(?!PETSTORE_API_KEY\b)/g, '\\$')}"`;

/** A copy-pastable curl command; the key appears only as $PETSTORE_API_KEY. */
export function curlCommand(req: SentRequest): string {
  const parts = ['curl', '-sS', '-i', '-X', req.method, shellQuote(req.url)];
  for (const [name, value] of Object.entries(req.headers)) {
    if (name === 'accept') continue;
    const header = `${name}: ${value}`;
    parts.push('-H', header.includes('$PETSTORE_API_KEY') ? shellQuoteKey(header) : shellQuote(header));
  }
  if (req.body !== undefined) {
    // curl would add a form Content-Type of its own; "Content-Type:" tells it to send none.
    if (!('content-type' in req.headers)) parts.push('-H', shellQuote('Content-Type:'));
    parts.push('--data-binary', shellQuote(req.body));
  }
  return parts.join(' ');
}

export interface Exchange {
  request: SentRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  reproduce: string;
  /** With --har: the index in the HAR's log.entries of the send this exchange shows. */
  harEntry?: number;
}

const MAX_BODY_IN_EVIDENCE = 2000;

const redactHeaders = (headers: Record<string, string>) =>
  Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, redact(v)]));

export function exchangeOf(res: ApiResponse): Exchange {
  const text =
    res.text.length > MAX_BODY_IN_EVIDENCE
      ? `${detach(res.text.slice(0, MAX_BODY_IN_EVIDENCE))}… (${res.text.length} chars)`
      : res.text;
  return requestOnly(res.request, { status: res.status, headers: redactHeaders(res.headers), body: redact(text) });
}

/** The bearer header as the client writes it for the key: final, never redacted again (a key "a" would garble "Bearer"). */
const KEY_HEADER = `Bearer ${PLACEHOLDER}`;

/** Everything of a request that reaches the wire is redacted (again: the client did), URL, header values, body. */
function redactRequest(req: SentRequest): SentRequest {
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, v === KEY_HEADER ? v : redact(v)]),
  );
  return { ...req, url: redact(req.url), headers, ...(req.body === undefined ? {} : { body: redact(req.body) }) };
}

export function requestOnly(sent: SentRequest, response?: Exchange['response']): Exchange {
  const { harEntry, ...wire } = sent;
  const request = redactRequest(wire);
  return {
    request,
    ...(response ? { response } : {}),
    reproduce: curlCommand(request),
    ...(harEntry === undefined ? {} : { harEntry }),
  };
}
