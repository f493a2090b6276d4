// The suite over real network paths, through the real bin: HTTPS with a private CA (trusted via
// NODE_EXTRA_CA_CERTS, refused in one line without it) and forward proxies from HTTP_PROXY /
// HTTPS_PROXY, bypassed for hosts in NO_PROXY. Certificates are made here with openssl.
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { EXIT } from '../../src/commands/cli.js';
import {
  CHILD_TIMEOUT,
  forwardProxy,
  makeCertificates,
  referenceServer,
  runBin,
  tlsFront,
  type Certificates,
  type TestServer,
} from '../net-kit.js';

const closers: { close(): Promise<void> }[] = [];
afterAll(() => Promise.all(closers.map((c) => c.close())));

let certs: Certificates;
let plain: TestServer;
/** The reference server behind TLS, for https://localhost:<port>/v1. */
let https: { baseUrl: string; apiKey: string; port: number };

beforeAll(async () => {
  certs = makeCertificates();
  plain = await referenceServer();
  closers.push(plain);
  const front = await tlsFront(certs, Number(new URL(plain.origin).port));
  closers.push(front);
  https = { baseUrl: `${front.origin}/v1`, apiKey: plain.apiKey, port: front.port };
}, 300_000);

const target = (t: { baseUrl: string; apiKey: string }) => ({
  PETSTORE_BASE_URL: t.baseUrl,
  PETSTORE_API_KEY: t.apiKey,
});

describe('TLS', CHILD_TIMEOUT, () => {
  test.concurrent(
    'the whole suite passes over HTTPS with a private CA trusted through NODE_EXTRA_CA_CERTS',
    async () => {
      // Every check, some 600 requests over TLS; more property runs would only repeat them.
      const run = await runBin(['--runs', '5'], { env: { ...target(https), NODE_EXTRA_CA_CERTS: certs.caFile } });
      expect(run.out).toContain(`testing ${https.baseUrl}`);
      expect(run.code, run.out).toBe(EXIT.conformant);
    },
  );

  test.concurrent(
    'without the CA the target is unreachable: exit 3, one line saying TLS and how to fix it',
    async () => {
      const run = await runBin([], { env: target(https) });
      expect(run.code, run.out).toBe(EXIT.unreachable);
      expect(run.stderr.trim()).toMatch(
        new RegExp(
          `^petstore-conformance: cannot reach ${https.baseUrl}: TLS: the server's certificate is not trusted \\(\\w+\\); for a private CA set ` +
            `NODE_EXTRA_CA_CERTS`,
        ),
      );
    },
  );

  test.concurrent('plain HTTP to a TLS port is one line, not a hang', async () => {
    const run = await runBin(['--timeout', '2000'], {
      env: target({ baseUrl: `http://localhost:${https.port}/v1`, apiKey: 'k' }),
    });
    expect(run.code, run.out).toBe(EXIT.unreachable);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
  });
});

describe('proxies', CHILD_TIMEOUT, () => {
  test.concurrent('HTTP_PROXY carries every request to a plain-HTTP target', async () => {
    const proxy = await forwardProxy();
    closers.push(proxy);
    const run = await runBin(['--only', 'service,listPets.ok'], { env: { ...target(plain), HTTP_PROXY: proxy.url } });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(proxy.forwarded.length).toBeGreaterThan(1);
    expect(proxy.forwarded[0]).toBe(`GET ${plain.baseUrl}/pets`); // the reachability probe, first
    for (const line of proxy.forwarded) expect(line).toMatch(new RegExp(`^(GET|POST) ${plain.baseUrl}/pets`));
  });

  test.concurrent('HTTPS_PROXY tunnels an HTTPS target with CONNECT, and TLS still verifies end to end', async () => {
    const proxy = await forwardProxy();
    closers.push(proxy);
    const run = await runBin(['--only', 'service,listPets.ok'], {
      env: { ...target(https), https_proxy: proxy.url, NODE_EXTRA_CA_CERTS: certs.caFile },
    });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(proxy.tunnels.length).toBeGreaterThan(0);
    expect(new Set(proxy.tunnels)).toEqual(new Set([`localhost:${https.port}`]));
    expect(proxy.forwarded).toEqual([]);
  });

  test.concurrent('NO_PROXY sends a listed host direct', async () => {
    const proxy = await forwardProxy();
    closers.push(proxy);
    const run = await runBin(['--only', 'listPets.ok'], {
      env: { ...target(plain), HTTP_PROXY: proxy.url, NO_PROXY: 'localhost,127.0.0.1' },
    });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(proxy.forwarded).toEqual([]);
    expect(proxy.tunnels).toEqual([]);
  });

  test.concurrent('the bundled reference server is reached direct even when a proxy is set', async () => {
    const proxy = await forwardProxy();
    closers.push(proxy);
    const run = await runBin(['--only', 'listPets.ok'], { env: { HTTP_PROXY: proxy.url } });
    expect(run.code, run.out).toBe(EXIT.conformant);
    expect(proxy.forwarded).toEqual([]);
  });

  test.concurrent('a proxy that cannot be reached is exit 3, one line naming the proxy, not the target', async () => {
    const run = await runBin(['--only', 'listPets.ok'], {
      env: { ...target(plain), HTTP_PROXY: 'http://127.0.0.1:9' },
    });
    expect(run.code, run.out).toBe(EXIT.unreachable);
    expect(run.stderr.trim()).toMatch(
      /^petstore-conformance: cannot reach .*: the proxy http:\/\/127\.0\.0\.1:9 \(HTTP_PROXY\) refused the connection$/,
    );
  });
});
