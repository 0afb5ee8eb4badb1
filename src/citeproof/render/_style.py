"""The answer page's style sheet. Colours come from `citeproof.render._verdicts` (the palette
every rendering shares) and only reinforce the status: every badge also has a word and a
symbol, and quote underlines differ in shape (solid, dashed, wavy, dotted) for colour-blind
readers; the legend draws each as it is drawn in the text. A note's panel opens with CSS
``:target``: beside the answer on a wide screen, as a bottom sheet on a phone; the page has no
script.
"""

from citeproof.render._verdicts import PALETTE_CSS

_PAGE = """
:root { color-scheme: light; --ink: #1d2330; --muted: #57606a; --line: #d0d7de;
  --panel-width: min(30rem, 40vw); }
* { box-sizing: border-box; }
html { scroll-padding-top: 4rem; }
body { margin: 0; background: #f6f8fa; color: var(--ink);
  font: 16px/1.65 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
main.citeproof { max-width: 48rem; margin: 1.5rem auto; padding: 0 1rem; }
h1 { font-size: 1.4rem; margin: 0 0 .4rem; overflow-wrap: anywhere; }
h2 { font-size: 1.1rem; margin: 1.5rem 0 .5rem; }
header { position: relative; }
p.summary { margin: 0 0 .5rem; color: var(--muted); font-size: .95rem; }
article.answer, section.sources, section.unplaced { background: #fff;
  border: 1px solid var(--line); border-radius: 10px; overflow-wrap: anywhere; }
article.answer { padding: .25rem 1.25rem .75rem; }
section.sources, section.unplaced { padding: .25rem 1.25rem 1rem; margin-top: 1.25rem; }
.badge { display: inline-block; white-space: nowrap; font-size: .78rem; font-weight: 600;
  line-height: 1.4; padding: 0 .45rem; border-radius: 999px; border: 1px solid;
  vertical-align: .08em; }
.vh { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0);
  white-space: nowrap; }
mark.quote { background: none; color: inherit; padding: 0 .05rem;
  text-decoration-line: underline; text-decoration-thickness: 2px; text-underline-offset: 3px;
  text-decoration-skip-ink: none; }
a.quote-link { color: inherit; text-decoration: none; border-radius: 3px; }
a.quote-link:hover mark.quote, a.quote-link:focus-visible mark.quote { background: #fff8c5; }
mark.quote.state-verified { text-decoration-color: var(--ok-line); }
mark.quote.state-corrected { text-decoration-color: var(--fixed-line); }
mark.quote.state-mismatch { background: var(--warn-fill); text-decoration-color: var(--warn-line);
  text-decoration-style: dashed; }
mark.quote.state-not_found { background: var(--bad-fill); text-decoration-color: var(--bad-ink);
  text-decoration-style: wavy; }
mark.quote.state-ineligible { text-decoration-color: var(--off-line);
  text-decoration-style: dotted; }
mark.quote.state-meaning_changed { background: var(--bad-fill); color: var(--bad-ink);
  text-decoration-color: var(--bad-ink); text-decoration-style: wavy; }
.quote del, .diff del, .audit del { color: var(--bad-ink); background: var(--bad-fill);
  text-decoration-thickness: 2px; }
.quote ins, .diff ins, .audit ins { text-decoration: none; color: var(--ok-ink);
  background: var(--ok-fill); font-weight: 600; }
.arrow { color: var(--muted); }
.qsym { font-size: .72rem; font-weight: 700; border: 1px solid; border-radius: 4px;
  padding: 0 .2rem; margin-left: .1rem; vertical-align: .15em; white-space: nowrap; }
.qsym.state-meaning_changed { font-size: .78rem; }
a.marker { display: inline-flex; align-items: baseline; gap: .05rem; margin-left: .15rem;
  padding: 0 .3rem; min-width: 1.5rem; justify-content: center; border: 1px solid;
  border-radius: 6px; font-size: .75rem; font-weight: 700; line-height: 1.45;
  text-decoration: none; vertical-align: .2em; white-space: nowrap; }
a.marker .symbol { font-size: .85em; margin-left: .1rem; }
a.marker:hover { text-decoration: underline; }
a:focus-visible, summary:focus-visible { outline: 3px solid #0969da; outline-offset: 2px; }
span.claim { border-radius: 3px; }
figure.block-quote { margin: 1rem 0; }
figure.block-quote blockquote { margin: 0; padding: .6rem 1rem; white-space: pre-line;
  border-left: 4px solid var(--line); background: #fafbfc; }
figure.block-quote.state-verified blockquote { border-left-color: var(--ok-line); }
figure.block-quote.state-corrected blockquote { border-left-color: var(--fixed-line); }
figure.block-quote.state-mismatch blockquote { border-left-color: var(--warn-line);
  border-left-style: dashed; }
figure.block-quote.state-not_found blockquote, figure.block-quote.state-meaning_changed blockquote
  { border-left-color: var(--bad-ink); background: var(--bad-fill); }
figure.block-quote.state-ineligible blockquote { border-left-color: var(--off-line);
  border-left-style: dotted; }
figure.block-quote figcaption { margin-top: .3rem; }
p.meaning-changed { color: var(--bad-ink); background: var(--bad-fill);
  border: 1px solid var(--bad-line); border-radius: 8px; padding: .35rem .7rem;
  font-weight: 600; font-size: .92rem; margin: .4rem 0; }
p.nothing-checked { background: var(--warn-fill); border: 1px solid var(--warn-line);
  border-radius: 8px; padding: .5rem .75rem; font-weight: 600; }
details.help { margin: .25rem 0 1rem; font-size: .9rem; }
details.help > summary { cursor: pointer; color: #0550ae; width: fit-content; }
details.help .help-body { position: absolute; z-index: 5; left: 0; right: 0; margin-top: .3rem;
  background: #fff; border: 1px solid var(--line); border-radius: 10px; padding: .5rem 1rem;
  box-shadow: 0 8px 24px rgba(31, 35, 40, .15); }
ul.legend { list-style: none; padding: 0; margin: .25rem 0 .5rem; }
ul.legend li { margin: .2rem 0; }
ul.legend .sample { white-space: nowrap; margin-right: .25rem; }
section.panels { margin: 0; }
section.panel { display: none; }
section.panel:target { display: block; position: fixed; z-index: 10; top: 0; right: 0;
  bottom: 0; width: var(--panel-width); overflow-y: auto; overscroll-behavior: contain;
  background: #fff; border-left: 1px solid var(--line); padding: .75rem 1.1rem 2rem;
  box-shadow: -8px 0 24px rgba(31, 35, 40, .12); overflow-wrap: anywhere; }
@media (min-width: 48rem) {
  body:has(section.panel:target) main.citeproof {
    margin-left: max(1rem, calc((100vw - var(--panel-width) - 48rem) / 2));
    margin-right: calc(var(--panel-width) + 1rem); }
}
@media (max-width: 47.99rem) {
  section.panel:target { top: auto; left: 0; width: auto; max-height: 55vh;
    border-left: 0; border-top: 1px solid var(--line); border-radius: 14px 14px 0 0;
    box-shadow: 0 -8px 24px rgba(31, 35, 40, .18); }
  main.citeproof { margin: 1rem auto; padding: 0 .75rem; }
  body:has(section.panel:target) main.citeproof { padding-bottom: 55vh; }
  article.answer { padding: .25rem .9rem .6rem; }
}
.panel-head { display: flex; align-items: center; gap: .5rem; margin: .25rem 0 .5rem; }
.panel-head .num { font-weight: 700; font-size: 1.1rem; }
.panel-head .close { margin-left: auto; font-size: .9rem; color: #0550ae; }
p.claim-text { margin: .25rem 0; font-size: 1rem; }
mark.differs { background: var(--bad-fill); color: var(--bad-ink); padding: 0 .1rem;
  border-bottom: 2px solid var(--bad-line); }
p.why { margin: .25rem 0 .75rem; color: var(--muted); font-size: .92rem; }
div.check { background: #fff; border: 0; border-left: 3px solid; border-radius: 0;
  padding: .1rem 0 .1rem .75rem; margin: .75rem 0; color: inherit; }
.check-head { margin: .2rem 0; }
.where, .quality, .when, .no-excerpt, .note, .facts, .holds, .missing, .eligibility,
  footer { color: var(--muted); font-size: .88rem; }
.where { margin: .5rem 0 .1rem; }
p.refused { color: var(--bad-ink); font-size: .9rem; margin: .3rem 0; }
blockquote.excerpt { margin: .3rem 0; padding: .5rem .75rem; background: #fafbfc;
  border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; font-size: .92rem; }
blockquote.excerpt mark.match { background: #fff1a8; padding: 0 .1rem;
  outline: 1px solid #d4a72c; }
ul.audit { margin: .25rem 0; padding-left: 1.1rem; font-size: .85rem; color: var(--muted); }
.note { font-style: italic; }
footer { margin: 1.5rem 0 3rem; }
"""

PAGE_CSS = PALETTE_CSS + _PAGE

ASKED_CSS = """
p.asked { margin: 0; color: var(--muted); font-size: .85rem; font-weight: 600;
  text-transform: uppercase; letter-spacing: .04em; }
p.page-heading { margin: 0 0 .25rem; font-weight: 600; }
p.instructs { margin: .25rem 0 .5rem; color: var(--bad-ink); background: var(--bad-fill);
  border: 1px solid var(--bad-line); border-radius: 8px; padding: .35rem .7rem;
  font-size: .9rem; }
"""
"""What only the page of an asked question adds: its question, and the warning on a source
that tries to instruct the model (`citeproof.render._asked`)."""


def open_note_css(pairs: list[tuple[int, str]]) -> str:
    """Rules that light up the claim (by its element id) whose note panel is open."""
    return "".join(
        f"body:has(#note-{number}:target) #{element} {{ background: #fff8c5; }}\n"
        for number, element in pairs
    )
