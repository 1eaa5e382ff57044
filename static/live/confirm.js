// Confirming a hand from a player's own phone (or the scorekeeper's, handed across). The Confirm button is a
// plain form; this script sends it in the background, and when the phone is offline keeps it on the phone
// and sends it once the phone is back online, like the scorekeeper's hands. Sending it twice does no harm
// (the server answers a second confirmation with the first), but it is sent once: an entry leaves the queue
// as soon as the server has answered it, and one sending runs at a time.

const KEY = "scorekeeper.confirmations";

/** The queue of confirmations not yet sent, kept in ``storage`` (localStorage, or a stand-in in tests). */
export function confirmationQueue(storage) {
  const read = () => {
    try {
      return JSON.parse(storage.getItem(KEY) || "[]");
    } catch {
      return [];
    }
  };
  const write = (items) => storage.setItem(KEY, JSON.stringify(items));
  return {
    items: read,
    add(item) {
      const items = read().filter((kept) => kept.url !== item.url || kept.action !== item.action);
      items.push(item);
      write(items);
    },
    remove(url, action) {
      write(read().filter((kept) => kept.url !== url || kept.action !== action));
    },
  };
}

/**
 * Send every queued confirmation, oldest first, with ``send(item)`` (a promise of the HTTP status, rejected
 * when the network fails). An answered one leaves the queue, whatever the answer (a refusal is final: the
 * page shows the hand as the server has it); one the network did not carry stays for the next time.
 * Returns the items answered, with their status.
 */
export async function sendQueued(queue, send) {
  const answered = [];
  for (const item of queue.items()) {
    let status;
    try {
      status = await send(item);
    } catch {
      break; // still offline: the rest wait too
    }
    queue.remove(item.url, item.action);
    answered.push({ ...item, status });
  }
  return answered;
}

function post(item) {
  const body = new URLSearchParams(item.fields);
  return fetch(item.url, {
    method: "POST", body, credentials: "same-origin",
    headers: { Accept: "application/json", "X-CSRFToken": item.fields.csrfmiddlewaretoken || "" },
  }).then((response) => response.status);
}

function say(text) {
  const status = document.querySelector("[data-confirm-status]");
  if (status) {
    status.textContent = text;
    status.hidden = false;
  }
}

function start() {
  const queue = confirmationQueue(window.localStorage);
  let sending = null;
  const flush = () => {
    if (sending || !queue.items().length) {
      return sending;
    }
    sending = sendQueued(queue, post).then((answered) => {
      for (const item of answered) {
        say(item.status < 400 ? `Hand ${item.number}: your confirmation has been sent.`
          : `Hand ${item.number}: your confirmation was refused; the hand shows why.`);
      }
    }).finally(() => {
      sending = null;
    });
    return sending;
  };
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (!(form instanceof HTMLFormElement) || !form.matches("[data-confirm-form]")) {
      return;
    }
    event.preventDefault();
    const fields = Object.fromEntries(new FormData(form, event.submitter));
    const number = form.dataset.number || "";
    // (Not form.action: the form has a field named "action", which that property would return.)
    queue.add({ url: form.getAttribute("action"), action: fields.action, fields, number });
    for (const button of form.querySelectorAll("button")) {
      button.disabled = true;
    }
    say(navigator.onLine ? `Hand ${number}: sending your confirmation…`
      : `Hand ${number}: your confirmation is kept on this phone and sent when it is back online.`);
    if (navigator.onLine) {
      flush()?.then(() => {
        if (queue.items().length) {
          say(`Hand ${number}: your confirmation is kept on this phone and sent when it is back online.`);
        }
      });
    }
  });
  window.addEventListener("online", flush);
  window.setInterval(() => navigator.onLine && flush(), 5000);
  flush();
}

if (typeof document !== "undefined" && typeof window !== "undefined" && window.localStorage) {
  start();
}
