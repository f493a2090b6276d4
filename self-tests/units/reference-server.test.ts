// The reference server is the model every check is proven against, so each rule is tested here.
import { describe, expect, test } from 'vitest';
import { createReferenceHandler, REMOVAL_AT, type ServerResponse } from '../../src/reference-server/handler.js';
import { parseJson } from '../../src/wire/json.js';

const KEY = 'test-key';
const auth = { authorization: `Bearer ${KEY}` };

function server(options: Partial<Parameters<typeof createReferenceHandler>[0]> = {}) {
  const handle = createReferenceHandler({ apiKey: KEY, ...options });
  const call = async (method: string, url: string, body = '', headers: Record<string, string | undefined> = auth) => {
    const res = (await handle({ method, url, headers, body })) as ServerResponse;
    return { ...res, json: res.body ? (parseJson(res.body) as Record<string, unknown> & unknown[]) : undefined };
  };
  return {
    call,
    create: (body: unknown) => call('POST', '/v1/pets', typeof body === 'string' ? body : JSON.stringify(body)),
  };
}

describe('reference server: authentication', () => {
  test.each([
    ['no header', undefined, 'Bearer realm="petstore"'],
    ['a wrong key', 'Bearer nope', 'Bearer realm="petstore", error="invalid_token"'],
    ['an empty token', 'Bearer ', 'Bearer realm="petstore"'],
    ['Basic scheme', `Basic ${KEY}`, 'Bearer realm="petstore"'],
    ['the bare key', KEY, 'Bearer realm="petstore"'],
  ])('%s → 401 with an Error body and a Bearer challenge', async (_what, header, challenge) => {
    const { call } = server();
    for (const [method, url] of [
      ['GET', '/v1/pets'],
      ['POST', '/v1/pets'],
      ['GET', '/v1/pets/1'],
    ] as const) {
      const res = await call(method, url, '{}', { authorization: header });
      expect(res.status).toBe(401);
      expect(res.json).toMatchObject({ code: 'unauthorized', status: 401 });
      expect(res.headers['www-authenticate']).toBe(challenge);
    }
  });

  test('authentication comes before validation', async () => {
    const { call } = server();
    expect((await call('POST', '/v1/pets', 'not json', {})).status).toBe(401);
    expect((await call('GET', '/v1/pets?limit=0', '', {})).status).toBe(401);
    expect((await call('GET', '/v1/pets/999', '', {})).status).toBe(401);
  });

  test('the scheme name is case-insensitive', async () => {
    expect((await server().call('GET', '/v1/pets', '', { authorization: `bearer ${KEY}` })).status).toBe(200);
  });
});

describe('reference server: createPet', () => {
  test('assigns distinct ids, echoes fields, ignores a client id', async () => {
    const { create } = server();
    const a = await create({ name: 'Rex', categoryId: 1, id: 77 });
    const b = await create({ name: 'Rex', categoryId: 1, status: 'sold' });
    expect(a.status).toBe(201);
    expect(a.json).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
    expect(b.json).toEqual({ id: 2, name: 'Rex', categoryId: 1, status: 'sold' });
  });

  test('keeps int64 extremes and ids beyond 2^53 exact', async () => {
    const { create, call } = server({ firstId: 2n ** 53n + 1n });
    const res = await create('{"name":"Big","categoryId":9223372036854775807}');
    expect(res.body).toBe('{"id":9007199254740993,"name":"Big","categoryId":9223372036854775807}');
    expect((await call('GET', '/v1/pets/9007199254740993')).body).toBe(res.body);
  });

  test.each([
    ['missing name', '{"categoryId":1}'],
    ['missing categoryId', '{"name":"Rex"}'],
    ['a numeric name', '{"name":5,"categoryId":1}'],
    ['a string categoryId', '{"name":"Rex","categoryId":"5"}'],
    ['a fractional categoryId', '{"name":"Rex","categoryId":1.5}'],
    ['categoryId beyond int64', '{"name":"Rex","categoryId":9223372036854775808}'],
    ['a status outside the enum', '{"name":"Rex","categoryId":1,"status":"Available"}'],
    ['a body that is not JSON', '{"name":'],
    ['an empty body', ''],
    ['a JSON array', '[]'],
    ['null', 'null'],
  ])('%s → 400 with an Error body, nothing created', async (_what, body) => {
    const { create, call } = server();
    const res = await create(body);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ code: 'invalid_body', status: 400 });
    expect((await call('GET', '/v1/pets')).json).toEqual([]);
  });
});

describe('reference server: listPets', () => {
  test('applies the filter before the limit and defaults to 20', async () => {
    const { create, call } = server();
    for (let i = 0; i < 30; i++) await create({ name: `p${i}`, categoryId: 1, status: i < 25 ? 'available' : 'sold' });
    expect(((await call('GET', '/v1/pets')).json as unknown[]).length).toBe(20);
    expect(((await call('GET', '/v1/pets?limit=100')).json as unknown[]).length).toBe(30);
    const sold = (await call('GET', '/v1/pets?status=sold&limit=3')).json as { status: string }[];
    expect(sold.map((p) => p.status)).toEqual(['sold', 'sold', 'sold']);
  });

  test.each(['0', '-1', '101', '1.5', 'abc', '', '1e2'])('limit=%s → 400', async (limit) => {
    const res = await server().call('GET', `/v1/pets?limit=${limit}`);
    expect(res.status).toBe(400);
    expect(res.json).toMatchObject({ status: 400 });
  });

  test.each(['adopted', 'Available'])('status=%s → 400', async (status) => {
    expect((await server().call('GET', `/v1/pets?status=${status}`)).status).toBe(400);
  });
});

describe('reference server: getPet', () => {
  test('carries Deprecation, Sunset and Link headers', async () => {
    const { create, call } = server();
    await create({ name: 'Rex', categoryId: 1 });
    const res = await call('GET', '/v1/pets/1');
    expect(res.status).toBe(200);
    expect(res.headers.deprecation).toMatch(/^@\d+$/);
    expect(res.headers.sunset).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expect(res.headers.link).toBe('</v1/pets>; rel="successor-version"');
  });

  test('unknown id → 404, malformed or out-of-range id → 400', async () => {
    const { call } = server();
    expect((await call('GET', '/v1/pets/12345')).status).toBe(404);
    expect((await call('GET', '/v1/pets/abc')).status).toBe(400);
    expect((await call('GET', '/v1/pets/9223372036854775808')).status).toBe(400);
  });

  test('after the removal date → 410 with an Error body', async () => {
    const res = await server({ now: () => new Date(REMOVAL_AT.getTime() + 1) }).call('GET', '/v1/pets/1');
    expect(res.status).toBe(410);
    expect(res.json).toMatchObject({ status: 410 });
  });

  test('listPets and createPet carry no Deprecation header', async () => {
    const { create, call } = server();
    expect((await create({ name: 'Rex', categoryId: 1 })).headers.deprecation).toBeUndefined();
    expect((await call('GET', '/v1/pets')).headers.deprecation).toBeUndefined();
  });
});

describe('reference server: every response', () => {
  test('is application/json, errors included', async () => {
    const { call } = server();
    for (const res of [await call('GET', '/v1/pets'), await call('GET', '/nope'), await call('DELETE', '/v1/pets')]) {
      expect(res.headers['content-type']).toBe('application/json');
    }
  });
});
