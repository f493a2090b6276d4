// conformance.html's inline CSS (over the shared BASE_STYLE of src/report/page.ts) and its few lines of script.
// A line ending in a backslash goes on in the next: the template's line continuation, in no string, keeps lines short.
import { BASE_STYLE } from './page.js';

export const SCRIPT = `
(function () {
  var all = function () { return Array.prototype.slice.call(document.querySelectorAll('details.row')); };
  var only = document.getElementById('problems-only');
  if (only) only.addEventListener('change', function () { document.body.classList.toggle('problems-only', only.checked); });
  var button = document.getElementById('expand-all');
  if (button) button.addEventListener('click', function () {
    var open = all().some(function (d) { return !d.open; });
    all().forEach(function (d) { d.open = open; });
    button.textContent = open ? 'Collapse all findings' : 'Expand all findings';
  });
  var reveal = function () {
    var id = decodeURIComponent(location.hash.slice(1));
    var el = id && document.getElementById(id);
    if (el && el.tagName === 'DETAILS') el.open = true;
  };
  window.addEventListener('hashchange', reveal);
  reveal();
  var opened = [];
  window.addEventListener('beforeprint', function () {
    opened = all().filter(function (d) { return !d.open; });
    opened.forEach(function (d) { d.open = true; });
  });
  window.addEventListener('afterprint', function () { opened.forEach(function (d) { d.open = false; }); });
})();
`;

export const STYLE = `${BASE_STYLE}
body { margin: 0; background: var(--bg); color: var(--ink); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; }
main { max-width: 1120px; margin: 0 auto; padding: 28px 24px 48px; }
code, pre { font-family: var(--mono); font-size: 12.5px; }
a { color: inherit; }
.muted { color: var(--muted); }
.verdict { background: var(--card); border: 1px solid var(--line); border-top: 8px solid var(--c); border-radius: 10px; \
padding: 22px 28px 18px; box-shadow: 0 1px 3px rgba(16,24,40,.06); }
.v-conformant { --c: var(--passed); --cbg: var(--passed-bg); }
.v-nonconformant { --c: var(--failed); --cbg: var(--failed-bg); }
.v-inconclusive { --c: var(--warning); --cbg: var(--warning-bg); }
.v-not-tested { --c: var(--warning); --cbg: var(--warning-bg); }
.eyebrow { text-transform: uppercase; letter-spacing: .08em; font-size: 12px; color: var(--muted); font-weight: 600; }
.verdict h1 { margin: 6px 0 2px; font-size: 34px; line-height: 1.2; color: var(--c); display: flex; align-items: center; gap: 14px; }
.seal { display: inline-grid; place-items: center; width: 44px; height: 44px; border-radius: 50%; background: var(--c); color: #fff; \
font-size: 26px; flex: none; }
.reason { margin: 4px 0 14px; font-size: 16px; font-weight: 500; }
.reason::first-letter { text-transform: uppercase; }
.run-badge { margin: 0 0 12px; display: flex; align-items: center; gap: 10px; flex-wrap: wrap; font-size: 13px; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(320px, 1fr)); gap: 6px 28px; margin: 0; padding-top: 12px; \
border-top: 1px solid var(--line); }
.facts div { display: flex; gap: 10px; min-width: 0; }
.facts dt { flex: none; width: 96px; color: var(--muted); font-size: 13px; padding-top: 1px; }
.facts dd { margin: 0; overflow-wrap: anywhere; }
.facts .wide { grid-column: 1 / -1; }
.note { margin: 12px 0 0; padding: 8px 12px; border-radius: 6px; background: var(--warning-bg); color: #5c3500; font-size: 14px; }
.levels { display: grid; grid-template-columns: 1fr 1fr; gap: 16px; margin: 16px 0; }
.card { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; }
.lh { display: flex; align-items: center; justify-content: space-between; margin-bottom: 10px; }
.total { color: var(--muted); font-size: 13px; }
.bar { display: flex; height: 10px; border-radius: 5px; overflow: hidden; background: var(--skipped-bg); }
.bar span { display: block; height: 100%; }
.bar .passed { background: var(--passed); } .bar .failed { background: var(--failed); } .bar .warning { background: #e0a030; } \
.bar .error { background: var(--error); } .bar .skipped { background: #b8bfc9; }
.nums { display: grid; grid-template-columns: repeat(4, 1fr); margin: 10px 0 0; }
.nums div { text-align: center; }
.nums dt { font-size: 12px; color: var(--muted); }
.nums dd { margin: 0; font-size: 22px; font-weight: 650; }
.c-passed { color: var(--passed); } .c-failed { color: var(--failed); } .c-error { color: var(--error); } .c-warning { color: var(--warning); }
.findings { display: grid; gap: 12px; margin-bottom: 16px; }
.finding { background: var(--card); border: 1px solid var(--line); border-left: 5px solid var(--fc); border-radius: 8px; padding: 10px 16px; }
.finding h3 { margin: 0 0 6px; font-size: 15px; color: var(--fc); }
.finding .n { display: inline-block; min-width: 22px; padding: 0 6px; border-radius: 10px; background: var(--fc); color: #fff; \
font-size: 12px; text-align: center; }
.finding ul { margin: 0; padding-left: 18px; }
.finding li { margin: 3px 0; }
.finding li a { font-family: var(--mono); font-weight: 600; font-size: 13px; }
.finding .also { list-style: none; padding-left: 14px; color: var(--muted); font-size: 13px; }
.finding .why { color: var(--muted); font-size: 13.5px; }
.f-failed { --fc: var(--failed); } .f-error { --fc: var(--error); } .f-warning { --fc: var(--warning); } .f-known { --fc: var(--skipped, #6b7280); }
.toolbar { display: flex; justify-content: flex-end; align-items: center; gap: 16px; margin: 20px 0 4px; font-size: 14px; color: var(--muted); }
.toolbar button { font: inherit; font-size: 13px; padding: 4px 12px; border: 1px solid var(--line); border-radius: 6px; \
background: var(--card); color: var(--ink); cursor: pointer; }
.area { margin-top: 18px; }
.area h2 { display: flex; align-items: center; justify-content: space-between; gap: 12px; font-size: 18px; margin: 0 0 8px; }
.chips { display: flex; gap: 6px; flex-wrap: wrap; }
.chip { font-size: 12px; font-weight: 600; padding: 1px 9px; border-radius: 10px; }
.rows { background: var(--card); border: 1px solid var(--line); border-radius: 10px; overflow: hidden; }
.row { border-top: 1px solid var(--line); }
.rows > .row:first-child { border-top: 0; }
div.row, summary { display: grid; grid-template-columns: 92px minmax(150px, 230px) 64px 1fr 64px 18px; gap: 12px; align-items: start; padding: 9px 14px; }
summary { cursor: pointer; list-style: none; }
summary::-webkit-details-marker { display: none; }
summary:hover { background: #f8fafc; }
.badge { display: inline-block; width: 100%; text-align: center; font-size: 12px; font-weight: 650; padding: 2px 0; border-radius: 5px; \
text-transform: uppercase; letter-spacing: .03em; }
.badge.small { width: auto; padding: 0 6px; font-size: 11px; }
.b-passed { color: var(--passed); background: var(--passed-bg); } .b-failed { color: var(--failed); background: var(--failed-bg); }
.b-error { color: var(--error); background: var(--error-bg); } .b-warning { color: var(--warning); background: var(--warning-bg); }
.b-known, .b-unscored { color: #4b5563; background: #e5e7eb; }
.b-skipped { color: var(--skipped); background: var(--skipped-bg); }
.rid { font-family: var(--mono); font-size: 13px; font-weight: 600; overflow-wrap: anywhere; padding-top: 1px; }
.lvl { font-size: 11px; font-weight: 700; letter-spacing: .04em; padding: 2px 7px; border-radius: 4px; text-align: center; border: 1px solid; }
.l-MUST { color: #1d3f8f; border-color: #b9c7ea; background: #eef2fc; } .l-SHOULD { color: #5a4a1a; border-color: #e4d6a8; background: #fbf6e6; }
.st { min-width: 0; }
.sec { display: block; font-size: 12px; color: var(--muted); }
.why { display: block; font-size: 13px; color: var(--muted); overflow-wrap: anywhere; }
.r-failed .st .why { color: var(--failed); } .r-error .st .why { color: var(--error); } .r-warning .st .why { color: var(--warning); }
.dur { text-align: right; font-size: 12.5px; color: var(--muted); font-variant-numeric: tabular-nums; padding-top: 1px; }
.chev { width: 10px; height: 10px; margin-top: 6px; }
summary .chev { border-right: 2px solid var(--muted); border-bottom: 2px solid var(--muted); transform: rotate(-45deg); transition: transform .15s; }
details[open] > summary .chev { transform: rotate(45deg); }
details[open] > summary { background: #f8fafc; }
.r-failed > summary { box-shadow: inset 4px 0 0 var(--failed); } .r-error > summary { box-shadow: inset 4px 0 0 var(--error); } \
.r-warning > summary { box-shadow: inset 4px 0 0 var(--warning); }
.evidence { padding: 4px 18px 16px 118px; border-top: 1px dashed var(--line); background: #fbfcfd; }
.cap { font-size: 11.5px; font-weight: 700; text-transform: uppercase; letter-spacing: .06em; color: var(--muted); margin: 12px 0 4px; }
pre { margin: 0; padding: 10px 12px; border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; }
.msg { background: var(--cbg, #fff); border: 1px solid var(--line); font-size: 13px; }
.r-failed .msg { background: var(--failed-bg); } .r-error .msg { background: var(--error-bg); } .r-warning .msg { background: var(--warning-bg); }
.http { background: #fff; border: 1px solid var(--line); max-height: 320px; overflow: auto; }
.http .hk { color: var(--muted); }
.curl { background: #1f2733; color: #e9eef5; user-select: all; }
.har { margin: 0; font-size: 13px; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 12px; }
.exn { margin-top: 14px; font-size: 13px; font-weight: 600; }
.checks { margin: 0; padding-left: 0; list-style: none; font-size: 13px; }
.checks li { margin: 3px 0; }
footer { margin-top: 28px; color: var(--muted); font-size: 12.5px; border-top: 1px solid var(--line); padding-top: 12px; }
footer p { margin: 4px 0; }
body.problems-only .r-passed, body.problems-only .r-skipped { display: none; }
@media (max-width: 760px) {
  .levels, .pair { grid-template-columns: 1fr; }
  div.row, summary { grid-template-columns: 84px 1fr 18px; row-gap: 4px; }
  .row .badge { grid-area: 1 / 1; } .rid { grid-area: 1 / 2; } .chev { grid-area: 1 / 3; } .st { grid-area: 2 / 1 / 3 / -1; }
  .row .lvl, .row .dur { display: none; }
  .evidence { padding-left: 14px; }
}
@media print {
  body { background: #fff; font-size: 12px; }
  main { max-width: none; padding: 0; }
  .toolbar { display: none; }
  .verdict, .card, .rows, .finding { box-shadow: none; }
  .row { break-inside: avoid; }
  .http { max-height: none; }
  .curl { background: #fff; color: var(--ink); border: 1px solid var(--line); }
  a { text-decoration: none; }
}
`;
