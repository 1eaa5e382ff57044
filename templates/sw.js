// Scorekeeper's service worker. The shell and every table page a scorekeeper has opened load offline (the
// copy last seen); online, pages always come from the server, so nobody online sees a stale game. Hands
// waiting in the outbox are also sent from here by Background Sync, where the browser has it.
"use strict";

const VERSION = "{{ version|escapejs }}";
const SHELL_CACHE = "shell-" + VERSION;
const PAGES_CACHE = "pages";
const SHELL = [{% for url in shell %}"{{ url|escapejs }}"{% if not forloop.last %}, {% endif %}{% endfor %}];
const OFFLINE_URL = "{{ offline_url|escapejs }}";
// The pages kept for offline use: home, and each game's table and spectator pages.
const KEPT_PAGES = [/^\/$/, /^\/games\/\d+\/$/, /^\/games\/\d+\/live\/$/];

importScripts(SHELL.find((url) => url.indexOf("outbox") >= 0));

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches.open(SHELL_CACHE)
      .then((cache) => cache.addAll([...SHELL, OFFLINE_URL]))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("shell-") && key !== SHELL_CACHE)
        .map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

function kept(url) {
  return url.origin === self.location.origin && KEPT_PAGES.some((pattern) => pattern.test(url.pathname));
}

// Online, from the server (and kept for later); offline, the copy last seen, else the offline page.
async function networkFirst(request, url) {
  const cache = await caches.open(PAGES_CACHE);
  try {
    const response = await fetch(request);
    if (response.ok && !response.redirected && response.type === "basic") {
      await cache.put(url.pathname, response.clone());
    }
    return response;
  } catch (error) {
    const copy = await cache.match(url.pathname);
    if (copy) {
      return copy;
    }
    if (request.mode === "navigate") {
      return (await caches.match(OFFLINE_URL)) || Response.error();
    }
    throw error;
  }
}

async function shellFirst(request) {
  const found = await caches.match(request, { ignoreSearch: true });
  return found || fetch(request);
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") {
    return;  // writes go to the server as they are; the page's outbox keeps a hand that could not be sent
  }
  const url = new URL(request.url);
  if (url.origin !== self.location.origin) {
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(shellFirst(request));
  } else if (kept(url) && !url.search) {
    event.respondWith(networkFirst(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(async () => (await caches.match(OFFLINE_URL)) || Response.error()));
  }
});

// Background Sync: the browser wakes the worker when the connection is back, even with the page closed.
self.addEventListener("sync", (event) => {
  if (event.tag === "outbox") {
    // Still offline: fail, so that the browser tries again later.
    event.waitUntil(self.ScorekeeperOutbox.flush().then((summary) => {
      if (summary.offline) {
        throw new Error("still offline");
      }
    }));
  }
});

self.addEventListener("message", (event) => {
  if (event.data && event.data.type === "forget-pages") {
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
});
