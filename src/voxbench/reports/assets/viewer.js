// voxbench conversation viewer: audio cursor on the timeline, seeking, current turn highlight.
(function () {
  "use strict";
  var audio = document.getElementById("player");
  var svg = document.getElementById("timeline");
  var cursor = document.getElementById("cursor");
  var wrap = document.getElementById("tlwrap");
  var clock = document.getElementById("clock");
  if (!svg) return;
  var x0 = parseFloat(svg.dataset.x0), pxps = parseFloat(svg.dataset.pxps);
  var duration = parseFloat(svg.dataset.duration);
  var turns = Array.prototype.slice.call(document.querySelectorAll(".turn[data-end]"));
  var current = null;

  function place(t) {
    var x = x0 + t * pxps;
    cursor.setAttribute("x1", x);
    cursor.setAttribute("x2", x);
    if (clock) clock.textContent = t.toFixed(1) + " s / " + duration.toFixed(1) + " s";
    if (x < wrap.scrollLeft + 40 || x > wrap.scrollLeft + wrap.clientWidth - 40) {
      wrap.scrollLeft = Math.max(0, x - wrap.clientWidth / 3);
    }
    var now = null;
    turns.forEach(function (el) {
      if (t >= parseFloat(el.dataset.t) && t <= parseFloat(el.dataset.end)) now = el;
    });
    if (now !== current) {
      if (current) current.classList.remove("playing");
      if (now) {
        now.classList.add("playing");
        if (audio && !audio.paused) {
          var box = now.parentElement, top = now.offsetTop - box.offsetTop;
          if (top < box.scrollTop || top > box.scrollTop + box.clientHeight - 60) box.scrollTop = top - 20;
        }
      }
      current = now;
    }
  }
  function seek(t) {
    t = Math.max(0, Math.min(duration, t));
    if (audio) { try { audio.currentTime = t; } catch (e) { /* not loaded yet */ } }
    place(t);
  }
  svg.addEventListener("click", function (ev) {
    var r = svg.getBoundingClientRect();
    seek((ev.clientX - r.left - x0) / pxps);
  });
  document.querySelectorAll("[data-seek]").forEach(function (b) {
    b.addEventListener("click", function () {
      seek(parseFloat(b.dataset.seek));
      if (audio && audio.paused) audio.play().catch(function () {});
    });
  });
  if (audio) {
    var tick = function () { place(audio.currentTime); if (!audio.paused) requestAnimationFrame(tick); };
    audio.addEventListener("play", function () { requestAnimationFrame(tick); });
    audio.addEventListener("seeked", function () { place(audio.currentTime); });
    audio.addEventListener("timeupdate", function () { place(audio.currentTime); });
  }
  document.addEventListener("keydown", function (ev) {
    if (ev.code === "Space" && audio && ev.target === document.body) {
      ev.preventDefault();
      if (audio.paused) audio.play().catch(function () {}); else audio.pause();
    }
  });
  place(0);
})();
