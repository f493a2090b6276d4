// A run's HAR read back: the requests it sent, for the floor to replay, and its entries and size,
// counted against run.requests.
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { Replayed } from './floor.js';

interface HarRequest {
  startedDateTime: string;
  request: {
    method: string;
    url: string;
    headers: { name: string; value: string }[];
    postData?: { text: string; _truncated?: { originalSize: number } };
  };
}

/**
 * A run's requests, in the order they were sent, from its HAR: what the floor replays. A body the
 * HAR cut is padded back to its size with its last character (the suite's large bodies are padded so).
 */
export function replayOf(harPath: string): Replayed[] {
  const { entries } = (JSON.parse(readFileSync(harPath, 'utf8')) as { log: { entries: HarRequest[] } }).log;
  return [...entries]
    .sort((a, b) => a.startedDateTime.localeCompare(b.startedDateTime))
    .map(({ request: { method, url, headers, postData } }) => {
      const text = postData?.text;
      const size = postData?._truncated?.originalSize;
      const body = text === undefined || size === undefined ? text : text.padEnd(size, text.at(-1) ?? ' ');
      return {
        method,
        path: url.slice(url.indexOf('/', url.indexOf('//') + 2)),
        headers: Object.fromEntries(headers.map(({ name, value }) => [name, value])),
        ...(body === undefined ? {} : { body }),
      };
    });
}

/** The HAR at `harPath`: its requests written to `replay` for the floor, when asked; its entries and size, null when unreadable. */
export function harOf(harPath: string, replay?: string): { entries: number; bytes: number } | null {
  try {
    if (replay) {
      mkdirSync(dirname(replay), { recursive: true });
      writeFileSync(replay, JSON.stringify(replayOf(harPath)));
    }
    return {
      entries: (JSON.parse(readFileSync(harPath, 'utf8')) as { log: { entries: unknown[] } }).log.entries.length,
      bytes: statSync(harPath).size,
    };
  } catch {
    // no HAR: said as null
    return null;
  }
}
