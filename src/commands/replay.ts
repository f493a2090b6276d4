// `petstore-conformance replay REPORT_DIR [--base-url URL] [--only IDS]`: the failed (or undecided)
// requirements of a report, their checks run again with its seed (src/run/replay.ts), to check a fix
// in seconds. Exit 0 only when every one replayed is FIXED; 1 otherwise; 2 on bad usage.
import { loadConfig, resolveRunConfig, SETTINGS } from '../config/config.js';
import { registerSecret, redact } from '../wire/redact.js';
import { replayLines, replayReport } from '../run/replay.js';
import { checks } from '../../tests/catalogue.js';
import { reportArgs } from './report-args.js';

export const REPLAY_USAGE = 'usage: petstore-conformance replay REPORT_DIR [--base-url URL] [--only IDS]';

export async function replayCommand(args: readonly string[], env: NodeJS.ProcessEnv): Promise<number> {
  const said = reportArgs('replay', REPLAY_USAGE, args, ['base-url', 'only']);
  if (!said) return 2;
  const { results, values } = said;
  const config = loadConfig(env);
  if (!config.apiKey) {
    console.error('petstore-conformance replay: PETSTORE_API_KEY is not set: the replay sends the key the run sent');
    return 2;
  }
  registerSecret(config.apiKey);
  const baseUrl = SETTINGS.baseUrl.parse(values['base-url'] ?? results.target.baseUrl, '--base-url');
  const only = values.only === undefined ? config.only : SETTINGS.only.parse(values.only);
  const run = resolveRunConfig({ ...config, only }, { baseUrl, apiKey: config.apiKey, embedded: false });
  const replay = await replayReport(results, checks, run);
  // The messages were redacted where the checks ended; the suite's own words never are.
  for (const line of replayLines(replay, redact(baseUrl))) console.log(line);
  return replay.requirements.every((r) => r.verdict === 'FIXED') ? 0 : 1;
}
