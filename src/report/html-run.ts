// conformance.html's sections on the run as a whole: what it covered, and what --soak found after it.
import { h } from './page.js';
import type { RunCoverage, RunSoak } from './results.js';
import { coverageSaid, soakSaid } from './words.js';

/** --soak: the rounds after the run, what they found, and the properties they stopped running. */
export function soakSection(s: RunSoak): string {
  const stopped = s.stopped.map((x) => `<li>${h(x.property)}, after round ${x.round}: ${h(x.reason)}</li>`).join('');
  return `<section class="soak">
<h2>Soak</h2>
<p>${h(soakSaid(s))}.</p>
${stopped ? `<details><summary>Properties not run again</summary><ul>${stopped}</ul></details>` : ''}
</section>`;
}

/** What the run covered: per operation and channel, the catalogued inputs sent; the statuses each operation answered. */
export function coverageSection(c: RunCoverage): string {
  const rows = c.channels
    .map((x) => `<tr><td>${h(x.operation)}</td><td>${h(x.channel)}</td><td>${x.sent} of ${x.catalogued}</td></tr>`)
    .join('');
  const missed = c.notSent.map((n) => `<li><code>${h(n.id)}</code>: ${h(n.why)}</li>`).join('');
  const statuses = Object.entries(c.statuses)
    .map(
      ([op, s]) =>
        `<tr><td>${h(op)}</td><td>${Object.entries(s)
          .map(([k, n]) => `${h(k)} ×${n}`)
          .join(', ')}</td></tr>`,
    )
    .join('');
  return `<section class="coverage">
<h2>Coverage</h2>
<p>${h(coverageSaid(c).replace(/^s/, 'S'))}.</p>
<details><summary>Catalogued inputs per operation and channel</summary>
<table><thead><tr><th>Operation</th><th>Channel</th><th>Sent</th></tr></thead><tbody>${rows}</tbody></table>
${missed ? `<ul>${missed}</ul>` : ''}
</details>
<details><summary>Answers per operation, by status</summary>
<table><thead><tr><th>Operation</th><th>Statuses</th></tr></thead><tbody>${statuses}</tbody></table>
</details>
</section>`;
}
