// What a lost target dropped as it stopped: every request it closed, not the first ten, since
// the one it fell on need not have waited longest (requests sent before it may still be queued).
import { expect, test } from 'vitest';
import { TargetWatch } from '../../src/checks/target-watch.js';
import type { ApiResponse, SentRequest } from '../../src/wire/requests.js';

const BASE = 'http://127.0.0.1:1/v1';
const sent = (method: string, path: string): SentRequest => ({ method, url: `${BASE}${path}`, headers: {} });
const reset = Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' });

test('a server that dies on the last of 16 requests in flight: that request is among those it dropped', () => {
  const watch = new TargetWatch(1_000, '/v1/pets');
  const t0 = performance.now();
  const answer = { request: sent('GET', '/pets/1'), status: 404, headers: {}, text: '', json: undefined };
  watch.answered(
    { ...answer, truncated: false, durationMs: 1, at: { sent: t0, answered: t0 + 1 } } as ApiResponse,
    'x',
  );
  // Fifteen creates sent first, then the request it falls on; every connection closed at once.
  for (let i = 0; i < 15; i++) watch.noAnswer(sent('POST', '/pets'), reset, t0 + 2 + i);
  watch.noAnswer(sent('GET', '/pets/%ZZ'), reset, t0 + 20);
  const lost = watch.lost();
  expect(lost?.requests).toBe(16);
  expect(lost?.dropped).toHaveLength(16);
  expect(lost?.dropped).toContain('GET /v1/pets/%ZZ');
  // Longest in flight first: the first create sent leads, the one sent last comes last.
  expect(lost?.dropped.at(-1)).toBe('GET /v1/pets/%ZZ');
});
