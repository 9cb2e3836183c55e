/**
 * The two static assets: one stylesheet and one small script (progressive enhancement only — every
 * page works without it). Served at /assets/atlas.css and /assets/atlas.js, and written into the
 * generation's assets/ folder by writePages. Directory membership labels (.badge.in, .badge.out)
 * share one neutral style: a colour per membership would read as a grade; the words say it.
 */
export const ASSET_PATHS = { css: '/assets/atlas.css', js: '/assets/atlas.js' } as const;

export const CSS = `:root{--fg:#1b1f24;--muted:#57606a;--bg:#fff;--line:#d0d7de;--soft:#f6f8fa;--accent:#0550ae;--pass:#1a7f37;--fail:#cf222e;--none:#8c959f;--warn:#9a6700}
*{box-sizing:border-box}
body{margin:0;font:15px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
a{color:var(--accent)}
a:focus-visible,button:focus-visible,input:focus-visible,select:focus-visible{outline:3px solid #fb8500;outline-offset:2px}
.skip,.sr-only{position:absolute;left:-999px}.skip:focus{left:8px;top:8px;background:#fff;padding:4px 8px;z-index:2}
header.site{border-bottom:1px solid var(--line);background:var(--soft)}
header.site .wrap{display:flex;gap:1.5rem;align-items:center;flex-wrap:wrap}
header.site .brand{font-weight:700;font-size:1.15rem;text-decoration:none;color:var(--fg)}
header.site nav a{margin-right:1rem}
header.site nav a[aria-current=page]{font-weight:600;color:var(--fg)}
.wrap{max-width:1100px;margin:0 auto;padding:.75rem 1rem}
main.wrap{padding-top:1rem}
h1{font-size:1.5rem;margin:.25rem 0 .5rem}h2{font-size:1.15rem;margin:1.5rem 0 .5rem;border-bottom:1px solid var(--line);padding-bottom:.2rem}
.lede{color:var(--muted);margin-top:0}
.muted{color:var(--muted)}
code,.url{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.88em;word-break:break-all}
table{border-collapse:collapse;width:100%;margin:.5rem 0}
th,td{text-align:left;padding:.35rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{background:var(--soft);font-weight:600;font-size:.9em}
td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
caption{text-align:left;padding:.2rem 0}caption.strong{font-weight:600}th.plain{font-weight:400;background:none}
.small{font-size:.8em}
table.results td .small{white-space:nowrap}table.results td:first-child{min-width:15rem}table.results td:nth-child(2){min-width:7rem}.full{grid-column:1/-1;margin:0}
table.figures{width:auto;min-width:50%}
.table-scroll{overflow-x:auto}
form.search{display:grid;grid-template-columns:repeat(auto-fill,minmax(170px,1fr));gap:.6rem 1rem;background:var(--soft);border:1px solid var(--line);border-radius:6px;padding:.75rem;margin:.5rem 0 1rem}
form.search .q{grid-column:1/-1;display:flex;gap:.5rem}
form.search .q input{flex:1}
form.search label{display:flex;flex-direction:column;font-size:.85em;color:var(--muted);gap:.15rem}
form.search fieldset{border:0;padding:0;margin:0;font-size:.85em;color:var(--muted)}
form.search fieldset label{flex-direction:row;align-items:center;gap:.3rem;color:var(--fg)}
input,select,button{font:inherit;padding:.3rem .45rem;border:1px solid var(--line);border-radius:4px;background:#fff;color:var(--fg)}
button{background:var(--accent);color:#fff;border-color:var(--accent);cursor:pointer;font-weight:600}
.actions{display:flex;gap:.75rem;align-items:end}
.badge{display:inline-block;padding:0 .4rem;border-radius:9px;font-size:.78em;border:1px solid var(--line);background:var(--soft);white-space:nowrap}
.badge.pass,.yes{color:var(--pass)}.badge.fail,.no{color:var(--fail)}.badge.stale{color:var(--warn)}
.badge.in,.badge.out{border-color:var(--line);color:var(--fg)}
.third-party{background:#fff8c5;border-bottom:1px dashed var(--warn);padding:0 .15rem}
.third-party-note{font-size:.82em;color:var(--warn)}
.tp-label{font-size:.72em;color:var(--warn);text-transform:uppercase;letter-spacing:.03em;margin-left:.25rem}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.2rem 1rem;margin:.5rem 0}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(320px,1fr));gap:1rem}
figure{margin:0;border:1px solid var(--line);border-radius:6px;padding:.5rem}
figcaption{font-size:.85em;color:var(--muted)}
svg.chart{width:100%;height:auto;display:block}
svg.chart .grid{stroke:#eaeef2;stroke-width:1}
svg.chart .pass{fill:var(--pass)}svg.chart .fail{fill:var(--fail)}svg.chart .none{fill:var(--none)}
svg.chart .line{fill:none;stroke:var(--accent);stroke-width:1.5}svg.chart .dot{fill:var(--accent)}
svg.chart text{font-size:10px;fill:var(--muted);font-family:system-ui,sans-serif}
.legend{font-size:.82em;color:var(--muted)}.legend span::before{content:"";display:inline-block;width:.7em;height:.7em;margin:0 .3em 0 .6em;vertical-align:-.05em}
.legend .l-pass::before{background:var(--pass)}.legend .l-fail::before{background:var(--fail)}.legend .l-none::before{background:var(--none)}
.pager{display:flex;gap:1rem;align-items:center;margin:.75rem 0}
.notice{border-left:4px solid var(--line);padding:.4rem .75rem;background:var(--soft);margin:.75rem 0;font-size:.92em}
.notice.hint{border-color:var(--warn)}
footer.site{border-top:1px solid var(--line);margin-top:2rem;color:var(--muted);font-size:.85em}
@media (max-width:640px){th.opt,td.opt{display:none}}
@media (prefers-color-scheme:dark){:root{--fg:#e6edf3;--muted:#9198a1;--bg:#0d1117;--line:#30363d;--soft:#161b22;--accent:#4493f8;--pass:#3fb950;--fail:#f85149}
input,select{background:#0d1117;color:var(--fg)}.third-party{background:#3b2e00}svg.chart .grid{stroke:#21262d}}
`;

/**
 * Progressive enhancement: filters submit themselves when changed (the Search button stays for
 * keyboard and no-JS users), and empty fields are dropped from the URL so links stay short.
 */
export const JS = `(function(){var f=document.querySelector('form.search');if(!f)return;
function clean(){Array.prototype.forEach.call(f.elements,function(e){if(e.name&&e.value===''&&!e.disabled){e.dataset.off='1';e.disabled=true;}});}
f.addEventListener('submit',function(){clean();setTimeout(function(){Array.prototype.forEach.call(f.elements,function(e){if(e.dataset.off){e.disabled=false;delete e.dataset.off;}});},0);});
Array.prototype.forEach.call(f.querySelectorAll('select,input[type=radio]'),function(e){e.addEventListener('change',function(){if(f.requestSubmit)f.requestSubmit();else{clean();f.submit();}});});
})();
`;
