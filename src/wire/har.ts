// The HAR 1.2 record of every request a run sends (--har): written as the requests end, a whole HAR after every write.
// Its custom fields (_petstore, _truncated, _error) are defined in schemas/har-extension.schema.json.
import { closeSync, mkdirSync, openSync, readFileSync, renameSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import { dirname } from 'node:path';
import { REFUSABLE_UPLOAD_BYTES, type ApiResponse, type SendRecord } from './wire.js';
import type { HarCut, HarError, HarSender } from '../data/generated/report-types.js';
import { redact } from './redact.js';
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

/** Who sent a request: the check's name, which starts with its requirement id (undefined: outside any check). */
export type Sender = string | undefined;

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

/** The cut, said for people (comment) and for tools (_truncated). */
function cutNote(body: Kept, more = ''): { comment?: string; _truncated?: Kept['cut'] } {
  const said = [
    body.cut
      ? `body cut to its first ${body.cut.cap} of ${body.cut.originalSize} bytes (the HAR keeps ${body.cut.cap / 1024} KiB of each body)`
      : '',
    more,
  ]
    .filter(Boolean)
    .join('; ');
  return { ...(said ? { comment: said } : {}), ...(body.cut ? { _truncated: body.cut } : {}) };
}

const ms = (x: number) => Math.max(0, Math.round(x * 1000) / 1000);
const pairs = (headers: Record<string, string>) => Object.entries(headers).map(([name, value]) => ({ name, value }));

function queryOf(url: string): { name: string; value: string }[] {
  const at = url.indexOf('?');
  return at < 0 ? [] : [...new URLSearchParams(url.slice(at + 1))].map(([name, value]) => ({ name, value }));
}

/** The answer; the API key redacted in every header and the body (the request came redacted from the client). */
function responseOf(res: ApiResponse) {
  // One pass to see whether anything holds the key (a key cannot hold a line break, a header cannot either).
  const everything = `${Object.entries(res.headers).join('\n')}\n${res.text}`;
  const clean = redact(everything) === everything;
  const scrub = clean ? (text: string) => text : redact;
  const text = scrub(res.text);
  const body = keep(text, text === res.text ? undefined : Buffer.byteLength(res.text));
  const limit = res.truncated ? `the suite read only these ${body.size} bytes of a longer body` : '';
  return {
    status: res.status,
    statusText: STATUS_CODES[res.status] ?? '',
    httpVersion: 'HTTP/1.1',
    cookies: [],
    headers: Object.entries(res.headers).map(([name, value]) => ({ name: scrub(name), value: scrub(value) })),
    content: {
      size: body.size,
      mimeType: scrub(res.headers['content-type'] ?? 'x-unknown'),
      text: body.text,
      ...cutNote(body, limit),
    },
    redirectURL: scrub(res.headers.location ?? ''),
    headersSize: -1,
    bodySize: body.size,
  };
}

/** What the comment of a refused upload says (see UploadRefused, src/wire/wire.ts). */
export const REFUSED_UPLOAD = `refused: the server closed the connection during the upload of a body over ${REFUSABLE_UPLOAD_BYTES / 1024 / 1024} MiB without an answer, a refusal the interface allows (it leaves request-size limits open)`;

/** No answer came: status 0 and the reason in _error, as Chromium writes a failed request; a refused upload says so in comment. */
function noAnswer(error: string | undefined, refused: boolean | undefined) {
  return {
    ...(refused ? { comment: REFUSED_UPLOAD } : {}),
    status: 0,
    statusText: '',
    httpVersion: '',
    cookies: [],
    headers: [],
    content: { size: 0, mimeType: 'x-unknown' },
    redirectURL: '',
    headersSize: -1,
    bodySize: -1,
    _error: redact(error ?? 'no answer') satisfies HarError,
  };
}

/** One HAR entry for one send. */
export function harEntry(send: SendRecord, sender: Sender, note = 'sent outside any check') {
  const req = send.request;
  // Unknown: when the bytes were all written (send 0, as Chromium writes it), DNS and connect (-1).
  const wait = ms((send.respondedAt || send.endedAt) - send.startedAt);
  const receive = send.respondedAt ? ms(send.endedAt - send.respondedAt) : 0;
  const body = req.body === undefined ? undefined : keep(req.body);
  return {
    pageref: PAGE,
    startedDateTime: new Date(performance.timeOrigin + send.startedAt).toISOString(),
    time: ms(wait + receive),
    request: {
      method: req.method,
      url: req.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: pairs(req.headers),
      queryString: queryOf(req.url),
      ...(body ? { postData: { mimeType: req.headers['content-type'] ?? '', text: body.text, ...cutNote(body) } } : {}),
      headersSize: -1,
      bodySize: body?.size ?? 0,
    },
    response: send.response ? responseOf(send.response) : noAnswer(send.error, send.refused),
    cache: {},
    timings: { blocked: -1, dns: -1, connect: -1, ssl: -1, send: 0, wait, receive },
    _petstore: {
      ...(sender === undefined
        ? { requirements: [], check: null, note }
        : { requirements: [sender.split(' ', 1)[0] as string], check: sender }),
      // The request's previous send: this one is its retry (429/503 with Retry-After) or resend (stale connection).
      ...(req.harEntry === undefined ? {} : { retryOf: req.harEntry }),
    } satisfies HarSender,
  };
}

/** Writes `text` at `position`; returns its length in bytes. */
function writeAll(fd: number, text: string, position: number): number {
  const bytes = Buffer.from(text, 'utf8');
  for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done, bytes.length - done, position + done);
  return bytes.length;
}

/**
 * Writes the HAR of a run as its requests end: the entries that ended within one turn of the event
 * loop (at most about 1 MiB) are written at its end, in one write over the trailer, followed by the
 * trailer again. Nothing else is kept. Exists only when --har is given.
 */
export class HarWriter {
  private fd: number | undefined;
  /** Where the trailer starts, in bytes. */
  private at: number;
  /** Entries numbered, and written. */
  private entries = 0;
  private written = 0;
  private pending: string[] = [];
  private pendingChars = 0;
  private flushing: NodeJS.Immediate | undefined;

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
        'Custom fields: _petstore names the requirement and the check that sent it (retryOf: the earlier send of the same request); a body is kept up to 64 KiB, a cut noted in _truncated and comment; a request that got no answer has status 0 and _error (a large upload the server refused by closing says so in the comment of its response). The API key is written $PETSTORE_API_KEY.',
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
   * Takes one send's entry, written by the end of this turn of the event loop; returns its index in
   * log.entries (undefined once writing failed). With no sender, `note` says why no check is named.
   */
  add(send: SendRecord, sender: Sender, note?: string): number | undefined {
    if (this.fd === undefined) return undefined;
    const json = JSON.stringify(harEntry(send, sender, note));
    this.pending.push(json);
    this.pendingChars += json.length;
    if (this.pendingChars > 1 << 20) this.flush();
    else this.flushing ??= setImmediate(() => this.flush());
    return this.entries++;
  }

  /** Writes the pending entries; the file is a whole HAR again. */
  flush(): void {
    if (this.flushing) clearImmediate(this.flushing);
    this.flushing = undefined;
    if (this.fd === undefined || this.pending.length === 0) return;
    const text = `${this.written > 0 ? ',' : ''}\n${this.pending.join(',\n')}`;
    const count = this.pending.length;
    this.pending = [];
    this.pendingChars = 0;
    let bytes: number;
    try {
      bytes = writeAll(this.fd, text + TRAILER, this.at);
    } catch (err) {
      // A full disk must not stop the run: the file keeps the entries before these.
      console.error(
        `petstore-conformance: the HAR file ${this.path} could not be written (${err instanceof Error ? err.message : String(err)}); it holds the first ${this.written} requests`,
      );
      this.close();
      return;
    }
    this.at += bytes - TRAILER.length;
    this.written += count;
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
