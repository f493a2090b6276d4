// The page shell every HTML report shares (conformance.html, matrix.html): escaping, the self-contained page, the base CSS.
// Every piece of text from a run passes through h(): a server's response is untrusted input.

/** Escapes text for HTML content and quoted attributes. */
export function h(text: string | number): string {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** A whole self-contained page: inline style and script only, and a Content-Security-Policy that forbids loading anything. */
export function htmlPage(
  page: { title: string; generator?: string; style: string; script: string },
  main: string,
): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:">
${page.generator ? `<meta name="generator" content="${h(page.generator)}">\n` : ''}<title>${h(page.title)}</title>
<style>${page.style}</style>
</head>
<body>
${main}
<script>${page.script}</script>
</body>
</html>
`;
}

/** The palette and the rules every page of the suite starts from (the matrix too: src/commands/matrix/html.ts). */
export const BASE_STYLE = `
:root {
  --ink: #1c2430; --muted: #5f6b7a; --line: #e3e7ed; --bg: #f4f6f9; --card: #fff;
  --passed: #1e7f4f; --passed-bg: #e6f4ec; --failed: #c0262d; --failed-bg: #fdecec;
  --error: #7a3db8; --error-bg: #f2ebfa; --warning: #a15c00; --warning-bg: #fff4e0;
  --skipped: #6b7480; --skipped-bg: #eef0f3;
  --mono: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
}
* { box-sizing: border-box; }
html { -webkit-print-color-adjust: exact; print-color-adjust: exact; }
`;
