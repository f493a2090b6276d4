// The target of a run: the configured server, or the bundled reference server started for the
// run; the run's frozen configuration (the seed fixed), announced in one line.
import { randomBytes } from 'node:crypto';
import { resolveRunConfig, type Config, type RunConfig } from '../config/config.js';
import { createReferenceHandler, DEFAULT_MAX_BODY_BYTES } from '../reference-server/handler.js';
import { serve } from '../reference-server/http.js';
import { writeEmptyHar } from '../wire/har.js';
import { redact, registerSecret } from '../wire/redact.js';
import { replayCommand } from '../report/results.js';
import { runTagOf } from '../checks/context.js';

export interface Target {
  run: RunConfig;
  /** Stops the bundled server (nothing for a configured target). */
  close(): Promise<void>;
}

export async function openTarget(config: Config, say: (line: string) => void = console.log): Promise<Target> {
  let close = async () => {};
  let target: { baseUrl: string; apiKey: string; embedded: boolean };
  if (config.baseUrl && config.apiKey) {
    target = { baseUrl: config.baseUrl, apiKey: config.apiKey, embedded: false };
  } else {
    const apiKey = randomBytes(18).toString('base64url');
    // The embedded server keeps the suite's clock, so PETSTORE_NOW moves getPet's removal date for both.
    const now = config.now;
    // The handler's own body limit at the socket too: a 5 MiB upload is drained, never held (peak memory).
    const server = await serve(createReferenceHandler({ apiKey, ...(now ? { now: () => now } : {}) }), {
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
    });
    close = server.close;
    target = { baseUrl: `${server.origin}/v1`, apiKey, embedded: true };
  }
  const run = resolveRunConfig(config, target);
  registerSecret(run.apiKey);
  const replay = replayCommand(run.seed, { baseUrl: redact(run.baseUrl), embedded: run.embedded });
  const what = run.embedded
    ? 'the bundled reference server (set PETSTORE_BASE_URL to test another)'
    : redact(run.baseUrl);
  say(
    `petstore-conformance: testing ${what}${run.embedded ? ` at ${redact(run.baseUrl)}` : ''}; seed ${run.seed} (replay: ${replay}); pets this run ` +
      `creates are named "${runTagOf(run.seed)} …"${run.readOnly ? '; read-only: nothing is created' : ''}; trace id ${run.traceId}`,
  );
  // Whole from the start: the checks write it anew, so a run stopped before them leaves a valid, empty HAR.
  if (run.har)
    writeEmptyHar(run.har, {
      title: `petstore-conformance against ${redact(run.baseUrl)}`,
      note: 'No request was recorded: the run stopped before its checks started.',
    });
  return { run, close };
}
