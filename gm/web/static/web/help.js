/* Help pages and the order card (no inline script: the Content-Security-Policy allows
   only files of the site).

   On a help page, each line of an orders example (```orders blocks) gets a button:
   opened from a game's order card (?game=<id>), a tap keeps the line for that game and
   the game page adds it to the order box on return; otherwise it is copied.
   On the game page, the help link follows the line being written: it points at the
   section of the help for that order word when the help has one. */
(function () {
  "use strict";
  var KEY = "gm-add-";

  function pending(game) {
    try { return JSON.parse(sessionStorage.getItem(KEY + game) || "[]"); } catch (e) { return []; }
  }

  function exampleButtons(doc) {
    var game = doc.getAttribute("data-game");
    var status = document.createElement("p");
    status.id = "added"; status.className = "small"; status.setAttribute("aria-live", "polite");
    doc.querySelectorAll("code.language-orders").forEach(function (code) {
      var pre = code.parentNode;
      var box = document.createElement("div");
      box.className = "choices example-lines";
      var label = document.createElement("p");
      label.textContent = game ? "Tap a line to add it to your orders:" : "Tap a line to copy it:";
      box.appendChild(label);
      code.textContent.split("\n").forEach(function (raw) {
        var line = raw.replace(/\s+#.*$/, "").replace(/^#.*$/, "").trim();
        if (!line) { return; }
        var b = document.createElement("button");
        b.type = "button"; b.className = "pick secondary"; b.textContent = line;
        b.setAttribute("data-line", line);
        box.appendChild(b);
      });
      pre.parentNode.insertBefore(box, pre.nextSibling);
    });
    doc.addEventListener("click", function (ev) {
      var b = ev.target.closest && ev.target.closest(".example-lines button[data-line]");
      if (!b) { return; }
      var line = b.getAttribute("data-line");
      b.parentNode.appendChild(status);
      if (game) {
        var lines = pending(game); lines.push(line);
        sessionStorage.setItem(KEY + game, JSON.stringify(lines));
        status.innerHTML = "";
        status.appendChild(document.createTextNode("Added \u201c" + line + "\u201d (" +
          lines.length + (lines.length === 1 ? " line" : " lines") + " to add). "));
        var a = document.createElement("a");
        a.href = "/games/" + game + "/#orders"; a.textContent = "Back to the order box";
        status.appendChild(a);
      } else if (navigator.clipboard) {
        navigator.clipboard.writeText(line).then(function () {
          status.textContent = "Copied \u201c" + line + "\u201d.";
        }, function () { status.textContent = line; });
      } else {
        status.textContent = line;
      }
    });
  }

  function missingAnchor() {
    var id = decodeURIComponent(location.hash.slice(1));
    if (id.indexOf("order-") === 0 && !document.getElementById(id)) {
      var orders = document.getElementById("orders");
      if (orders) { orders.scrollIntoView(); }
    }
  }

  function orderWord(text, caret) {
    var start = text.lastIndexOf("\n", caret - 1) + 1;
    var end = text.indexOf("\n", caret); if (end < 0) { end = text.length; }
    var line = text.slice(start, end).toUpperCase().replace(/#.*/, "");
    var parts = line.split(/\b(?:THEN|ELSE)\b/);
    var words = parts[parts.length - 1].trim().split(/\s+/);
    if (words[0] === "STANDING" && words.length > 1) { words.shift(); }
    return /^IF$/.test(words[0]) ? "IF" : words[0];
  }

  function orderCard(link) {
    var game = link.getAttribute("data-game");
    var known = (link.getAttribute("data-orders") || "").split(" ");
    var base = link.getAttribute("data-base");
    var box = document.getElementById("id_text");
    var label = link.querySelector(".for-order");
    var lines = pending(game);
    if (box && lines.length) {
      sessionStorage.removeItem(KEY + game);
      box.value = box.value.replace(/\s*$/, "") + (box.value.trim() ? "\n" : "") + lines.join("\n");
      box.dispatchEvent(new Event("input", { bubbles: true }));
      box.focus();
    }
    function follow() {
      var word = box ? orderWord(box.value, box.selectionStart || 0) : "";
      var has = word && known.indexOf(word) >= 0;
      link.href = base + "?game=" + game + (has ? "#order-" + word.toLowerCase() : "#orders");
      if (label) { label.textContent = has ? " (help on " + word + ")" : ""; }
    }
    if (box) {
      ["input", "keyup", "click", "focus"].forEach(function (e) { box.addEventListener(e, follow); });
      follow();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var doc = document.getElementById("playerdoc");
    if (doc) {
      exampleButtons(doc); missingAnchor();
      window.addEventListener("hashchange", missingAnchor);
    }
    var link = document.getElementById("rules-link");
    if (link) { orderCard(link); }
  });
}());
