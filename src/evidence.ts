// What a failure shows: the exchange that revealed it and a one-line reproduction.
import type { ApiResponse, SentRequest } from './client.js';
import { detach } from './json.js';
import { redact } from './redact.js';

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
  if (req.body !== undefined) parts.push('--data-binary', shellQuote(req.body));
  return parts.join(' ');
}

export interface Exchange {
  request: SentRequest;
  response?: { status: number; headers: Record<string, string>; body: string };
  reproduce: string;
}

const MAX_BODY_IN_EVIDENCE = 2000;

export function exchangeOf(res: ApiResponse): Exchange {
  const text = res.text.length > MAX_BODY_IN_EVIDENCE ? `${detach(res.text.slice(0, MAX_BODY_IN_EVIDENCE))}… (${res.text.length} chars)` : res.text;
  const headers = Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k, redact(v)]));
  return { request: res.request, response: { status: res.status, headers, body: redact(text) }, reproduce: curlCommand(res.request) };
}

export function requestOnly(req: SentRequest): Exchange {
  return { request: req, reproduce: curlCommand(req) };
}
