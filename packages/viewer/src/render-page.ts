import { clientScript } from "./client-bundle.ts";
import { PAGE_CSS } from "./page-styles.ts";
import type { PageData } from "./view-model.ts";

/**
 * JSON that is safe inside `<script type="application/json">`: `<` is escaped so no string in a
 * journal can close the element, and U+2028/2029 so the text stays valid wherever it is pasted.
 */
export function embedJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

/** A script's text that cannot end its `<script>` element early. */
function embedScript(code: string): string {
  return code.replace(/<\/(script)/gi, "<\\/$1").replace(/<!--/g, "<\\!--");
}

function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;");
}

/**
 * The whole page as one HTML document: styles, the client (with its layout library) and the data
 * inlined. Its Content-Security-Policy forbids every request except, for a served page, to the
 * server it came from, so the page cannot reach the network even if some content tried to.
 */
export function renderPage(data: PageData, title = "climpt run viewer"): string {
  const connect = data.mode === "live" ? "'self'" : "'none'";
  const csp = `default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src ${connect}; base-uri 'none'; form-action 'none'`;
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${PAGE_CSS}</style>
</head>
<body>
<div id="app"><p>Loading…</p></div>
<script type="application/json" id="climpt-view-data">${embedJson(data)}</script>
<script>${embedScript(clientScript())}</script>
</body>
</html>
`;
}
