// Live preview of the adjudication draft: the text is sent to the desk's API as the
// GM types (debounced) and the reports are shown as they would be published. Nothing
// is saved or published by the preview.
(function () {
  "use strict";
  var form = document.getElementById("draft-form");
  var box = document.getElementById("draft-text");
  if (!form || !box) return;
  var api = form.getAttribute("data-api");
  var turn = form.getAttribute("data-turn");
  var token = (form.querySelector("input[name=csrfmiddlewaretoken]") || {}).value;
  var timer = null;

  function text(el, value) { el.textContent = value; return el; }

  function show(data) {
    var errors = document.getElementById("preview-errors");
    var reports = document.getElementById("preview-reports");
    errors.textContent = "";
    if (!data.ok) {
      var ul = document.createElement("ul");
      ul.className = "errors";
      (data.errors || []).forEach(function (e) {
        ul.appendChild(text(document.createElement("li"),
          "line " + e.line + ": " + e.message + (e.hint ? " (" + e.hint + ")" : "")));
      });
      errors.appendChild(ul);
      return;
    }
    Object.keys(data.reports || {}).forEach(function (name) {
      var pane = reports.querySelector('details[data-reader="' + name + '"] .report');
      // the server renders the markdown and sanitises it (nh3), as for every report
      if (pane) pane.innerHTML = data.reports[name].html;
    });
  }

  function preview() {
    var body = JSON.stringify({action: "preview", text: box.value, turn: Number(turn)});
    fetch(api, {method: "POST", credentials: "same-origin", body: body,
                headers: {"Content-Type": "application/json", "X-CSRFToken": token}})
      .then(function (r) { return r.json(); })
      .then(function (data) { if (data && "ok" in data) show(data); })
      .catch(function () { /* the saved preview stays */ });
  }

  box.addEventListener("input", function () {
    if (timer) clearTimeout(timer);
    timer = setTimeout(preview, 400);
  });
})();
