// The assertions of an exported test (src/report/exported-test.ts), as the text it holds: one per
// kind of Expectation (src/wire/evidence.ts), with node:assert and nothing else, so the file runs
// in any project. Each states no more than the check it was recorded by: a correct server passes.
// (Written without template literals: the text is itself one.)
export const EXPECTATION_CHECKS = String.raw`/** What the rule asks of one answer: its expected, as the report recorded it. */
function check(expected, res, text, got, history) {
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
  for (const [name, test] of Object.entries(expected.headerParsed ?? {}))
    checkParsed(name, test, res.headers.get(name), BASE_URL + history[history.length - 1].path, res.headers, got);
  const { fields, body, errorCode, errorStatus, maxItems, itemsWith, distinctIds } = expected;
  // What a list answer holds is asked of a success only (a 4xx may be as good an answer).
  const listed = res.status >= 200 && res.status < 300;
  const { sameAs, notKept, differsFrom, listsIdOf, lacksNameOf, exactItems } = expected;
  const members = sameAs || notKept || differsFrom || listsIdOf || lacksNameOf || exactItems;
  if (members && listed) checkMembers(expected, exactJson(text, got), history, got);
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

/** Members compared with an earlier body of the case (history: where each exchange went, what it sent and got, this one last). */
function checkMembers({ sameAs = {}, notKept = {}, differsFrom = {}, listsIdOf, lacksNameOf, exactItems }, json, history, got) {
  const at = ({ back, of }) => {
    const x = history[history.length - 1 - back];
    return exactJson(of === 'request' ? x.request : x.response, got);
  };
  const shown = (v) => (typeof v === 'string' ? (v[0] === '#' ? v.slice(1) : JSON.stringify(v.slice(1))) : JSON.stringify(v));
  for (const [name, where] of Object.entries(sameAs)) {
    const value = json?.["'" + name];
    const expected = at(where)?.["'" + name];
    assert.deepEqual(value, expected, 'expected ' + name + ' ' + shown(expected) + ', not ' + shown(value) + '; ' + got);
  }
  for (const [name, where] of Object.entries(differsFrom)) {
    const other = at(where)?.["'" + name];
    assert.notDeepEqual(json?.["'" + name], other, 'expected ' + name + ' other than ' + shown(other) + ', given before; ' + got);
  }
  const query = new URL(history[history.length - 1].path, 'http://x').searchParams;
  const items = Array.isArray(json) ? json : undefined;
  if (exactItems !== undefined) {
    const status = query.get('status');
    const counted = items?.filter((item) => status === null || item?.["'status"] === "'" + status).length;
    const what = exactItems + ' items' + (status === null ? '' : ' with status ' + status);
    assert.equal(counted, exactItems, 'expected exactly ' + what + ', as the store holds at least ' + what + '; ' + got);
  }
  // A list provably complete (fewer items than its limit, none twice) holds a pet created before it, and none a rejected body described.
  const ids = (items ?? []).map((item) => item?.["'id"]);
  const complete = items && items.length < Number(query.get('limit') ?? 20);
  const name = lacksNameOf && at(lacksNameOf)?.["'name"];
  if (complete && name !== undefined)
    assert.ok(!items.some((item) => item?.["'name"] === name), 'expected no pet named ' + shown(name) + ' (a rejected body) in a complete list; ' + got);
  if (listsIdOf && complete && new Set(ids).size === ids.length) {
    const id = at(listsIdOf)?.["'id"];
    assert.ok(ids.includes(id), 'expected the pet of id ' + shown(id) + ' in a list of ' + items.length + ' (complete); ' + got);
  }
  // An integer read exactly: a number, or digits in a string.
  const integer = (v) => (typeof v === 'string' && /^.-?\d+$/.test(v) ? BigInt(v.slice(1)) : undefined);
  for (const [name, where] of Object.entries(notKept)) {
    const sent = integer(at(where)?.["'" + name]);
    const value = integer(json?.["'" + name]);
    if (sent === undefined || value === undefined) continue;
    const kept = [sent, BigInt.asUintN(53, sent), BigInt.asUintN(32, sent), BigInt.asIntN(32, sent)].includes(value) || Number(value) === Number(sent);
    assert.ok(!kept, 'expected ' + name + ' of the service, not ' + value + ': a form of ' + sent + ', sent by the client; ' + got);
  }
}

/**
 * JSON.parse with every number exact (it rounds beyond 2^53): a number is read as the string "#" and
 * its digits (an integer whatever its spelling: 1.0, 1E2) or its literal (a fraction), every string
 * as "'" and the string, keys too: so that no string is taken for a number.
 */
function exactJson(text, got) {
  let out = '';
  const number = /-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
  for (let i = 0; i < text.length; ) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      out += '"\'' + text.slice(i + 1, j + 1);
      i = j + 1;
      continue;
    }
    number.lastIndex = i;
    const m = c === '-' || (c >= '0' && c <= '9') ? number.exec(text) : null;
    out += m ? '"#' + exactDigits(m[0]) + '"' : c;
    i += m ? m[0].length : 1;
  }
  try {
    return JSON.parse(out);
  } catch {
    assert.fail('expected a JSON body; ' + got);
  }
}

/** An integer's decimal digits however it is spelt (1.0, 1E2, -0); any other number's literal. */
function exactDigits(literal) {
  const [, sign, whole, fraction = '', exponent = '0'] = /^(-?)(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(literal);
  const all = whole + fraction;
  let end = all.length;
  while (end > 0 && all[end - 1] === '0') end--;
  const digits = all.slice(0, end).replace(/^0+/, '');
  if (digits === '') return '0';
  const shift = Number(exponent) - fraction.length + all.length - end;
  // A fraction, or beyond any int64 by far (no billion-digit string from 1e999999999).
  return shift < 0 || digits.length + shift > 1000 ? literal : sign + digits + '0'.repeat(shift);
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

/** A header parsed as the check parsed it: the suite's parsers (src/wire/headers.ts) are in this file. */
function checkParsed(name, test, value, url, headers, got) {
  assert.ok(value !== null, 'expected a ' + name + ' header; ' + got);
  const said = name + ': ' + value + '; ' + got;
  if (test.challenge !== undefined) {
    const challenge = challengeOf(value, test.challenge);
    assert.ok(challenge, 'expected a ' + test.challenge + ' challenge in ' + said);
    const want = test.equals === null ? 'no ' + test.param : test.param + '="' + test.equals + '"';
    assert.equal(challenge.params[test.param], test.equals ?? undefined, 'expected ' + want + ' in ' + said);
  } else if (test.date !== undefined) {
    const parse = (form, text) => (form === 'imf-fixdate' ? parseImfFixdate(text) : parseSfDate(text));
    const date = parse(test.date, value);
    assert.ok(date, 'expected a date (' + test.date + ') in ' + said);
    if (test.from) assert.ok(date >= new Date(test.from), 'expected a time from ' + test.from + ' in ' + said);
    if (test.before) assert.ok(date < new Date(test.before), 'expected a time before ' + test.before + ' in ' + said);
    const other = test.notBefore && parse(test.notBefore.date, headers.get(test.notBefore.header) ?? '');
    if (other) assert.ok(date >= other, 'expected a date not before ' + test.notBefore.header + ' in ' + said);
  } else {
    const path = resolvedPath('', BASE_URL) + test.linksTo; // under the base URL's path, as ctx.listPath is
    assert.ok(parseLinks(value).some((link) => resolvedPath(link.target, url) === path), 'expected a link to ' + path + ' in ' + said);
  }
}
`;
