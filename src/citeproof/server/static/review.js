// The review page's behaviour over the answer page's own markup: a marker or a quote opens
// its note's panel by the URL's fragment (CSS :target, as on the answer page); this script
// lights the claim whose panel is open, and on a phone scrolls that claim above the sheet
// and opens the sheet at its top. Escape closes the panel. Text is never turned into markup
// (no innerHTML anywhere).
(function () {
  "use strict";

  var PHONE = "(max-width: 47.99rem)";

  function current() {
    var match = /^#note-(\d+)$/.exec(window.location.hash);
    return match ? match[1] : null;
  }

  function unlight() {
    var lit = document.querySelectorAll(".lit");
    for (var i = 0; i < lit.length; i++) lit[i].classList.remove("lit");
  }

  function show() {
    unlight();
    var number = current();
    var panel = number ? document.getElementById("note-" + number) : null;
    document.body.classList.toggle("sheet-open", Boolean(panel));
    if (!panel) return;
    panel.scrollTop = 0;
    var marker = document.getElementById("ref-" + number);
    if (!marker) return;
    var claim = marker.closest("span.claim") || marker;
    claim.classList.add("lit");
    marker.classList.add("lit");
    if (window.matchMedia(PHONE).matches) {
      // The sheet covers the lower part: the claim goes near the top, above it.
      var top = claim.getBoundingClientRect().top + window.scrollY;
      window.scrollTo({ top: Math.max(0, top - 12), behavior: "instant" });
    }
  }

  function close() {
    var number = current();
    if (!number) return;
    var marker = document.getElementById("ref-" + number);
    window.location.hash = marker ? "#ref-" + number : "";
    if (marker) marker.focus();
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!document.getElementById("answer-page")) return;
    window.addEventListener("hashchange", show);
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") close();
    });
    show();
  });
})();
