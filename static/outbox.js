// Scorekeeper's outbox: hands entered at the table are kept on the phone (IndexedDB) first, then sent in
// order, one at a time, each with the key made when its entry started, until the server has answered.
// The same code runs in the page and in the service worker (Background Sync), so it uses no DOM.
(function (root) {
  "use strict";

  var DB_NAME = "scorekeeper";
  var DB_VERSION = 1;
  var SEND_TIMEOUT_MS = 15000;
  var CHANNEL = "scorekeeper-outbox";

  // --- storage ------------------------------------------------------------------------------------

  var opened = null;
  function db() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = root.indexedDB.open(DB_NAME, DB_VERSION);
        request.onupgradeneeded = function () {
          var base = request.result;
          if (!base.objectStoreNames.contains("outbox")) {
            base.createObjectStore("outbox", { keyPath: "key" }).createIndex("game", "game");
          }
          if (!base.objectStoreNames.contains("meta")) { base.createObjectStore("meta", { keyPath: "name" }); }
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { opened = null; reject(request.error); };
      });
    }
    return opened;
  }

  // Run ``work(store)`` in one transaction; resolves with what ``work`` returned once it is committed.
  function inStore(name, mode, work) {
    return db().then(function (base) {
      return new Promise(function (resolve, reject) {
        var transaction = base.transaction(name, mode);
        var result;
        transaction.oncomplete = function () { resolve(result); };
        transaction.onerror = transaction.onabort = function () { reject(transaction.error); };
        var value = work(transaction.objectStore(name));
        if (value && "onsuccess" in value) {
          value.onsuccess = function () { result = value.result; };
        } else {
          result = value;
        }
      });
    });
  }

  function entries(game) {
    return inStore("outbox", "readonly", function (store) {
      return game === undefined ? store.getAll() : store.index("game").getAll(game);
    }).then(function (found) {
      return (found || []).sort(function (a, b) { return a.seq - b.seq; });
    });
  }

  function put(entry) { return inStore("outbox", "readwrite", function (store) { store.put(entry); }).then(changed); }
  function remove(key) { return inStore("outbox", "readwrite", function (store) { store.delete(key); }).then(changed); }
  function get(key) { return inStore("outbox", "readonly", function (store) { return store.get(key); }); }

  function setMeta(name, value) {
    return inStore("meta", "readwrite", function (store) { store.put({ name: name, value: value }); });
  }
  function getMeta(name) {
    return inStore("meta", "readonly", function (store) { return store.get(name); }).then(function (found) {
      return found ? found.value : undefined;
    });
  }

  // Tell every open page (and this one) that the outbox changed.
  var channel = typeof BroadcastChannel === "function" ? new BroadcastChannel(CHANNEL) : null;
  var listeners = [];
  function changed(detail) {
    var message = detail && detail.type ? detail : { type: "changed" };
    if (channel) { channel.postMessage(message); }
    listeners.forEach(function (listener) { listener(message); });
    return detail;
  }
  if (channel) {
    channel.onmessage = function (event) { listeners.forEach(function (listener) { listener(event.data); }); };
  }
  function listen(listener) { listeners.push(listener); }

  // --- keys -----------------------------------------------------------------------------------------

  // A new idempotency key for an entry. randomUUID needs a secure context; a phone on a plain-http
  // address in the club's own network still gets a random version-4 UUID.
  function newKey() {
    if (root.crypto && typeof root.crypto.randomUUID === "function") { return root.crypto.randomUUID(); }
    var bytes = new Uint8Array(16);
    root.crypto.getRandomValues(bytes);
    bytes[6] = (bytes[6] & 0x0f) | 0x40;
    bytes[8] = (bytes[8] & 0x3f) | 0x80;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 0x100).toString(16).slice(1); }).join("");
    return hex.slice(0, 8) + "-" + hex.slice(8, 12) + "-" + hex.slice(12, 16) + "-" + hex.slice(16, 20) + "-" + hex.slice(20);
  }

  // --- sending ------------------------------------------------------------------------------------

  function csrfToken() {
    if (typeof document !== "undefined") {
      var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
      if (match) { return Promise.resolve(decodeURIComponent(match[1])); }
    }
    return getMeta("csrf");  // the service worker cannot read cookies; the page keeps the token here
  }

  // One try at sending an entry: {status, body} or {network: true} when no answer came back.
  function send(entry, token) {
    var body = new URLSearchParams();
    entry.fields.forEach(function (pair) {
      if (pair[0] !== "idempotency_key" && pair[0] !== "expected_number" && pair[0] !== "csrfmiddlewaretoken") {
        body.append(pair[0], pair[1]);
      }
    });
    body.append("idempotency_key", entry.key);
    body.append("expected_number", String(entry.expected_number));
    var controller = typeof AbortController === "function" ? new AbortController() : null;
    var timer = controller ? setTimeout(function () { controller.abort(); }, SEND_TIMEOUT_MS) : null;
    return fetch(entry.url, {
      method: "POST", body: body, credentials: "same-origin", cache: "no-store", redirect: "manual",
      signal: controller ? controller.signal : undefined,
      headers: { "Accept": "application/json", "X-CSRFToken": token || "", "X-Requested-With": "outbox" },
    }).then(function (response) {
      clearTimeout(timer);
      if (response.type === "opaqueredirect") { return { status: 302, body: null }; }  // sent to sign in
      var type = response.headers.get("Content-Type") || "";
      var read = type.indexOf("application/json") >= 0 ? response.json()
        : response.text().then(function () { return null; });  // read to the end all the same
      return read.then(function (json) { return { status: response.status, body: json }; },
                       function () { return { status: response.status, body: null }; });
    }, function () {
      clearTimeout(timer);
      return { network: true };
    });
  }

  // What an answer means for the entry, in the words of the states the page shows.
  function outcome(answer) {
    if (answer.network || answer.status === 0 || answer.status >= 500) { return "retry"; }
    var code = answer.body && answer.body.code;
    if (answer.status === 200 || answer.status === 201) { return "recorded"; }
    if (answer.status === 409 && code === "hand_conflict") { return "review"; }
    if (answer.status === 401 || answer.status === 302 || code === "not_signed_in") { return "signin"; }
    // A 403 without our JSON is the CSRF check: the session or its token changed; signing in again fixes it.
    if (answer.status === 403 && !answer.body) { return "signin"; }
    return "refused";
  }

  var flushing = null;

  // Send every waiting entry, game by game, in the order they were entered, stopping a game's queue at
  // the first entry the server did not take. Only the signed-in scorekeeper's entries are sent: a hand
  // entered by someone else on this phone waits for them. Resolves with a summary:
  // {recorded: [...], stopped: [...], offline: bool}.
  function flush() {
    if (flushing) { return flushing; }
    var run = function () {
      return Promise.all([csrfToken(), getMeta("user")]).then(function (signedIn) {
        var token = signedIn[0], user = signedIn[1];
        return entries().then(function (all) {
          all = all.filter(function (entry) { return !user || !entry.user || entry.user === user; });
          var summary = { recorded: [], stopped: [], offline: false };
          var games = [];
          all.forEach(function (entry) { if (games.indexOf(entry.game) < 0) { games.push(entry.game); } });
          return games.reduce(function (previous, game) {
            return previous.then(function () {
              if (summary.offline) { return null; }
              return flushGame(all.filter(function (entry) { return entry.game === game; }), token, summary);
            });
          }, Promise.resolve()).then(function () { return summary; });
        });
      });
    };
    var locked = root.navigator && root.navigator.locks
      ? root.navigator.locks.request(CHANNEL, run)
      : run();
    flushing = locked.then(function (summary) { flushing = null; return summary; },
                           function (error) { flushing = null; throw error; });
    return flushing;
  }

  function flushGame(queue, token, summary) {
    var index = 0;
    function next() {
      var entry = queue[index++];
      if (!entry) { return null; }
      if (entry.state !== "waiting") { summary.stopped.push(entry); return null; }
      return send(entry, token).then(function (answer) {
        var what = outcome(answer);
        if (what === "retry") {
          summary.offline = !!answer.network;
          summary.stopped.push(entry);
          return null;
        }
        if (what === "recorded") {
          return remove(entry.key).then(function () {
            summary.recorded.push({ entry: entry, answer: answer.body });
            changed({ type: "recorded", game: entry.game, key: entry.key, number: answer.body.number,
                      answer: answer.body });
            return next();
          });
        }
        entry.state = what;
        entry.problem = answer.body || { detail: "the server refused this hand (" + answer.status + ")" };
        summary.stopped.push(entry);
        return put(entry).then(function () { return null; });
      });
    }
    return Promise.resolve().then(next);
  }

  root.ScorekeeperOutbox = {
    entries: entries, put: put, get: get, remove: remove, flush: flush, listen: listen, newKey: newKey,
    setMeta: setMeta, getMeta: getMeta, changed: changed,
  };
})(typeof self !== "undefined" ? self : this);
