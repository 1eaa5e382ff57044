// Scorekeeper's small enhancements. Every page works without this file: forms post and redirect.
(function () {
  "use strict";

  // A form sends once: a double tap must not send it twice (the server also refuses a repeat,
  // by the idempotency key the form carries, so this only saves a round trip).
  function guardForms() {
    document.querySelectorAll("form[data-once]").forEach(function (form) {
      form.addEventListener("submit", function (event) {
        if (form.dataset.sent) { event.preventDefault(); return; }
        form.dataset.sent = "1";
        form.querySelectorAll("button[type=submit]").forEach(function (button) {
          button.setAttribute("aria-disabled", "true");
          button.classList.add("sending");
        });
      });
    });
  }

  // Spades: a running count of the tricks entered, toward 13.
  function trickCount() {
    document.querySelectorAll("[data-trick-count]").forEach(function (group) {
      var want = parseInt(group.dataset.trickCount, 10);
      var out = group.querySelector(".trick-count");
      if (!out) { return; }
      function update() {
        var sum = 0, chosen = 0;
        group.querySelectorAll("input[type=radio]:checked").forEach(function (input) {
          sum += parseInt(input.value, 10); chosen += 1;
        });
        out.hidden = false;
        out.textContent = sum + " of " + want;
        out.className = "trick-count " + (sum === want ? "ok" : sum > want ? "over" : "under");
        if (chosen === 4 && sum !== want) { out.textContent += sum > want ? " — too many" : " — too few"; }
      }
      group.addEventListener("change", update);
      update();
    });
  }

  // The spectator view: fetch the scoreboard fragment every few seconds and swap it in when it changed.
  function livePoll() {
    var live = document.getElementById("live");
    if (!live) { return; }
    var every = (parseInt(live.dataset.poll, 10) || 4) * 1000;
    var etag = live.dataset.version;
    function poll() {
      var headers = etag ? { "If-None-Match": etag } : {};
      fetch(live.dataset.liveUrl, { headers: headers, credentials: "same-origin", cache: "no-store" })
        .then(function (response) {
          if (response.status === 200) {
            etag = response.headers.get("ETag") || etag;
            return response.text().then(function (html) {
              live.innerHTML = html;
              live.dataset.version = etag;
            });
          }
        })
        .catch(function () { /* offline for a moment: try again next time */ })
        .then(function () { setTimeout(poll, every); });
    }
    setTimeout(poll, every);
  }

  document.addEventListener("DOMContentLoaded", function () {
    guardForms();
    trickCount();
    livePoll();
  });
})();
