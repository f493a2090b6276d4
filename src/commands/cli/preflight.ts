// Before any check: the probe (is anything there?) and the preflight (the service, with this key?).
import { STATUS_CODES } from 'node:http';
import type { Config } from '../../config/config.js';
import type { Exchange } from '../../wire/evidence.js';
import { quoted } from '../../wire/redact.js';
import type { EarlyInterrupts } from './run.js';

/** Why the target cannot be tested, in one line, with the exchange that showed it. */
export interface Diagnosis {
  reason: string;
  evidence: Exchange[];
}

type ClientApi = typeof import('../../wire/client.js');
type Answer = Awaited<ReturnType<InstanceType<ClientApi['Client']>['send']>>;

const contentType = (res: Answer) => {
  const type = res.headers['content-type']?.split(';')[0]?.trim();
  return type ? quoted(type) : 'no Content-Type';
};

/**
 * A 502, 503 or 504, or a 5xx that is not JSON: what a gateway or proxy answers when the service
 * behind it is down. The service's own JSON 5xx is not this (see preflight).
 */
function failingService(res: Answer, baseUrl: string): string | undefined {
  if (res.status < 500 || res.status > 599) return undefined;
  if (![502, 503, 504].includes(res.status) && res.jsonError === undefined) return undefined;
  const server = /^[^\s/(]+/.exec(res.headers.server ?? '')?.[0];
  return `the service behind ${quoted(baseUrl)} is failing (${res.status} ${STATUS_CODES[res.status] ?? ''}${server ? ` from ${quoted(server)}` : ''})`.replace(
    ' )',
    ')',
  );
}

/**
 * Before any check: one unauthenticated GET {base}/pets (the probe: is anything there?), then one
 * authenticated GET {base}/pets?limit=1 (the preflight: is this the service, with this key?). A
 * mistake in the setup is one clear line instead of every check failing for the same reason.
 * Only these two requests decide; whatever the target does later is judged by the checks.
 */
export async function preflight(
  config: Config & { baseUrl: string },
  keyVariable: string,
  interrupts: EarlyInterrupts,
  warn: (line: string) => void = () => {},
): Promise<Diagnosis | undefined> {
  const { Client } = await import('../../wire/client.js');
  const { RetriesExhausted, TransportError } = await import('../../wire/requests.js');
  const { exchangeOf } = await import('../../wire/evidence.js');
  const base = config.baseUrl.replace(/\/+$/, '');
  const client = interrupts.watch(
    new Client({ baseUrl: base, apiKey: config.apiKey ?? '', timeoutMs: config.timeoutMs, concurrency: 1 }),
  );
  /**
   * The answer; undefined for a 429 or 503 with Retry-After (a rate limit: the run honours it, so
   * it is nothing to diagnose); the transport's reason when there is no answer.
   */
  const send = async (req: Parameters<typeof client.send>[0]): Promise<Answer | string | undefined> => {
    try {
      return await client.send(req);
    } catch (err) {
      if (err instanceof RetriesExhausted) return undefined;
      if (err instanceof TransportError) return err.message;
      throw err;
    }
  };
  try {
    const probe = await send({ method: 'GET', path: '/pets', auth: 'none' });
    if (typeof probe === 'string') return { reason: `cannot reach ${quoted(base)}: ${probe}`, evidence: [] };
    const down = probe && failingService(probe, base);
    if (probe && down) return { reason: down, evidence: [exchangeOf(probe)] };

    const res = await send({ method: 'GET', path: '/pets', query: [['limit', '1']] });
    // No answer to the key, though the probe got one: the checks will say what happens (time-outs, resets).
    if (res === undefined || typeof res === 'string') return undefined;
    const evidence = [exchangeOf(res)];
    const where = `GET ${quoted(new URL(res.request.url).pathname)}`;
    if (res.status === 401 || res.status === 403) {
      return {
        reason: `the server refused the API key (${res.status} on ${where} with the key): check ${keyVariable}`,
        evidence,
      };
    }
    if (res.status === 404) {
      if (/\/v\d+$/.test(new URL(base).pathname)) {
        return {
          reason:
            `GET ${quoted(`${base}/pets`)} answered 404: nothing serves the pets collection under this base URL, which must be where the ` +
            `interface's paths start (e.g. https://staging.example.com/v1)`,
          evidence,
        };
      }
      const versioned = await send({ method: 'GET', path: '/v1/pets', query: [['limit', '1']] });
      const hint =
        typeof versioned === 'object' && versioned.status !== 404
          ? ` (GET ${quoted(`${base}/v1/pets`)} answers ${versioned.status})`
          : '';
      return {
        reason: `GET ${quoted(`${base}/pets`)} answered 404: the base URL must end with the version segment, e.g. ${quoted(`${base}/v1`)}${hint}`,
        evidence,
      };
    }
    const failing = failingService(res, base);
    if (failing) return { reason: failing, evidence };
    if (res.status >= 500) return { reason: `the server is failing (${res.status} on ${where})`, evidence };
    if (res.status >= 200 && res.status < 300 && res.jsonError !== undefined && !/json/i.test(contentType(res))) {
      return {
        reason:
          `${where} answered ${res.status} with ${contentType(res)}, not JSON: a login page or a proxy in front of the service? The base URL ` +
          `must reach the service itself`,
        evidence,
      };
    }
    // Answering without the version segment: maybe a service mounted at the root, maybe the wrong base.
    if (res.status === 200 && !/\/v\d+$/.test(new URL(base).pathname)) {
      warn(
        `the base URL ${quoted(base)} has no version segment, yet ${where} answers 200: the interface's paths start after it (e.g. ` +
          `${quoted(`${base}/v1`)}); testing ${quoted(base)} as given`,
      );
    }
    return undefined;
  } finally {
    await client.close();
  }
}
