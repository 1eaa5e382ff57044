// Scorekeeper's service worker, served at /sw.js (a worker under /static/ could not control the pages)
// and registered as /sw.js?v=<version of the site's files>. The shell and every table page a
// scorekeeper has opened load offline (the copy last seen); online, pages always come from the server,
// so nobody online sees a stale game. Hands waiting in the outbox are also sent from here by Background
// Sync, where the browser has it.

// A module worker's imports are fixed when it loads; this is the outbox the pages use, under /static/.
import { flush } from "/static/outbox.js";

// A new version of the site's files comes with a new registration URL: the browser installs this worker
// again and it keeps the new files in a cache of their own.
const VERSION = new URL(self.location.href).searchParams.get("v") || "unversioned";
const SHELL_CACHE = `shell-${VERSION}`;
const PAGES_CACHE = "pages";
// What to keep (the site's files under their served names, and the page shown offline): the server says.
const SHELL_LIST = "/sw-shell.json";
// The pages kept for offline use: home, and each game's table and spectator pages.
const KEPT_PAGES = [/^\/$/, /^\/games\/\d+\/$/, /^\/games\/\d+\/live\/$/];

async function keepShell() {
  const response = await fetch(SHELL_LIST, { cache: "no-store" });
  if (!response.ok) {
    throw new Error(`${SHELL_LIST}: ${response.status}`);
  }
  const shell = await response.clone().json();
  const cache = await caches.open(SHELL_CACHE);
  // File by file, not cache.addAll: on a flaky connection one lost file would fail the whole install, and
  // the phone would have no worker at all. A site file missed here is kept when a page first loads it.
  await Promise.all([...shell.files, shell.offline].map((file) => keepFile(cache, file)));
  await cache.put(SHELL_LIST, response);
}

async function keepFile(cache, file) {
  try {
    const response = await fetch(file);
    if (response.ok && !response.redirected) {
      await cache.put(file, response);
    }
  } catch {
    /* no answer: kept later, by shellFirst */
  }
}

async function inShell(url) {
  const list = await caches.match(SHELL_LIST, { cacheName: SHELL_CACHE });
  return Boolean(list) && (await list.json()).files.includes(url.pathname);
}

async function offlinePage() {
  const list = await caches.match(SHELL_LIST, { cacheName: SHELL_CACHE });
  const page = list && await caches.match((await list.json()).offline, { cacheName: SHELL_CACHE });
  return page || Response.error();
}

self.addEventListener("install", (event) => {
  event.waitUntil(keepShell().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key.startsWith("shell-") && key !== SHELL_CACHE)
        .map((key) => caches.delete(key)))),
  );
  // No clients.claim() here: it takes only the pages already loaded, and a page whose load was under way
  // (opened while this worker installed) would stay without a worker until reloaded, its copy not kept.
  // Every page that loaded without the worker asks for it instead, once the worker is active ("claim").
});

function kept(url) {
  return KEPT_PAGES.some((pattern) => pattern.test(url.pathname));
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
      return offlinePage();
    }
    throw error;
  }
}

// The site's files from the shell kept at install; anything else from the server.
async function shellFirst(request, url) {
  const found = await caches.match(request, { cacheName: SHELL_CACHE, ignoreSearch: true });
  if (found) {
    return found;
  }
  const response = await fetch(request);
  if (response.ok && !response.redirected && await inShell(url)) {
    // A shell file the install could not fetch: kept now.
    const cache = await caches.open(SHELL_CACHE);
    await cache.put(url.pathname, response.clone());
  }
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) {
    return;  // writes go to the server as they are; the page's outbox keeps a hand that could not be sent
  }
  if (kept(url) && !url.search) {
    event.respondWith(networkFirst(request, url));
  } else if (request.mode === "navigate") {
    event.respondWith(fetch(request).catch(offlinePage));
  } else {
    event.respondWith(shellFirst(request, url));
  }
});

// Background Sync: the browser wakes the worker when the connection is back, even with the page closed.
self.addEventListener("sync", (event) => {
  if (event.tag === "outbox") {
    // Still offline: fail, so that the browser tries again later.
    event.waitUntil(flush().then((summary) => {
      if (summary.offline) {
        throw new Error("still offline");
      }
    }));
  }
});

// A page that loaded without the worker (the first page, or one opened while the worker installed): its
// copy is kept as if it had loaded through here, then the worker takes it over. claim() takes every such
// page at once, so each of them gets its copy first: a table page that loaded while another page asked
// would otherwise be taken over without one, and would not open offline.
async function takeOver() {
  const controlled = new Set((await self.clients.matchAll({ type: "window" })).map((client) => client.id));
  const windows = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  await Promise.all(windows.filter((client) => !controlled.has(client.id)).map((client) => {
    const url = new URL(client.url);
    return kept(url) && !url.search ? networkFirst(new Request(url), url).catch(() => null) : null;
  }));
  await self.clients.claim();
}

self.addEventListener("message", (event) => {
  const type = event.data && event.data.type;
  if (type === "claim" && event.source) {
    event.waitUntil(takeOver());
  } else if (type === "forget-pages") {
    event.waitUntil(caches.delete(PAGES_CACHE));
  }
});
