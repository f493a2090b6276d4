// The HAR 1.2 record of every request a run sends (--har): written as the requests end, a whole HAR after every write.
// Its custom fields (_petstore, _truncated, _error) are defined in schemas/har-extension.schema.json.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { dirname } from 'node:path';
import { REFUSABLE_UPLOAD_BYTES, type ApiResponse, type SendRecord } from './requests.js';
import type { HarCut, HarError, HarSender } from '../data/generated/report-types.js';
import { holdsSecret, redact } from './redact.js';
import { readPackageJson } from '../config/package-root.js';

/** Each body, request and response, is kept up to this many bytes; a cut is noted in the entry. */
export const HAR_BODY_CAP = 64 * 1024;

/**
 * Closes the entries, the log and the file. Written after every write of entries and overwritten
 * by the next, so the file is a whole HAR whenever the run stops (Ctrl-C, a crash).
 */
const TRAILER = '\n]}}\n';
const PAGE = 'run';

const CREATOR = (() => {
  try {
    const pkg = readPackageJson('package.json') as { name?: string; version?: string };
    return { name: pkg.name ?? 'petstore-conformance', version: pkg.version ?? '0.0.0' };
  } catch {
    return { name: 'petstore-conformance', version: '0.0.0' };
  }
})();

/** What the HAR says of its run: a title (target, seed) and why it may hold no entry. */
export interface HarRun {
  title: string;
  note?: string;
}

/** Who sent a request: the check's name, and its requirement's id (undefined: outside any check). */
export type Sender = { requirement?: string; check: string } | undefined;

/** A body as the HAR keeps it: its text up to the cap, its whole size in bytes, and the cut if any. */
interface Kept {
  text: string;
  size: number;
  cut?: HarCut;
}

/** Cuts a body to HAR_BODY_CAP bytes of UTF-8, at a character boundary; `wireSize`: its bytes on the wire, when redacting the key changed them. */
function keep(text: string, wireSize?: number): Kept {
  const bytes = Buffer.byteLength(text);
  const size = wireSize ?? bytes;
  if (bytes <= HAR_BODY_CAP) return { text, size };
  const head = Buffer.from(text.slice(0, HAR_BODY_CAP), 'utf8');
  let end = HAR_BODY_CAP;
  while (end > 0 && ((head[end] ?? 0) & 0xc0) === 0x80) end--; // not inside a character
  return { text: head.subarray(0, end).toString('utf8'), size, cut: { originalSize: size, cap: HAR_BODY_CAP } };
}

/** A string as JSON. Each entry is written as JSON text, so that a large body's JSON can be used again (BodyMemo). */
const q = JSON.stringify;

/**
 * Large bodies as JSON strings, by text. A run reads the same pages of the store again and again,
 * and escaping the quotes of a large body is the costliest part of its entry; the last 64 are kept.
 */
class BodyMemo {
  private readonly json = new Map<string, string>();

  of = (text: string): string => {
    if (text.length < 4096) return q(text);
    let json = this.json.get(text);
    if (json === undefined) {
      json = q(text);
      if (this.json.size >= 64) this.json.delete(this.json.keys().next().value as string);
      this.json.set(text, json);
    }
    return json;
  };
}

/** The cut, said for people (comment) and for tools (_truncated): its fields, each after a comma. */
function cutNote(body: Kept, more = ''): string {
  const cut = body.cut;
  const said = cut
    ? `body cut to its first ${cut.cap} of ${cut.originalSize} bytes (the HAR keeps ${cut.cap / 1024} KiB of each body)${more ? `; ${more}` : ''}`
    : more;
  return `${said ? `,"comment":${q(said)}` : ''}${cut ? `,"_truncated":{"originalSize":${cut.originalSize},"cap":${cut.cap}}` : ''}`;
}

const ms = (x: number) => Math.max(0, Math.round(x * 1000) / 1000);

/** Name-value pairs, as HAR writes headers and query strings; `scrub` applied to each name and value. */
function pairs(entries: Iterable<[string, string]>, scrub?: (text: string) => string): string {
  const list: { name: string; value: string }[] = [];
  for (const [name, value] of entries) list.push(scrub ? { name: scrub(name), value: scrub(value) } : { name, value });
  return q(list);
}

function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at < 0 ? '[]' : pairs(new URLSearchParams(url.slice(at + 1)));
}

/** The answer; the API key redacted in every header and the body (the request came redacted from the client). */
function responseOf(res: ApiResponse, json: (text: string) => string): string {
  // Most answers hold no key: one look through all of it, then nothing is redacted piece by piece.
  let headers = '';
  for (const name in res.headers) headers += `${name}\n${res.headers[name]}\n`;
  const scrub = holdsSecret(res.text, headers) ? redact : (text: string) => text;
  const text = scrub(res.text);
  const body = keep(text, text === res.text ? undefined : Buffer.byteLength(res.text));
  const limit = res.truncated ? `the suite read only these ${body.size} bytes of a longer body` : '';
  const content = `{"size":${body.size},"mimeType":${q(scrub(res.headers['content-type'] ?? 'x-unknown'))},"text":${json(body.text)}${cutNote(body, limit)}}`;
  return (
    `{"status":${res.status},"statusText":${q(STATUS_CODES[res.status] ?? '')},"httpVersion":"HTTP/1.1","cookies":[],` +
    `"headers":${pairs(Object.entries(res.headers), scrub)},"content":${content},"redirectURL":${q(scrub(res.headers.location ?? ''))},` +
    `"headersSize":-1,"bodySize":${body.size}}`
  );
}

/** What the comment of a refused upload says (see UploadRefused, src/wire/requests.ts). */
export const REFUSED_UPLOAD =
  `refused: the server closed the connection during the upload of a body over ${REFUSABLE_UPLOAD_BYTES / 1024 / 1024} MiB ` +
  `without an answer, a refusal the interface allows (it leaves request-size limits open)`;

/** No answer came: status 0 and the reason in _error, as Chromium writes a failed request; a refused upload says so in comment. */
function noAnswer(error: string | undefined, refused: boolean | undefined): string {
  const reason: HarError = redact(error ?? 'no answer');
  return (
    `{${refused ? `"comment":${q(REFUSED_UPLOAD)},` : ''}"status":0,"statusText":"","httpVersion":"","cookies":[],"headers":[],` +
    `"content":{"size":0,"mimeType":"x-unknown"},"redirectURL":"","headersSize":-1,"bodySize":-1,"_error":${q(reason)}}`
  );
}

/**
 * Who sent it (HarSender in schemas/har-extension.schema.json); `retryOf`: the send this one retries
 * (429/503 with Retry-After) or resends (stale connection).
 */
function senderOf(sender: Sender, note: string, retryOf: number | undefined): string {
  const who =
    sender === undefined
      ? `"requirements":[],"check":null,"note":${q(note)}`
      : `"requirements":[${sender.requirement === undefined ? '' : q(sender.requirement)}],"check":${q(sender.check)}`;
  return `{${who}${retryOf === undefined ? '' : `,"retryOf":${retryOf}`}}`;
}

/** One HAR entry for one send, as JSON text; `retryOf`: the send it repeats; `json` writes a body's text as JSON. */
function entryJson(
  send: SendRecord,
  sender: Sender,
  retryOf: number | undefined,
  note = 'sent outside any check',
  json = q,
): string {
  const req = send.request;
  // Unknown: when the bytes were all written (send 0, as Chromium writes it), DNS and connect (-1).
  const wait = ms((send.respondedAt || send.endedAt) - send.startedAt);
  const receive = send.respondedAt ? ms(send.endedAt - send.respondedAt) : 0;
  const body = req.body === undefined ? undefined : keep(req.body);
  const postData = body
    ? `"postData":{"mimeType":${q(req.headers['content-type'] ?? '')},"text":${json(body.text)}${cutNote(body)}},`
    : '';
  const request =
    `{"method":${q(req.method)},"url":${q(req.url)},"httpVersion":"HTTP/1.1","cookies":[],` +
    `"headers":${pairs(Object.entries(req.headers))},"queryString":${queryOf(req.url)},${postData}"headersSize":-1,"bodySize":${body?.size ?? 0}}`;
  const response = send.response ? responseOf(send.response, json) : noAnswer(send.error, send.refused);
  const started = new Date(performance.timeOrigin + send.startedAt).toISOString();
  return (
    `{"pageref":"${PAGE}","startedDateTime":"${started}","time":${ms(wait + receive)},"request":${request},"response":${response},"cache":{},` +
    `"timings":{"blocked":-1,"dns":-1,"connect":-1,"ssl":-1,"send":0,"wait":${wait},"receive":${receive}},"_petstore":${senderOf(sender, note, retryOf)}}`
  );
}

/** One HAR entry for one send. */
export const harEntry = (send: SendRecord, sender: Sender, note?: string) =>
  JSON.parse(entryJson(send, sender, send.request.harEntry, note)) as {
    request: object;
    response: object;
    _petstore: HarSender;
  };

/** Writes `text` at `position`; returns its length in bytes. */
function writeAll(fd: number, text: string, position: number): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
  return bytes.length;
}

/** How long an entry may wait to be written: a write every turn of the event loop, hundreds a second, was a cost of its own. */
const FLUSH_EVERY_MS = 50;

/**
 * Writes the HAR of a run as its requests end. Each entry is built once the code waiting for its
 * answer has run; the entries built within FLUSH_EVERY_MS (at most about 1 MiB) are written
 * together, in one write over the trailer, followed by the trailer again. Nothing else is kept.
 * Exists only when --har is given.
 */
export class HarWriter {
  private fd: number | undefined;
  /** Where the trailer starts, in bytes. */
  private at: number;
  /** Entries numbered, built into `buffer`, and written. */
  private entries = 0;
  private built = 0;
  private written = 0;
  private queued: { send: SendRecord; sender: Sender; note: string | undefined; retryOf: number | undefined }[] = [];
  private building: NodeJS.Immediate | undefined;
  /** The entries not yet written, encoded: the first `filled` bytes. */
  private buffer = Buffer.allocUnsafe(1 << 21);
  private filled = 0;
  private flushing: NodeJS.Timeout | undefined;
  private readonly bodies = new BodyMemo();

  constructor(
    readonly path: string,
    run: HarRun,
  ) {
    mkdirSync(dirname(path), { recursive: true });
    const started = new Date().toISOString();
    const log = {
      version: '1.2',
      creator: CREATOR,
      pages: [{ startedDateTime: started, id: PAGE, title: run.title, pageTimings: { onContentLoad: -1, onLoad: -1 } }],
      comment: [
        'One entry per request the run sent, each retry and resend its own (their count is run.requests in conformance.json).',
        'Custom fields: _petstore names the requirement and the check that sent it (retryOf: the earlier send of the same request); a body is kept up ' +
          'to 64 KiB, a cut noted in _truncated and comment; a request that got no answer has status 0 and _error (a large upload the server refused ' +
          'by closing says so in the comment of its response). The API key is written $PETSTORE_API_KEY.',
        run.note ?? '',
      ]
        .filter(Boolean)
        .join(' '),
    };
    const head = `{"log":${JSON.stringify(log).slice(0, -1)},"entries":[`;
    this.fd = openSync(path, 'w');
    this.at = writeAll(this.fd, head + TRAILER, 0) - TRAILER.length;
  }

  /**
   * Takes one send's entry, in the file within FLUSH_EVERY_MS; returns its index in log.entries
   * (undefined once writing failed). With no sender, `note` says why no check is named.
   */
  add(send: SendRecord, sender: Sender, note?: string): number | undefined {
    if (this.fd === undefined) return undefined;
    // Built after the code waiting for this answer has run (and sent its next request): a chain of
    // requests does not wait for the HAR. Its previous send is read now: the request is given this one.
    this.queued.push({ send, sender, note, retryOf: send.request.harEntry });
    this.building ??= setImmediate(() => this.build());
    return this.entries++;
  }

  /** Builds the queued entries, each encoded at once into the one buffer: its text dies young, nothing is joined. */
  private build(): void {
    clearImmediate(this.building);
    this.building = undefined;
    for (const { send, sender, note, retryOf } of this.queued.splice(0)) {
      const json = entryJson(send, sender, retryOf, note, this.bodies.of);
      const most = 2 + 3 * json.length + TRAILER.length;
      if (this.filled + most > this.buffer.length) {
        const grown = Buffer.allocUnsafe(Math.max(2 * this.buffer.length, this.filled + most));
        this.buffer.copy(grown, 0, 0, this.filled);
        this.buffer = grown;
      }
      this.filled += this.buffer.write(this.built > 0 ? ',\n' : '\n', this.filled, 'latin1');
      this.filled += this.buffer.write(json, this.filled, 'utf8');
      this.built++;
      if (this.filled > 1 << 20) this.flush();
    }
    this.flushing ??= setTimeout(() => this.flush(), FLUSH_EVERY_MS);
  }

  /** Writes the pending entries over the trailer, and the trailer after them: the file is a whole HAR again. */
  flush(): void {
    if (this.queued.length > 0) this.build();
    clearTimeout(this.flushing);
    this.flushing = undefined;
    if (this.fd === undefined || this.filled === 0) return;
    const entries = this.filled;
    const end = entries + this.buffer.write(TRAILER, entries, 'latin1');
    this.filled = 0;
    try {
      for (let done = 0; done < end;) done += writeSync(this.fd, this.buffer, done, end - done, this.at + done);
    } catch (err) {
      // A full disk must not stop the run: the file keeps the entries before these.
      console.error(
        `petstore-conformance: the HAR file ${this.path} could not be written (${err instanceof Error ? err.message : String(err)}); it holds the ` +
          `first ${this.written} requests`,
      );
      this.close();
      return;
    }
    this.at += entries;
    this.written = this.built;
  }

  close(): void {
    this.flush();
    if (this.fd === undefined) return;
    closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * Puts a whole copy of the HAR in its place, for a run stopped at its grace period whose checks'
 * worker may still be writing: the manifest then hashes a file nothing writes any more (the
 * writer's later entries go to the replaced file, which no path names). A copy read mid-write is
 * not a whole JSON document, and is read again (five times at most; then the file is left as it is).
 */
export function sealHar(path: string): void {
  const copy = `${path}.${process.pid}.sealing`;
  try {
    for (let tries = 0; tries < 5; tries++) {
      const bytes = readFileSync(path);
      try {
        JSON.parse(bytes.toString('utf8'));
      } catch {
        continue;
      }
      writeFileSync(copy, bytes);
      renameSync(copy, path);
      return;
    }
  } catch {
    // Not readable or not writable: the file stays as the writer leaves it, and is hashed as it is.
    rmSync(copy, { force: true });
  }
}

/** A HAR with no entry, for a run whose checks did not run (or before they do); says so on stderr if it cannot. */
export function writeEmptyHar(path: string, run: HarRun): void {
  try {
    new HarWriter(path, run).close();
  } catch (err) {
    console.error(
      `petstore-conformance: the HAR file ${path} could not be written (${err instanceof Error ? err.message : String(err)})`,
    );
  }
}
