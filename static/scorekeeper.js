// Scorekeeper's small enhancements. Every page works without this file: forms post and redirect.
(function () {
  "use strict";

  // A form sends once: a double tap must not send it twice (the server also refuses a repeat, by the
  // idempotency key the form carries, so this only saves a round trip).
  function guardForms() {
    document.querySelectorAll("form[data-once]:not([data-outbox])").forEach(function (form) {
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

  // Back (or the browser's page cache) must never show a form as already sent, nor send it with the
  // key of an earlier change: a page shown again gets fresh forms.
  function freshFormsOnReturn() {
    window.addEventListener("pageshow", function (event) {
      if (!event.persisted) { return; }
      document.querySelectorAll("form[data-once]:not([data-outbox])").forEach(function (form) {
        delete form.dataset.sent;
        form.querySelectorAll("button.sending").forEach(function (button) {
          button.classList.remove("sending");
          button.removeAttribute("aria-disabled");
        });
      });
    });
  }

  // Say plainly when the phone has no connection.
  function connectionBanner() {
    var banner = document.getElementById("connection");
    if (!banner) { return; }
    function show() {
      var offline = navigator.onLine === false;
      banner.hidden = !offline;
      banner.textContent = offline
        ? "Offline: this page is as it was last seen. Hands you record stay on this phone and are sent when the connection is back."
        : "";
      document.documentElement.classList.toggle("offline", offline);
    }
    window.addEventListener("online", show);
    window.addEventListener("offline", show);
    show();
  }

  // Keep the screen on while a game is open at the table or on the spectator's screen.
  function keepAwake() {
    if (!("wakeLock" in navigator) || !document.body.matches(".table-page, .tv")) { return; }
    var lock = null;
    function request() {
      if (document.visibilityState !== "visible" || lock) { return; }
      navigator.wakeLock.request("screen").then(function (sentinel) {
        lock = sentinel;
        lock.addEventListener("release", function () { lock = null; });
      }).catch(function () { /* not allowed now (battery saver, no gesture yet): the screen may dim */ });
    }
    document.addEventListener("visibilitychange", request);
    document.addEventListener("pointerdown", request, { passive: true });
    request();
  }

  // The installable app: the service worker keeps the opened pages for offline use. Signing out
  // forgets them on this phone (the outbox of hands is kept: nothing in it is dropped unasked).
  function serviceWorker() {
    var script = document.querySelector("script[data-service-worker]");
    if (!("serviceWorker" in navigator) || !script) { return; }
    navigator.serviceWorker.register(script.dataset.serviceWorker, { scope: "/", type: "module" }).catch(function () {
      /* no service worker (a plain-http address, a private window): the pages still work online */
    });
    // A page that loaded without the worker (the first one, or one opened while the worker installed) asks
    // the worker to take it over once it is active; until then the page would not load offline.
    navigator.serviceWorker.ready.then(function (registration) {
      if (!navigator.serviceWorker.controller && registration.active) {
        registration.active.postMessage({ type: "claim" });
      }
    });
    document.querySelectorAll("form[data-sign-out]").forEach(function (form) {
      form.addEventListener("submit", function () {
        if (window.caches) { window.caches.delete("pages"); }
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    guardForms();
    freshFormsOnReturn();
    connectionBanner();
    keepAwake();
    serviceWorker();
  });
})();
