"""The viewer's inline CSS and JS (no network: the pages must open from a copied folder).

The JS only reads data-* attributes the page already holds and toggles `hidden`; it never
builds markup from episode text, so escaping stays in one place (`prove_jax.viewer.episode`).
"""

from __future__ import annotations

__all__ = ["CSP", "CSS", "FILTER_JS"]

# Nothing but inline style/script and data: images may load: model output that slipped past
# escaping still could not fetch anything.
CSP = ("default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; "
       "img-src data:")

CSS = """
:root { --ok:#1a7f37; --schema_error:#b35900; --execution_error:#cf222e;
  --unknown_tool:#8250df; --malformed:#6e0f0f; --muted:#57606a; }
body { font: 13px/1.45 system-ui, sans-serif; margin: 0 1rem 2rem; color: #1f2328; }
h1 { font-size: 1.3rem; } h2 { font-size: 1.05rem; margin: .2rem 0; }
nav.pages { margin: .5rem 0; } nav.pages a, nav.pages b { margin-right: .6rem; }
.filters { position: sticky; top: 0; background: #f6f8fa; padding: .4rem .6rem; z-index: 2;
  border-bottom: 1px solid #d0d7de; display: flex; gap: 1rem; flex-wrap: wrap;
  align-items: center; }
.filters input[type=number] { width: 5rem; }
section.group { border: 1px solid #d0d7de; border-radius: 6px; margin: 1rem 0; padding: .5rem;
  content-visibility: auto; contain-intrinsic-size: auto 800px; }
.cols { display: grid; gap: .6rem; overflow-x: auto; }
article.episode { border: 1px solid #d8dee4; border-radius: 6px; padding: .4rem; min-width: 0; }
article.episode.failed { border-color: var(--execution_error); }
.meta { color: var(--muted); } .meta b { color: #1f2328; }
.adv-pos { color: var(--ok); font-weight: 600; } .adv-neg { color: var(--execution_error);
  font-weight: 600; }
pre { white-space: pre-wrap; word-break: break-word; margin: .2rem 0; font-size: 12px; }
.turn { border-left: 3px solid #d0d7de; padding: .1rem .5rem; margin: .3rem 0; }
.role { font-weight: 600; font-size: 11px; text-transform: uppercase; color: var(--muted); }
.role-system { background: #f6f8fa; } .role-user { border-color: #0969da; }
.role-assistant { border-color: #1f2328; background: #fbfbfb; }
.role-tool { border-color: #8c959f; }
.call { border: 1px solid; border-radius: 4px; padding: .2rem .4rem; margin: .2rem 0; }
.outcome { font-weight: 600; font-size: 11px; padding: 0 .3rem; border-radius: 3px;
  color: #fff; }
.outcome-ok { border-color: var(--ok); } .outcome-ok .outcome { background: var(--ok); }
.outcome-schema_error { border-color: var(--schema_error); }
.outcome-schema_error .outcome { background: var(--schema_error); }
.outcome-execution_error { border-color: var(--execution_error); }
.outcome-execution_error .outcome { background: var(--execution_error); }
.outcome-unknown_tool { border-color: var(--unknown_tool); }
.outcome-unknown_tool .outcome { background: var(--unknown_tool); }
.call.malformed { border-style: dashed; border-color: var(--malformed); }
.flag { background: var(--malformed); color: #fff; font-size: 11px; padding: 0 .3rem;
  border-radius: 3px; font-weight: 600; }
.covers { color: var(--ok); font-size: 11px; } .uncovering { color: var(--muted);
  font-size: 11px; }
.rewards { display: grid; grid-template-columns: max-content 1fr max-content; gap: 0 .5rem;
  align-items: center; margin: .3rem 0; }
.bar { background: #eaeef2; height: .6rem; border-radius: 3px; overflow: hidden; }
.bar span { display: block; height: 100%; background: #0969da; }
.bar span.neg { background: var(--execution_error); }
table { border-collapse: collapse; margin: .3rem 0; }
td, th { border: 1px solid #d8dee4; padding: .1rem .4rem; text-align: left;
  vertical-align: top; font-size: 12px; }
tr.missed td { background: #ffebe9; } .mark-ok { color: var(--ok); font-weight: 700; }
.mark-bad { color: var(--execution_error); font-weight: 700; }
.warn { color: var(--execution_error); font-weight: 600; }
details > summary { cursor: pointer; color: var(--muted); }
svg.curve { border: 1px solid #d0d7de; background: #fff; }
"""

FILTER_JS = """
(function () {
  'use strict';
  var eps = Array.prototype.slice.call(document.querySelectorAll('article.episode'));
  var groups = Array.prototype.slice.call(document.querySelectorAll('section.group'));
  function el(id) { return document.getElementById(id); }
  function fill(select, values) {
    values.sort().forEach(function (v) {
      var o = document.createElement('option');
      o.value = v; o.textContent = v;  // textContent: values are never parsed as markup
      select.appendChild(o);
    });
  }
  var kinds = {}, finishes = {};
  eps.forEach(function (e) {
    e.dataset.outcomes.split(' ').forEach(function (k) { if (k) { kinds[k] = 1; } });
    finishes[e.dataset.finish] = 1;
  });
  fill(el('f-outcome'), Object.keys(kinds));
  fill(el('f-finish'), Object.keys(finishes));
  function apply() {
    var lo = parseFloat(el('f-min').value), hi = parseFloat(el('f-max').value);
    var kind = el('f-outcome').value, fin = el('f-finish').value;
    var failedOnly = el('f-failed').checked, shown = 0;
    eps.forEach(function (e) {
      var r = e.dataset.reward === '' ? NaN : parseFloat(e.dataset.reward);
      var ok = !(!isNaN(lo) && !(r >= lo)) && !(!isNaN(hi) && !(r <= hi)) &&
        !(kind && e.dataset.outcomes.split(' ').indexOf(kind) < 0) &&
        !(fin && e.dataset.finish !== fin) && !(failedOnly && e.dataset.failed !== '1');
      e.hidden = !ok;
      if (ok) { shown += 1; }
    });
    groups.forEach(function (g) {
      g.hidden = !g.querySelector('article.episode:not([hidden])');
    });
    el('shown').textContent = shown + ' of ' + eps.length + ' episodes shown';
  }
  // A filter can come in the URL (page.html#failed=1&outcome=schema_error&min=0.5), so a
  // link can point at "the failed ones of step 12".
  var q = new URLSearchParams(location.hash.slice(1));
  if (q.has('min')) { el('f-min').value = q.get('min'); }
  if (q.has('max')) { el('f-max').value = q.get('max'); }
  if (q.has('outcome')) { el('f-outcome').value = q.get('outcome'); }
  if (q.has('finish')) { el('f-finish').value = q.get('finish'); }
  el('f-failed').checked = q.get('failed') === '1';
  ['f-min', 'f-max', 'f-outcome', 'f-finish', 'f-failed'].forEach(function (id) {
    el(id).addEventListener('input', apply);
    el(id).addEventListener('change', apply);
  });
  apply();
})();
"""
