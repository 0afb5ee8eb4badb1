// The review page's behaviour: a chip opens the source panel at its passage, highlighted;
// filters show quotes by status; Escape closes the panel. Text is only ever moved as text
// nodes (no innerHTML anywhere), so nothing from an answer or a source can become markup.
(function () {
  "use strict";

  var panel = null;
  var lastChip = null;

  function clearMarks() {
    var marks = document.querySelectorAll(".source-text mark");
    for (var i = 0; i < marks.length; i++) {
      var mark = marks[i];
      var parent = mark.parentNode;
      while (mark.firstChild) parent.insertBefore(mark.firstChild, mark);
      parent.removeChild(mark);
      parent.normalize();
    }
    var pressed = document.querySelectorAll(".chip[aria-expanded='true']");
    for (var j = 0; j < pressed.length; j++) pressed[j].setAttribute("aria-expanded", "false");
  }

  function showOnly(selector, keep) {
    var all = panel.querySelectorAll(selector);
    for (var i = 0; i < all.length; i++) all[i].hidden = all[i] !== keep;
  }

  function highlight(section, start, end) {
    var box = section.querySelector(".source-text");
    var node = box.firstChild;
    if (!node || node.nodeType !== 3) return null;
    var length = node.data.length;
    start = Math.max(0, Math.min(start, length));
    end = Math.max(start, Math.min(end, length));
    var range = document.createRange();
    range.setStart(node, start);
    range.setEnd(node, end);
    var mark = document.createElement("mark");
    mark.className = "passage";
    range.surroundContents(mark);
    return mark;
  }

  function open(chip) {
    clearMarks();
    panel.hidden = false;
    lastChip = chip;
    chip.setAttribute("aria-expanded", "true");
    var key = chip.getAttribute("data-key");
    showOnly(".detail", document.getElementById("detail-" + key));
    var index = chip.getAttribute("data-source");
    var section = index === null ? null : document.getElementById("source-" + index);
    showOnly(".source", section);
    var detail = document.getElementById("detail-" + key);
    var heading = detail ? detail.getAttribute("data-heading") : null;
    var title = document.getElementById("panel-title");
    title.textContent = heading || (section ? "Source" : "No source to show");
    var target = panel;
    if (section && chip.hasAttribute("data-start")) {
      var mark = highlight(
        section,
        parseInt(chip.getAttribute("data-start"), 10),
        parseInt(chip.getAttribute("data-end"), 10)
      );
      if (mark) target = mark;
    }
    panel.focus({ preventScroll: true });
    target.scrollIntoView({ block: "center" });
  }

  function close() {
    clearMarks();
    panel.hidden = true;
    if (lastChip) lastChip.focus();
  }

  function filter(button) {
    var wanted = button.getAttribute("data-filter");
    var buttons = document.querySelectorAll(".filter");
    for (var i = 0; i < buttons.length; i++) {
      buttons[i].setAttribute("aria-pressed", buttons[i] === button ? "true" : "false");
    }
    var items = document.querySelectorAll(".quote-item");
    for (var j = 0; j < items.length; j++) {
      items[j].hidden = wanted !== "" && items[j].getAttribute("data-status") !== wanted;
    }
    var quotes = document.querySelectorAll(".answer-text .quote, .answer-text .chip");
    for (var k = 0; k < quotes.length; k++) {
      var dim = wanted !== "" && quotes[k].getAttribute("data-status") !== wanted;
      quotes[k].classList.toggle("dimmed", dim);
    }
  }

  function toggleHelp(button) {
    var box = document.getElementById("help");
    box.hidden = !box.hidden;
    button.setAttribute("aria-expanded", box.hidden ? "false" : "true");
  }

  document.addEventListener("DOMContentLoaded", function () {
    panel = document.getElementById("source-panel");
    if (!panel) return;
    document.addEventListener("click", function (event) {
      var chip = event.target.closest("button.chip");
      if (chip) { open(chip); return; }
      var button = event.target.closest("button.filter");
      if (button) { filter(button); return; }
      var help = event.target.closest("#help-toggle");
      if (help) { toggleHelp(help); return; }
      if (event.target.closest("#panel-close")) close();
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && !panel.hidden) close();
    });
  });
})();
