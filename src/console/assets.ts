/**
 * The console's two static files, served from /console/assets/ (the Content-Security-Policy
 * allows nothing inline and nothing from another host).
 *
 * @module
 */

/** The stylesheet: system fonts, one column, visible focus. */
export const CONSOLE_CSS = `*{box-sizing:border-box}
body{margin:0;font:15px/1.45 system-ui,sans-serif;color:#1d2330;background:#f6f7f9}
header{display:flex;gap:1.2em;align-items:center;flex-wrap:wrap;padding:.6em 1.2em;background:#1d2330;color:#fff}
header a{color:#fff}header .muted{color:#c9d0dc}header .brand{font-weight:700;text-decoration:none;margin-right:.6em}
header form{margin-left:auto}
main{max-width:64em;margin:0 auto;padding:1em 1.2em 3em}
h1{font-size:1.5em;margin:.4em 0}h2{font-size:1.15em;margin:1.6em 0 .5em}.card>h2:first-child{margin-top:0}
a{color:#1f55c4}
nav.crumbs{font-size:.9em;margin:.4em 0}nav.crumbs a{margin-right:.3em}
table{border-collapse:collapse;width:100%;background:#fff;margin:.4em 0 1em}
th,td{text-align:left;padding:.35em .6em;border-bottom:1px solid #dde1e7;vertical-align:top}
th{background:#eef1f5;font-weight:600}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
form.card,section.card,div.card{background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:.8em 1em;margin:.6em 0 1em}
fieldset{border:1px solid #dde1e7;border-radius:4px;margin:.5em 0;padding:.4em .8em}
label{display:inline-block;margin:.2em 1em .2em 0}
label.block{display:block;margin:.5em 0 .2em;font-weight:600}
input[type=text],input[type=password],input[type=number],input[type=search],select,textarea{font:inherit;padding:.3em .45em;border:1px solid #8a94a6;border-radius:4px;min-width:14em}
textarea{display:block;width:100%;box-sizing:border-box;font-family:ui-monospace,monospace}
input[type=number]{min-width:6em;width:7em}
button{font:inherit;padding:.35em .9em;border:1px solid #1f55c4;border-radius:4px;background:#1f55c4;color:#fff;cursor:pointer}
button.secondary{background:#fff;color:#1f55c4}button.danger{background:#b3261e;border-color:#b3261e}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.inline{display:inline}
.error{color:#b3261e;font-weight:600}p.error,div.error{background:#fdecea;border:1px solid #f3b8b3;padding:.5em .8em;border-radius:4px}
.warning{background:#fff4e0;border:1px solid #f0c36d;padding:.6em .9em;border-radius:4px}
.ok{color:#1e7b34}.muted{color:#5b6474}
code,.secret{font-family:ui-monospace,monospace;font-size:.92em}
.secret{display:inline-block;background:#eef1f5;padding:.2em .4em;border-radius:3px;word-break:break-all}
.hit{display:flex;gap:1em;background:#fff;border:1px solid #dde1e7;border-radius:6px;padding:.6em;margin:.5em 0}
.hit img{width:72px;height:72px;object-fit:contain;background:#f0f0f0}
.hit .thumb{width:72px;height:72px;background:#eef1f5;flex:none}
.facets{display:flex;gap:1em;flex-wrap:wrap}
svg.chart{background:#fff;border:1px solid #dde1e7;border-radius:6px;max-width:100%;height:auto}
svg .axis{stroke:#8a94a6}svg .grid{stroke:#e5e8ee}svg text{font:12px system-ui,sans-serif;fill:#1d2330}
svg .bar{fill:#6d8fd8}svg .bar.ref{fill:#a8b3c7}svg .ci{stroke:#1d2330;stroke-width:2}
svg .line-a{stroke:#1f55c4;fill:none;stroke-width:2}svg .line-b{stroke:#d9822b;fill:none;stroke-width:2}
svg .dot-a{fill:#1f55c4}svg .dot-b{fill:#d9822b}
`;

/** The one script: copy buttons (`data-copy` names the element whose text is copied). */
export const CONSOLE_JS = `document.addEventListener('click',function(e){var b=e.target.closest('button[data-copy]');if(!b)return;
var t=document.getElementById(b.getAttribute('data-copy'));if(!t||!navigator.clipboard)return;
navigator.clipboard.writeText(t.textContent).then(function(){b.textContent='Copied';},function(){b.textContent='Copy failed: select the text';});});
`;
