// One exchange as undici's dispatcher drives it: the status, the headers and the body up to a
// bound, stopped at once when asked. The client (src/wire/client.ts) makes one per request.
import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';

export interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  truncated: boolean;
}

/**
 * One exchange, as undici's dispatcher drives it: keeps the status, the headers and the body up
 * to `maxBytes` (then cuts the connection and answers truncated). stop() ends it at once, whether
 * or not the request has reached a connection yet.
 */
export class Exchange implements Dispatcher.DispatchHandler {
  readonly answer: Promise<Answer>;
  private settle!: (answer: Answer) => void;
  private fail!: (err: unknown) => void;
  private controller: Dispatcher.DispatchController | undefined;
  private settled = false;
  private status = 0;
  /** True once the status line and headers of the answer came. */
  responded = false;
  /** When they came (performance.now()), for the HAR's wait and receive timings. */
  respondedAt = 0;
  private headers: IncomingHttpHeaders = {};
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly maxBytes: number) {
    this.answer = new Promise<Answer>((resolve, reject) => {
      this.settle = resolve;
      this.fail = reject;
    });
    // Settled by stop() before anyone awaits it: not an unhandled rejection.
    this.answer.catch(() => {});
  }

  stop(reason: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.fail(reason);
    this.controller?.abort(reason);
  }

  private end(truncated: boolean): void {
    if (this.settled) return;
    this.settled = true;
    // One chunk (most answers) is decoded where it lies, without a copy.
    const body = this.chunks.length === 1 ? (this.chunks[0] as Buffer) : Buffer.concat(this.chunks);
    this.settle({ status: this.status, headers: this.headers, text: body.toString('utf8'), truncated });
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.controller = controller;
    if (this.settled) controller.abort(new Error('the exchange was already stopped'));
  }

  onResponseStart(_controller: Dispatcher.DispatchController, statusCode: number, headers: IncomingHttpHeaders): void {
    this.status = statusCode;
    this.headers = headers;
    this.responded = true;
    this.respondedAt = performance.now();
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.settled) return;
    if (this.size + chunk.length > this.maxBytes) {
      this.chunks.push(chunk.subarray(0, this.maxBytes - this.size));
      this.end(true);
      controller.abort(new Error(`longer than the ${this.maxBytes} bytes the suite reads`));
      return;
    }
    this.size += chunk.length;
    this.chunks.push(chunk);
  }

  onResponseEnd(): void {
    this.end(false);
  }

  onResponseError(_controller: Dispatcher.DispatchController, err: Error): void {
    if (this.settled) return;
    this.settled = true;
    this.fail(err);
  }
}

export function flattenHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const out: Record<string, string> = {};
  // for-in: undici's headers are a plain object, with no inherited enumerable key.
  for (const k in headers) {
    const v = headers[k];
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}
