// The assertions of an exported test (src/report/exported-test.ts), as the text it holds: one per
// kind of Expectation (src/wire/evidence.ts), with node:assert and nothing else, so the file runs
// in any project. Each states no more than the check it was recorded by: a correct server passes.
// (Written without template literals: the text is itself one.)
export const EXPECTATION_CHECKS = String.raw`/** What the rule asks of one answer: its expected, as the report recorded it. */
function check(expected, res, text, got) {
  // A rule about every error answer says nothing of an answer that is none.
  if (expected.ifError && res.status < 400) return;
  if (expected.status) assert.ok(expected.status.includes(res.status), 'expected ' + expected.status.join(' or ') + '; ' + got);
  if (expected.statusBelow !== undefined)
    assert.ok(res.status < expected.statusBelow, 'expected a status below ' + expected.statusBelow + '; ' + got);
  if (expected.contentType) {
    const type = res.headers.get('content-type') ?? '(none)';
    assert.match(type, /^application\/json\s*(;|$)/i, 'expected Content-Type application/json, not ' + type + '; ' + got);
  }
  for (const [name, present] of Object.entries(expected.headers ?? {}))
    assert.equal(res.headers.has(name), present, 'expected ' + (present ? 'a ' : 'no ') + name + ' header; ' + got);
  for (const [name, pattern] of Object.entries(expected.headerMatches ?? {})) {
    const value = (res.headers.get(name) ?? '(none)').trim();
    assert.match(value, new RegExp(pattern), 'expected ' + name + ' matching ' + pattern + ', not ' + value + '; ' + got);
  }
  const { fields, body, errorCode, errorStatus, maxItems, itemsWith, distinctIds } = expected;
  // What a list answer holds is asked of a success only (a 4xx may be as good an answer).
  const listed = res.status >= 200 && res.status < 300;
  if (distinctIds && listed) {
    const ids = idsIn(text);
    assert.equal(new Set(ids).size, ids.length, 'expected no id twice in one list; ' + got);
  }
  if (!fields && !body && !errorCode && !errorStatus && !(listed && (maxItems !== undefined || itemsWith))) return;
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    assert.fail('expected a JSON body; ' + got);
  }
  if (body) checkShape(json, body, 'the body', got);
  if (errorCode) assert.ok(typeof json?.code === 'string' && json.code !== '', 'expected a non-empty Error code; ' + got);
  if (errorStatus) assert.equal(json?.status, res.status, 'expected Error.status equal to the HTTP status; ' + got);
  if (listed && maxItems !== undefined)
    assert.ok(Array.isArray(json) && json.length <= maxItems, 'expected a list of at most ' + maxItems + '; ' + got);
  for (const [field, value] of listed ? Object.entries(itemsWith ?? {}) : []) {
    const other = Array.isArray(json) ? json.find((item) => item?.[field] !== value) : json;
    assert.equal(other, undefined, 'expected only items with ' + field + ' ' + JSON.stringify(value) + '; ' + got);
  }
  for (const [field, value] of Object.entries(fields ?? {}))
    assert.deepEqual(json?.[field], value, 'expected ' + field + ' ' + JSON.stringify(value) + '; ' + got);
}

/** The JSON types, required members and enums of a schema (its formats are left out). */
function checkShape(value, shape, at, got) {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : Number.isInteger(value) ? 'integer' : typeof value;
  const fits = !shape.type || type === shape.type || (shape.type === 'number' && type === 'integer');
  assert.ok(fits, 'expected ' + at + ' to be of type ' + shape.type + ', not ' + type + '; ' + got);
  if (shape.enum) assert.ok(shape.enum.includes(value), 'expected ' + at + ' to be one of ' + shape.enum.join(', ') + '; ' + got);
  if (type === 'object') {
    for (const name of shape.required ?? []) assert.ok(name in value, 'expected ' + at + ' to have ' + name + '; ' + got);
    for (const [name, inner] of Object.entries(shape.properties ?? {}))
      if (name in value) checkShape(value[name], inner, at + '.' + name, got);
  }
  if (type === 'array' && shape.items) value.forEach((item, i) => checkShape(item, shape.items, at + '[' + i + ']', got));
}
`;
