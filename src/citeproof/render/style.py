"""The page's style sheet. Colours only reinforce the status: every badge also has a word and
a symbol, and quote underlines differ in shape (solid, dashed, wavy...) for colour-blind readers.
"""

PAGE_CSS = """
:root { color-scheme: light; --ink: #1d2330; --muted: #5b6372; --line: #d8dce3; }
* { box-sizing: border-box; }
body { margin: 0; background: #f6f7f9; color: var(--ink);
  font: 16px/1.6 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main.citeproof { max-width: 52rem; margin: 2rem auto; padding: 0 1.25rem; }
h1 { font-size: 1.5rem; margin: 0 0 .75rem; }
h2 { font-size: 1.15rem; margin: 2rem 0 .5rem; }
article.answer, section.sources, section.unplaced, table.summary { background: #fff;
  border: 1px solid var(--line); border-radius: 10px; }
article.answer { padding: .5rem 1.5rem 1rem; }
section.sources, section.unplaced { padding: .25rem 1.5rem 1rem; margin-top: 1.5rem; }
table.summary { border-collapse: separate; border-spacing: 0; width: 100%; margin-bottom: 1.5rem;
  overflow: hidden; }
table.summary caption { text-align: left; font-weight: 600; padding: 0 0 .4rem; }
table.summary th, table.summary td { text-align: left; padding: .4rem .75rem;
  border-top: 1px solid var(--line); font-size: .92rem; vertical-align: top; }
table.summary thead th { border-top: 0; color: var(--muted); font-weight: 600; }
table.summary td.count { font-weight: 700; text-align: right; width: 4rem; }
.badge { display: inline-block; white-space: nowrap; font-size: .78rem; font-weight: 600;
  line-height: 1.4; padding: 0 .45rem; border-radius: 999px; border: 1px solid;
  vertical-align: .08em; }
.badge .symbol { font-size: .85em; }
.status-verified.badge { background: #e7f5ea; color: #1b5e2d; border-color: #9fd3ac; }
.status-corrected.badge { background: #e8f0fe; color: #1a4a94; border-color: #a8c2f0; }
.status-mismatch.badge { background: #fff3df; color: #7a4a00; border-color: #f0c77d; }
.status-not_found.badge { background: #fdeaea; color: #9b1c1c; border-color: #f1aaaa; }
.status-ineligible.badge { background: #eeeff2; color: #3f4654; border-color: #b9bec8; }
mark.quote { background: none; color: inherit; padding: 0 .1rem;
  text-decoration-line: underline; text-decoration-thickness: 2px;
  text-underline-offset: 3px; }
mark.quote.status-verified { background: #f1faf3; text-decoration-color: #3c9a57; }
mark.quote.status-corrected { background: #f1f6ff; text-decoration-color: #3d73c9;
  text-decoration-style: double; }
mark.quote.status-mismatch { background: #fff8ec; text-decoration-color: #d08a12;
  text-decoration-style: dashed; }
mark.quote.status-not_found { background: #fdf1f1; text-decoration-color: #c93a3a;
  text-decoration-style: wavy; }
mark.quote.status-ineligible { background: #f3f4f6; text-decoration-color: #7c8392;
  text-decoration-style: dotted; }
figure.block-quote { margin: 1rem 0; }
figure.block-quote blockquote { margin: 0; padding: .6rem 1rem; white-space: pre-line;
  border-left: 4px solid var(--line); background: #fafbfc; }
figure.block-quote.status-verified blockquote { border-left-color: #3c9a57; }
figure.block-quote.status-corrected blockquote { border-left-color: #3d73c9; }
figure.block-quote.status-mismatch blockquote { border-left-color: #d08a12;
  border-left-style: dashed; }
figure.block-quote.status-not_found blockquote { border-left-color: #c93a3a;
  border-left-style: dotted; }
figure.block-quote.status-ineligible blockquote { border-left-color: #7c8392;
  border-left-style: double; }
figure.block-quote figcaption { margin-top: .35rem; }
.was { font-size: .85rem; color: var(--muted); margin-left: .25rem; }
.was del { color: #8a3b3b; }
.cite { display: inline-block; font-size: .75rem; line-height: 1.4; padding: 0 .4rem;
  border-radius: 4px; background: #eef0f4; color: #2d3442; border: 1px solid #d3d7de;
  white-space: nowrap; vertical-align: .1em; }
.cite-corrected { background: #e8f0fe; border-color: #a8c2f0; }
.cite-ineligible, .cite-removed { background: #eeeff2; border-style: dashed; }
.cite-flagged { background: #fff3df; border-color: #f0c77d; }
.cite-status { font-style: italic; }
.cite-meaning_changed { background: #fdeaea; border-color: #f1aaaa; }
.meaning-changed { color: #9b1c1c; font-weight: 600; font-size: .9rem; margin-left: .25rem; }
p.meaning-changed { margin: .25rem 0; }
p.nothing-checked { background: #fff3df; border: 1px solid #f0c77d; border-radius: 8px;
  padding: .5rem .75rem; font-weight: 600; }
.support { display: inline-block; font-size: .75rem; line-height: 1.4; padding: 0 .4rem;
  border: 1px solid #c9cdd4; border-radius: .6rem; }
.support-supported { background: #e6f4ea; border-color: #9ccfa8; }
.support-partial, .support-uncited { background: #fff3df; border-color: #f0c77d; }
.support-contradicted, .support-unsupported { background: #fde8e8; border-color: #f0a8a8; }
.support-why { font-size: .8rem; color: #5f6368; }
details.show-source { margin: .35rem 0 .75rem; font-size: .9rem; }
details.show-source > summary { cursor: pointer; color: #1a4a94; font-weight: 600;
  width: fit-content; }
details.show-source > summary .for { color: var(--muted); font-weight: 400; }
details.show-source .details-body { margin: .4rem 0 0 .9rem; padding: .5rem .9rem;
  border-left: 3px solid var(--line); background: #fbfbfc; }
details.show-source p { margin: .25rem 0; }
blockquote.excerpt { margin: .4rem 0; padding: .5rem .75rem; background: #fff;
  border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; }
blockquote.excerpt mark.match { background: #fff1a8; padding: 0 .1rem; }
.quality, .where, .when, .no-excerpt { color: var(--muted); }
.note { font-style: italic; }
ul.audit { margin: .25rem 0; padding-left: 1.2rem; }
ul.audit ins { text-decoration: none; background: #e7f5ea; }
.source-id { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: .85rem;
  background: #eef0f4; padding: 0 .3rem; border-radius: 4px; }
.facts, .holds, .missing, footer { color: var(--muted); font-size: .9rem; }
footer { margin: 1.5rem 0 3rem; }
"""
