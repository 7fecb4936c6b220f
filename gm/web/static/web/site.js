/* The game page's small helpers: quick picks, the example, deadlines in the reader's
   zone with a live countdown, and a polling refresh of what changed (no framework). */
(function () {
  "use strict";

  function box() { return document.getElementById("id_text"); }

  function addLine(text) {
    var t = box();
    if (!t) return;
    t.value = t.value && !/\n$/.test(t.value) ? t.value + "\n" + text : t.value + text;
    t.dispatchEvent(new Event("input"));
    t.focus();
  }

  document.addEventListener("click", function (ev) {
    var pick = ev.target.closest && ev.target.closest("button.pick");
    if (pick) { addLine(pick.getAttribute("data-line")); return; }
    if (ev.target.id === "use-example") {
      var ex = document.getElementById("example-text");
      if (ex && box()) {
        box().value = ex.textContent;
        box().dispatchEvent(new Event("input"));
        box().focus();
      }
    }
  });

  function left(ms) {
    if (ms <= 0) return "no time";
    var s = Math.floor(ms / 1000), d = Math.floor(s / 86400), h = Math.floor(s % 86400 / 3600),
        m = Math.floor(s % 3600 / 60);
    if (d) return d + " d " + h + " h";
    if (h) return h + " h " + m + " min";
    if (m) return m + " min " + (s % 60) + " s";
    return (s % 60) + " s";
  }

  function tick() {
    document.querySelectorAll(".countdown[data-deadline]").forEach(function (el) {
      el.textContent = left(new Date(el.getAttribute("data-deadline")) - new Date());
    });
  }

  function browserZone() {
    try { return Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return ""; }
  }

  function localDeadlines() {
    var zone = browserZone();
    document.querySelectorAll("time.deadline[data-zone-chosen='0']").forEach(function (el) {
      if (!zone) return;
      var when = new Date(el.getAttribute("datetime"));
      var fmt = new Intl.DateTimeFormat(undefined, {weekday: "short", day: "numeric",
        month: "short", year: "numeric", hour: "2-digit", minute: "2-digit",
        timeZone: zone, timeZoneName: "short"});
      el.textContent = fmt.format(when) + " (your browser's zone)";
    });
    document.querySelectorAll("form.save-zone").forEach(function (form) {
      if (!zone || zone === "UTC") return;
      form.querySelector("input[name=time_zone]").value = zone;
      form.querySelector(".zone-name").textContent = zone;
      form.hidden = false;
    });
    document.querySelectorAll("input[name=browser_zone]").forEach(function (i) { i.value = zone; });
  }

  // --- newcomer (issue 28): every {% when %} time in the reader's zone, named -----------

  function pad(n) { return (n < 10 ? "0" : "") + n; }

  function localTimes() {
    var zone = browserZone();
    if (!zone) return;
    document.querySelectorAll("time.when[data-zone-chosen='0']").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime")), style = el.getAttribute("data-style");
      var parts = {};
      try {
        new Intl.DateTimeFormat("en-GB", {year: "numeric", month: "2-digit", day: "2-digit",
          hour: "2-digit", minute: "2-digit", second: "2-digit", weekday: "short",
          hourCycle: "h23", timeZone: zone, timeZoneName: "short"})
          .formatToParts(when).forEach(function (p) { parts[p.type] = p.value; });
      } catch (e) { return; }
      var name = parts.timeZoneName || zone;
      if (/^(GMT|UTC)[+-]/.test(name)) name = name + " " + zone;  // an offset only: add the zone
      var hm = parts.hour + ":" + parts.minute, text;
      if (style === "deadline") {
        var month = new Intl.DateTimeFormat("en-GB", {month: "short", timeZone: zone}).format(when);
        text = parts.weekday + " " + parseInt(parts.day, 10) + " " + month + " " + parts.year + ", " + hm;
        if (zone !== "UTC" && zone !== "Etc/UTC") {
          name += " (" + pad(when.getUTCHours()) + ":" + pad(when.getUTCMinutes()) + " UTC)";
        }
      } else {
        text = parts.year + "-" + parts.month + "-" + parts.day + " " + hm +
          (style === "seconds" ? ":" + parts.second : "");
      }
      el.textContent = text + " " + name;
      el.title = "in your browser's zone (" + zone + "); save a time zone in Settings to fix it";
    });
  }
  // A picture board wider than its box (the Duel of Ages map on a phone) gets a "Fit to
  // screen" toggle: the whole board at once, or back to its legible size to scroll.
  function fitBoards() {
    document.querySelectorAll(".board").forEach(function (box) {
      var pic = box.querySelector("svg");
      if (!pic || box.previousElementSibling && box.previousElementSibling.classList &&
          box.previousElementSibling.classList.contains("board-fit-toggle")) return;
      if (pic.getBoundingClientRect().width <= box.clientWidth + 1) return;
      var button = document.createElement("button");
      button.type = "button"; button.className = "secondary board-fit-toggle";
      button.textContent = "Fit to screen";
      button.setAttribute("aria-pressed", "false");
      button.addEventListener("click", function () {
        var on = !pic.classList.contains("fitted");
        pic.classList.toggle("fitted", on);
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.textContent = on ? "Full size (scroll)" : "Fit to screen";
      });
      box.parentNode.insertBefore(button, box);
    });
  }
  // newcomer (issue 28): a board wider than its box opens scrolled to the reader's own
  // units (the engine marks them class "unit-mine"), not to the board's left edge. Once,
  // on load: a live refresh keeps wherever the reader has scrolled since.
  function showMine() {
    document.querySelectorAll(".board").forEach(function (box) {
      var mine = box.querySelectorAll("svg .unit-mine");
      if (!mine.length || box.scrollWidth <= box.clientWidth + 1) return;
      var edge = box.getBoundingClientRect().left, width = box.clientWidth;
      var most = box.scrollWidth - width, units = [];
      mine.forEach(function (u) {
        var r = u.getBoundingClientRect();
        units.push([r.left - edge + box.scrollLeft, r.right - edge + box.scrollLeft]);
      });
      // the least scrolling that shows the most of them (the legend and status line start
      // at the left): try the start, and each unit just in view at either side
      var best = 0, seen = -1, tries = [0];
      units.forEach(function (u) { tries.push(u[0] - 16, u[1] + 16 - width); });
      tries.map(function (t) { return Math.round(Math.max(0, Math.min(t, most))); })
        .sort(function (a, b) { return a - b; }).forEach(function (t) {
          var n = units.filter(function (u) { return u[0] >= t && u[1] <= t + width; }).length;
          if (n > seen) { seen = n; best = t; }
        });
      box.scrollLeft = best;
    });
  }
  // --- end newcomer -------------------------------------------------------------------

  function focusNotice() {
    var el = document.getElementById("order-errors") || document.getElementById("order-preview") ||
      (location.hash === "#messages" && document.getElementById("messages"));  // newcomer: turn closed
    if (el) { el.scrollIntoView({block: "start"}); el.focus({preventScroll: true}); }
  }

  // --- live refresh: poll a small JSON; when it changed, swap the changed sections -------
  var SECTIONS = ["status", "latest-report", "board", "thread-list", "press-list"];

  function swap(doc) {
    SECTIONS.forEach(function (id) {
      var now = document.getElementById(id), fresh = doc.getElementById(id);
      if (now && fresh && now.innerHTML !== fresh.innerHTML) now.innerHTML = fresh.innerHTML;
    });
    var orders = document.getElementById("orders"), fresh = doc.getElementById("orders");
    var t = box();
    var untouched = !t || t.value === t.defaultValue;
    if (orders && fresh && untouched) orders.innerHTML = fresh.innerHTML;
    else if (orders && fresh && !untouched) {
      var note = document.getElementById("refresh-note");
      if (!note) {
        note = document.createElement("p");
        note.id = "refresh-note"; note.className = "notice"; note.setAttribute("role", "status");
        orders.insertBefore(note, orders.firstChild.nextSibling);
      }
      note.textContent = "The game moved on while you were typing: send, or reload to see " +
                         "the new order form (your text is kept until you reload).";
    }
    localDeadlines(); localTimes(); tick(); focusableScrollers(); fitBoards();
  }

  // --- newcomer (issue 26): a browser notification when the turn moves on -------------
  function notifyOffer() {
    var line = document.getElementById("notify-line"), button = document.getElementById("notify-me");
    if (!line || !button || !("Notification" in window)) return;
    if (Notification.permission !== "default") return;  // granted already, or refused
    line.hidden = false;
    button.addEventListener("click", function () {
      Notification.requestPermission().then(function () { line.hidden = true; });
    });
  }

  function notifyMoved(before, now) {
    if (!("Notification" in window) || Notification.permission !== "granted") return;
    var moved = before.turn !== now.turn || before.status !== now.status ||
      before.turn_status !== now.turn_status;
    if (!moved) return;
    var body = now.status === "finished" ? "The game is over." :
      now.turn_status === "open" ? "Turn " + now.turn + " is open." :
      "Turn " + now.turn + " is " + (now.turn_status || now.status) + ".";
    try { new Notification(document.title.replace(/^\(\d+\) /, ""), {body: body, tag: location.pathname}); }
    catch (e) { /* some browsers allow notifications from a service worker only */ }
  }
  // --- end newcomer -------------------------------------------------------------------

  function poll(live) {
    // newcomer: a hidden tab still polls when the reader asked to be notified
    if (document.hidden && !("Notification" in window && Notification.permission === "granted")) return;
    fetch(live.getAttribute("data-url"), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (text) {
        if (text === null) return;
        var marks = JSON.stringify(JSON.parse(text), Object.keys(JSON.parse(text)).sort());
        var before = live.getAttribute("data-marks");
        var old = JSON.stringify(JSON.parse(before), Object.keys(JSON.parse(before)).sort());
        if (marks === old) return;
        live.setAttribute("data-marks", text);
        notifyMoved(JSON.parse(before), JSON.parse(text));  // newcomer
        return fetch(live.getAttribute("data-page"), {credentials: "same-origin"})
          .then(function (r) { return r.text(); })
          .then(function (html) {
            var doc = new DOMParser().parseFromString(html, "text/html");
            swap(doc);
            if (doc.title) document.title = doc.title;  // newcomer: "(1) …" when you owe
          });
      })
      .catch(function () { /* offline for a moment: try again next time */ });
  }

  // --- live preview: the orders as the server would understand them, as they are typed ---
  function livePreview() {
    var out = document.getElementById("live-preview"), t = box();
    if (!out || !t) return;
    var timer = null, last = null;
    function show(data) {
      out.textContent = "";
      if (!data || (!data.orders.length && !data.errors.length)) return;
      var notRead = data.not_read || [];
      var head = document.createElement("p");
      head.textContent = data.ok ? "As understood (not sent yet):" :
        "Not accepted yet; understood so far:";
      out.appendChild(head);
      if (data.orders.length) {
        var pre = document.createElement("pre");
        pre.textContent = data.orders.join("\n");
        out.appendChild(pre);
      }
      if (data.errors.length) {
        var ul = document.createElement("ul");
        ul.className = "errors-live";
        data.errors.forEach(function (e) {
          var li = document.createElement("li");
          li.textContent = (e.line > 0 ? "Line " + e.line + ": " : "") + e.message +
                           (e.hint ? " — " + e.hint : "");
          ul.appendChild(li);
        });
        out.appendChild(ul);
      }
      if (notRead.length) {  // greetings and sign-offs: skipped, as on mail
        var skip = document.createElement("p");
        skip.className = "muted";
        // with no order in the text every line is "not read": they are not all greetings
        skip.textContent = (data.no_orders ? "Not read (no line is an order of this game): "
                                           : "Not read (greetings and sign-offs): ") +
          notRead.map(function (l) { return "\u201c" + l + "\u201d"; }).join(", ");
        out.appendChild(skip);
      }
      if (data.conditional) {
        var note = document.createElement("p");
        note.className = "muted";
        note.textContent = "Which branch each IF takes is decided when the turn resolves; " +
                           "no game can tell it in advance yet.";
        out.appendChild(note);
      }
    }
    function ask() {
      if (t.value === last) return;
      last = t.value;
      var form = new FormData();
      form.append("text", t.value);
      var token = document.querySelector("#orders-form input[name=csrfmiddlewaretoken]");
      fetch(out.getAttribute("data-url"), {method: "POST", body: form, credentials: "same-origin",
            headers: {"X-CSRFToken": token ? token.value : ""}})
        .then(function (r) { return r.ok ? r.json() : null; })
        .then(show).catch(function () {});
    }
    t.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(ask, 500); });
  }

  // A region that scrolls (a wide table, a long view) must be reachable by keyboard.
  function focusableScrollers() {
    document.querySelectorAll("pre, table, .scroll, .report, .board").forEach(function (el) {
      var scrolls = el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1;
      if (scrolls && !el.hasAttribute("tabindex")) {
        el.setAttribute("tabindex", "0");
        if (!el.getAttribute("aria-label") && !el.closest("[aria-label]")) {
          el.setAttribute("aria-label", "scrollable " + (el.tagName === "TABLE" ? "table" : "text"));
        }
      }
    });
  }

  function zoneSettings() {
    var shown = document.getElementById("browser-zone"), use = document.getElementById("use-browser-zone");
    if (!shown || !use) return;
    var zone = browserZone();
    shown.textContent = zone || "(unknown)";
    use.addEventListener("click", function () {
      var select = document.getElementById("id_time_zone");
      if (zone && select) select.value = zone;
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    zoneSettings(); livePreview(); localDeadlines(); localTimes(); tick(); focusableScrollers();
    notifyOffer(); fitBoards(); showMine();  // showMine: newcomer, issue 28
    // After the browser's own jump to the URL's #fragment, which would take focus back.
    window.addEventListener("load", function () { setTimeout(focusNotice, 0); });
    setInterval(tick, 1000);
    var live = document.getElementById("live");
    if (live && location.pathname !== live.getAttribute("data-page")) {
      // A refused order or a preview was answered at the POST's address: put the game
      // page's address back, so that reloading shows the page instead of posting again.
      history.replaceState(null, "", live.getAttribute("data-page") + location.hash);
    }
    if (live) {
      var every = window.GM_POLL_MS || 15000;  // tests shorten it
      setInterval(function () { poll(live); }, every);
      document.addEventListener("visibilitychange", function () { poll(live); });
    }
  });
})();
