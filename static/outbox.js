// Scorekeeper's outbox: hands entered at the table are kept on the phone (IndexedDB) first, then sent in
// order, one at a time, each with the key made when its entry started, until the server has answered.
// Confirmations and disputes of a hand by the other side (``kind: "check"``) are kept and sent the same
// way, in a queue of their own per game (``checksQueue``), so that a hand waiting for review never holds
// them back nor they a hand.
// The same module runs in the page and in the service worker (Background Sync), so it touches no page:
// what it needs of the page (who is signed in, the CSRF token) is kept in its own store.

const DB_NAME = "scorekeeper";
const DB_VERSION = 1;
const SEND_TIMEOUT_MS = 15000;
const CHANNEL = "scorekeeper-outbox";

// --- storage ---------------------------------------------------------------------------------------

let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = globalThis.indexedDB.open(DB_NAME, DB_VERSION);
      request.onupgradeneeded = () => {
        const base = request.result;
        if (!base.objectStoreNames.contains("outbox")) {
          base.createObjectStore("outbox", { keyPath: "key" }).createIndex("game", "game");
        }
        if (!base.objectStoreNames.contains("meta")) {
          base.createObjectStore("meta", { keyPath: "name" });
        }
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => {
        opened = null;
        reject(request.error);
      };
    });
  }
  return opened;
}

// Run ``work(store)`` in one transaction; resolves with what ``work`` returned once it is committed.
async function inStore(name, mode, work) {
  const base = await db();
  return new Promise((resolve, reject) => {
    const transaction = base.transaction(name, mode);
    let result;
    transaction.oncomplete = () => resolve(result);
    transaction.onerror = transaction.onabort = () => reject(transaction.error);
    const value = work(transaction.objectStore(name));
    if (value && "onsuccess" in value) {
      value.onsuccess = () => {
        result = value.result;
      };
    } else {
      result = value;
    }
  });
}

/** The entries kept on this phone (of one game, or all), in the order they were entered. */
export async function entries(game) {
  const found = await inStore("outbox", "readonly", (store) =>
    game === undefined ? store.getAll() : store.index("game").getAll(game));
  return (found || []).sort((one, other) => one.seq - other.seq);
}

export async function put(entry) {
  await inStore("outbox", "readwrite", (store) => {
    store.put(entry);
  });
  changed();
}

export async function remove(key) {
  await inStore("outbox", "readwrite", (store) => {
    store.delete(key);
  });
  changed();
}

export function get(key) {
  return inStore("outbox", "readonly", (store) => store.get(key));
}

export function setMeta(name, value) {
  return inStore("meta", "readwrite", (store) => {
    store.put({ name, value });
  });
}

export async function getMeta(name) {
  const found = await inStore("meta", "readonly", (store) => store.get(name));
  return found ? found.value : undefined;
}

// --- telling the pages -----------------------------------------------------------------------------

const listeners = [];
let channel = null;

function broadcast() {
  if (!channel && typeof BroadcastChannel === "function") {
    channel = new BroadcastChannel(CHANNEL);
    channel.onmessage = (event) => listeners.forEach((listener) => listener(event.data));
    // In Node (the unit tests) an open channel would keep the process alive.
    if (typeof channel.unref === "function") {
      channel.unref();
    }
  }
  return channel;
}

/** Tell every open page (and this one) that the outbox changed: ``{type: "changed"}`` unless said. */
export function changed(message = { type: "changed" }) {
  const open = broadcast();
  if (open) {
    open.postMessage(message);
  }
  listeners.forEach((listener) => listener(message));
}

/** Hear of every change to the outbox, made here, in another tab or by the service worker. */
export function listen(listener) {
  broadcast();
  listeners.push(listener);
}

// --- keys ------------------------------------------------------------------------------------------

/** A new idempotency key for an entry. randomUUID needs a secure context; a phone on a plain-http
 * address in the club's own network still gets a random version-4 UUID. */
export function newKey() {
  const crypto = globalThis.crypto;
  if (typeof crypto.randomUUID === "function") {
    return crypto.randomUUID();
  }
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => (byte + 0x100).toString(16).slice(1)).join("");
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
}

/** The outbox queue of a game's confirmations and disputes (``entry.game`` of a check entry). */
export function checksQueue(game) {
  return `${game}/checks`;
}

// --- sending ---------------------------------------------------------------------------------------

const NOT_SENT = new Set(["idempotency_key", "expected_number", "csrfmiddlewaretoken"]);

// One try at sending an entry: {status, body} or {network: true} when no answer came back.
async function send(entry, token) {
  const body = new URLSearchParams();
  entry.fields.filter(([name]) => !NOT_SENT.has(name)).forEach(([name, value]) => body.append(name, value));
  body.append("idempotency_key", entry.key);
  if (entry.kind !== "check") {
    body.append("expected_number", String(entry.expected_number));
  }
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), SEND_TIMEOUT_MS);
  let response;
  try {
    response = await fetch(entry.url, {
      method: "POST", body, credentials: "same-origin", cache: "no-store", redirect: "manual",
      signal: controller.signal,
      headers: { "Accept": "application/json", "X-CSRFToken": token || "", "X-Requested-With": "outbox" },
    });
  } catch {
    return { network: true };
  } finally {
    clearTimeout(timer);
  }
  if (response.type === "opaqueredirect") {
    return { status: 302, body: null };  // sent to sign in
  }
  const type = response.headers.get("Content-Type") || "";
  try {
    if (type.includes("application/json")) {
      return { status: response.status, body: await response.json() };
    }
    await response.text();  // read to the end all the same
  } catch {
    // an answer cut short: its status still says what happened
  }
  return { status: response.status, body: null };
}

/** What an answer means for the entry, in the words of the states the page shows. */
export function outcome(answer) {
  if (answer.network || answer.status === 0 || answer.status >= 500) {
    return "retry";
  }
  const code = answer.body && answer.body.code;
  if (answer.status === 200 || answer.status === 201) {
    return "recorded";
  }
  if (answer.status === 409 && code === "hand_conflict") {
    return "review";
  }
  if (answer.status === 401 || answer.status === 302 || code === "not_signed_in") {
    return "signin";
  }
  // A 403 without our JSON is the CSRF check: the session or its token changed; signing in again fixes it.
  if (answer.status === 403 && !answer.body) {
    return "signin";
  }
  return "refused";
}

async function flushGame(queue, token, summary) {
  for (const entry of queue) {
    if (entry.state !== "waiting") {
      summary.stopped.push(entry);
      return;
    }
    const answer = await send(entry, token);
    const what = outcome(answer);
    if (what === "retry") {
      summary.offline = Boolean(answer.network);
      summary.stopped.push(entry);
      return;
    }
    if (entry.kind === "check" && what !== "recorded" && what !== "signin") {
      // A confirmation or dispute refused (the hand changed since, or this phone's seat may not) is
      // final: it leaves the queue, and the page shows the hand as the server has it.
      await remove(entry.key);
      summary.refused.push({ entry, answer });
      changed({ type: "check-refused", game: entry.game, key: entry.key, number: entry.number,
                answer: answer.body });
      continue;
    }
    if (what !== "recorded") {
      entry.state = what;
      entry.problem = answer.body || { detail: `the server refused this hand (${answer.status})` };
      summary.stopped.push(entry);
      await put(entry);
      return;
    }
    await remove(entry.key);
    summary.recorded.push({ entry, answer: answer.body });
    changed({ type: entry.kind === "check" ? "checked" : "recorded", game: entry.game, key: entry.key,
              number: answer.body.number, answer: answer.body });
  }
}

async function flushAll(csrf) {
  const [token, user] = await Promise.all([csrf === undefined ? getMeta("csrf") : csrf, getMeta("user")]);
  const all = (await entries()).filter((entry) => !user || !entry.user || entry.user === user);
  const summary = { recorded: [], stopped: [], refused: [], offline: false };
  const games = [...new Set(all.map((entry) => entry.game))];
  for (const game of games) {
    if (summary.offline) {
      break;
    }
    await flushGame(all.filter((entry) => entry.game === game), token, summary);
  }
  return summary;
}

let flushing = null;

/**
 * Send every waiting entry, game by game, in the order they were entered, stopping a game's queue at
 * the first entry the server did not take. Only the signed-in scorekeeper's entries are sent: a hand
 * entered by someone else on this phone waits for them. One flush at a time, across the page and the
 * service worker where the browser has Web Locks. ``csrf``: the page's token (the service worker
 * cannot read cookies and uses the one the page kept). Resolves with a summary:
 * {recorded: [{entry, answer}], stopped: [entry], refused: [{entry, answer}] (confirmations and disputes
 * the server refused: they have left the outbox), offline: bool}.
 */
export function flush({ csrf } = {}) {
  if (!flushing) {
    const locks = globalThis.navigator && globalThis.navigator.locks;
    const run = () => flushAll(csrf);
    flushing = (locks ? locks.request(CHANNEL, run) : run()).finally(() => {
      flushing = null;
    });
  }
  return flushing;
}
