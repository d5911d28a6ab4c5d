// voxbench report: leaderboard tabs and conversation filters. No network, no libraries.
(function () {
  "use strict";
  document.querySelectorAll(".tabs").forEach(function (bar) {
    bar.addEventListener("click", function (ev) {
      var b = ev.target.closest(".tab");
      if (!b) return;
      bar.querySelectorAll(".tab").forEach(function (x) { x.classList.toggle("active", x === b); });
      var sec = bar.parentElement;
      sec.querySelectorAll(".pane").forEach(function (p) { p.hidden = p.dataset.pane !== b.dataset.tab; });
    });
  });

  var filters = document.querySelectorAll("[data-filter]");
  if (!filters.length) return;
  var rows = document.querySelectorAll("tr.conv");
  function val(el) { return el.type === "checkbox" ? (el.checked ? el.value : "") : el.value; }
  function apply() {
    var want = {};
    filters.forEach(function (f) { want[f.dataset.filter] = val(f); });
    var shown = 0;
    rows.forEach(function (r) {
      var ok = true;
      if (want.metric && (" " + r.dataset.metric + " ").indexOf(" " + want.metric + " ") < 0) ok = false;
      ["domain", "condition", "system", "status", "cause"].forEach(function (k) { if (want[k] && r.dataset[k] !== want[k]) ok = false; });
      if (want.only && r.dataset.fail !== "1") ok = false;
      r.hidden = !ok;
      if (ok) shown++;
    });
    document.getElementById("count").textContent = shown + " of " + rows.length + " conversations";
    document.getElementById("empty").hidden = shown > 0;
    var parts = [];
    Object.keys(want).forEach(function (k) { if (want[k]) parts.push(k + "=" + encodeURIComponent(want[k])); });
    history.replaceState(null, "", parts.length ? "#" + parts.join("&") : location.pathname);
  }
  // filters can come in the URL hash, e.g. conversations.html#metric=task_completion&only=fail
  location.hash.replace(/^#/, "").split("&").forEach(function (kv) {
    var p = kv.split("="), el = document.querySelector("[data-filter='" + p[0] + "']");
    if (!el || p.length < 2) return;
    if (el.type === "checkbox") el.checked = true; else el.value = decodeURIComponent(p[1]);
  });
  filters.forEach(function (f) { f.addEventListener("change", apply); });
  apply();
})();
