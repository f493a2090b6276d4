// Requirement sets: what each release certifies against (issue 29). Every id belongs to the one set
// that added it, a released set never changes (its sha256 is recorded), and --requirement-set runs
// every check but scores only the set's requirements: the rest are reported "not scored".
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { EXIT, main } from '../../src/commands/cli.js';
import { CURRENT_REQUIREMENT_SET, REQUIREMENT_SETS } from '../../src/data/generated/requirement-ids.js';
import { renderJunit } from '../../src/report/junit.js';
import { renderMarkdown } from '../../src/report/markdown.js';
import { reportView } from '../../src/report/view.js';
import { renderTerminal } from '../../src/report/terminal.js';
import { INTERFACE } from '../../src/report/results.js';
import { addedAfter } from '../../src/data/requirement-sets.js';
import { catalogue } from '../../tests/catalogue.js';
import { faults } from '../harness/faults/index.js';
import { runSetup } from '../harness/harness.js';
import { resultsOf } from '../harness/results-of.js';

const registry = JSON.parse(readFileSync(new URL('./requirement-ids.json', import.meta.url), 'utf8')) as {
  sets: { id: string; adds: Record<string, string>; sha256: string }[];
};

describe('the sets', () => {
  test('each requirement of the catalogue is added by exactly one set', () => {
    const adders = (id: string) => registry.sets.filter((s) => id in s.adds).map((s) => s.id);
    expect(catalogue.map((r) => [r.id, adders(r.id).length]).filter(([, n]) => n !== 1)).toEqual([]);
  });

  test("a set is named by the interface version and the day it was frozen, oldest first; the last is this release's", () => {
    const ids = registry.sets.map((s) => s.id);
    for (const id of ids)
      expect(id).toMatch(new RegExp(`^${INTERFACE.version.replace(/\./g, '\\.')}\\+\\d{4}\\.\\d{2}\\.\\d{2}$`));
    expect([...ids].sort()).toEqual(ids);
    expect(CURRENT_REQUIREMENT_SET).toBe(ids[ids.length - 1]);
    expect(REQUIREMENT_SETS.map((s) => s.id)).toEqual(ids);
  });

  test.each(registry.sets.map((s) => [s.id, s] as const))(
    '%s is frozen: its ids are the ones its sha256 records',
    (_id, set) => {
      const digest = createHash('sha256').update(Object.keys(set.adds).sort().join('\n')).digest('hex');
      expect(digest, 'a released set never changes: add new ids to a new set').toBe(set.sha256);
    },
  );
});

describe('--requirement-set', () => {
  // Repeats one pet in place of another in lists: it breaks listPets.distinct-ids alone, added in 1.0.0+2026.11.26.
  const fault = faults.find((f) => f.name === 'list-repeats-first-for-last');
  const older = '1.0.0+2026.11.24';

  test('a requirement added after the set runs and is reported, but the verdict and counts leave it out', async () => {
    if (!fault) throw new Error('no fault list-repeats-first-for-last');
    const run = await runSetup(fault);
    const now = resultsOf(run);
    expect(now.verdict).toBe('nonconformant');
    expect(now.run.requirementSet).toEqual({ id: CURRENT_REQUIREMENT_SET, current: true });

    const then = resultsOf(run, { requirementSet: older });
    const distinct = then.requirements.find((e) => e.id === 'listPets.distinct-ids');
    expect(distinct?.outcome).toBe('failed');
    expect(distinct?.notScored).toEqual({ addedIn: '1.0.0+2026.11.26' });
    expect(then.verdict, then.verdictReason).toBe('conformant');
    expect(then.run.requirementSet).toEqual({ id: older, current: false });
    // Every id a later set added is left out of the counts (listPets.distinct-ids among them).
    const later = [...addedAfter(older).keys()];
    expect(later).toContain('listPets.distinct-ids');
    const mustLater = catalogue.filter((r) => r.level === 'MUST' && later.includes(r.id)).length;
    expect(then.counts.MUST.requirements).toBe(now.counts.MUST.requirements - mustLater);
    expect(renderTerminal(reportView(then))).toMatch(
      /○ listPets\.distinct-ids not scored \(added in 1\.0\.0\+2026\.11\.26\): failed: /,
    );
    expect(renderMarkdown(reportView(then))).toContain(
      `### Not scored (${later.length}): scored against requirement set ${older}`,
    );
    expect(renderJunit(then)).toMatch(/<testsuites [^>]* failures="0" errors="0"/);
    expect(renderJunit(then)).toContain(`<property name="requirementSet" value="${older}"/>`);
  });

  test('the set of the release before errors.*: the newer errors.* requirements are not scored, and the verdict is the one that release gave', async () => {
    // Answers the newer errors.unknown-path with an HTML 404 page: under today's set the Error rules
    // judge that page too; a release before errors.unknown-path never asked for such a path.
    const html404 = faults.find((f) => f.name === 'html-404-unknown-path');
    if (!html404) throw new Error('no fault html-404-unknown-path');
    const first = '1.0.0+2026.11.21';
    const today = resultsOf(await runSetup(html404));
    expect(today.verdict).toBe('nonconformant');
    expect(today.requirements.find((e) => e.id === 'errors.body')?.outcome).toBe('failed');
    const then = resultsOf(await runSetup({ ...html404, config: { ...html404.config, requirementSet: first } }), {
      requirementSet: first,
    });
    expect(
      then.requirements
        .filter((e) => e.notScored)
        .map((e) => e.id)
        .sort(),
    ).toEqual([...addedAfter(first).keys()].sort());
    // The sets are frozen: those added by the next two are not scored, whatever came after.
    expect([...addedAfter(first).keys()]).toEqual(
      expect.arrayContaining([
        'errors.malformed-uri',
        'errors.refused-body',
        'errors.undefined-method',
        'errors.unknown-path',
        'listPets.distinct-ids',
      ]),
    );
    expect(then.requirements.find((e) => e.id === 'errors.unknown-path')?.outcome).toBe('failed');
    expect(then.requirements.find((e) => e.id === 'errors.body')?.outcome).toBe('passed');
    expect(then.verdict, then.verdictReason).toBe('conformant');
  });

  test('an unknown set is exit 2, naming the sets there are', async () => {
    const errors: string[] = [];
    const original = console.error;
    console.error = (line: unknown) => void errors.push(String(line));
    try {
      expect(await main(['--requirement-set', '0.9'], {})).toBe(EXIT.usage);
    } finally {
      console.error = original;
    }
    expect(errors.join('\n')).toContain(
      `no requirement set "0.9"; the sets are ${REQUIREMENT_SETS.map((s) => s.id).join(', ')}`,
    );
  });
});
