// The table page at a real table: each hand entry is kept on the phone first (the outbox) and sent from
// there, so a dropped connection, a lost answer, Back or a reload never loses or doubles a hand. The
// entry fits one phone screen: games that enter a hand in steps (Spades: bids, then tricks) show one
// step at a time, and a group of numbers with a known sum (Spades' tricks) fills in its last one.
(function () {
  "use strict";

  var Outbox = window.ScorekeeperOutbox;
  var RETRY_EVERY_MS = 20000;
  var facts, form, statusLine, draftKey, editing = null, knownCount;
  // Hands of this game recorded by another page or by the service worker, not yet shown here.
  var recordedElsewhere = [];
  var recordedFromHere = {};

  function $(selector, within) { return (within || document).querySelector(selector); }
  function $all(selector, within) { return Array.prototype.slice.call((within || document).querySelectorAll(selector)); }
  function text(tag, className, content) {
    var element = document.createElement(tag);
    if (className) { element.className = className; }
    if (content !== undefined) { element.textContent = content; }
    return element;
  }

  // --- what the page knows --------------------------------------------------------------------------

  function readFacts() {
    var data = $("#table-facts");
    facts = data ? JSON.parse(data.textContent) : null;
    if (facts) { knownCount = Math.max(knownCount || 0, facts.handCount); }
  }

  function csrfCookie() {
    var match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
    return match ? decodeURIComponent(match[1]) : "";
  }

  function mine(entries) {
    return entries.filter(function (entry) { return entry.game === facts.game; });
  }

  // The seat dealing the hand that comes ``ahead`` hands after the next one on the server.
  function dealerAfter(ahead) {
    var seats = facts.seats;
    return seats[(seats.indexOf(facts.nextDealer) + ahead) % seats.length];
  }

  // --- the entry form ---------------------------------------------------------------------------------

  function fieldsOf() {
    var pairs = [];
    new FormData(form).forEach(function (value, name) {
      if (name !== "csrfmiddlewaretoken") { pairs.push([name, String(value)]); }
    });
    return pairs;
  }

  function chosen() {
    return fieldsOf().filter(function (pair) {
      return pair[0] !== "idempotency_key" && pair[0] !== "expected_number" && pair[1] !== "";
    });
  }

  // The entry in words, for a hand waiting on the phone: each question and the answer chosen.
  function choicesInWords() {
    var lines = [];
    $all("fieldset.chips", form).forEach(function (fieldset) {
      var picked = $("input:checked", fieldset);
      if (!picked) { return; }
      var legend = fieldset.querySelector("legend");
      var question = legend ? legend.childNodes[0].textContent.trim() : fieldset.dataset.field;
      lines.push(question + ": " + picked.parentNode.textContent.trim());
    });
    $all(".field.check input:checked", form).forEach(function (box) {
      lines.push(box.closest("label").textContent.trim());
    });
    var note = $("[name=note]", form);
    if (note && note.value.trim()) { lines.push("Note: " + note.value.trim()); }
    return lines;
  }

  function setEntryNumber(number, dealer) {
    $all("[data-next-number]").forEach(function (span) { span.textContent = String(number); });
    $all("button[data-record]").forEach(function (record) { record.textContent = "Record hand " + number; });
    $all("[data-next-dealer]").forEach(function (span) { span.textContent = facts.names[dealer] || dealer; });
    var expected = $("[name=expected_number]", form);
    if (expected) { expected.value = String(number); }
  }

  function clearForm() {
    $all("input[type=radio], input[type=checkbox]", form).forEach(function (input) { input.checked = false; });
    $all("input[type=text], textarea", form).forEach(function (input) { input.value = ""; });
    // Radio groups with a default (e.g. "not doubled") take it again.
    $all("input[data-default]", form).forEach(function (input) { input.checked = true; });
  }

  function saveDraft() {
    if (!form || editing) { return; }
    var draft = { key: $("[name=idempotency_key]", form).value, step: currentStep(), fields: chosen(),
                  expected: Number($("[name=expected_number]", form).value) };
    try { localStorage.setItem(draftKey, JSON.stringify(draft)); } catch (error) { /* private mode: no drafts */ }
  }

  function loadDraft() {
    try { return JSON.parse(localStorage.getItem(draftKey) || "null"); } catch (error) { return null; }
  }

  function forgetDraft() {
    try { localStorage.removeItem(draftKey); } catch (error) { /* nothing kept */ }
  }

  function fill(pairs) {
    pairs.forEach(function (pair) {
      $all("[name='" + pair[0] + "']", form).forEach(function (input) {
        if (input.type === "radio" || input.type === "checkbox") {
          input.checked = input.value === pair[1] || (input.type === "checkbox" && pair[1] === "on");
        } else if (input.type !== "hidden") {
          input.value = pair[1];
        }
      });
    });
  }

  // A new entry: blank (or the draft kept for this hand), with its own key.
  function startEntry(expected, dealer) {
    clearForm();
    clearErrors();
    var draft = loadDraft();
    var key = Outbox.newKey();
    if (draft && draft.expected === expected) {
      fill(draft.fields);
      key = draft.key || key;
    }
    $("[name=idempotency_key]", form).value = key;
    setEntryNumber(expected, dealer);
    showStep(draft && draft.expected === expected ? draft.step : null);
    updateSums();
    saveDraft();
  }

  // --- steps (Spades: bids when they are made, tricks at the end) -----------------------------------

  function steps() { return $all("[data-step]", form); }

  function currentStep() {
    var shown = steps().filter(function (step) { return !step.hidden; });
    return shown.length === 1 ? shown[0].dataset.step : null;
  }

  function stepComplete(step) {
    return $all("fieldset.chips", step).every(function (fieldset) { return $("input:checked", fieldset); });
  }

  function showStep(name) {
    var all = steps();
    if (!all.length) { return; }
    if (!name || !all.some(function (step) { return step.dataset.step === name; })) {
      var open = all.filter(function (step) { return !stepComplete(step); })[0];
      name = (open || all[all.length - 1]).dataset.step;
    }
    var index = all.map(function (step) { return step.dataset.step; }).indexOf(name);
    all.forEach(function (step, at) { step.hidden = at !== index; });
    var record = $(".record-bar button[type=submit]", form);
    var next = $(".record-bar .step-next", form);
    var back = $(".record-bar .step-back", form);
    var last = index === all.length - 1;
    if (record) { record.hidden = !last; }
    if (next) {
      next.hidden = last;
      next.textContent = last ? "" : "Next: " + (all[index].dataset.stepNext || all[index + 1].dataset.step);
      next.disabled = !stepComplete(all[index]);
    }
    if (back) { back.hidden = index === 0; }
    $all(".step-summary", form).forEach(function (summary) { summary.remove(); });
    all.slice(0, index).forEach(function (step) {
      var summary = text("p", "step-summary muted");
      var words = $all("fieldset.chips", step).map(function (fieldset) {
        var picked = $("input:checked", fieldset);
        var seat = (fieldset.querySelector("legend").childNodes[0].textContent || "").split(" ").slice(0, 3).join(" ");
        return picked ? seat + " " + picked.parentNode.textContent.trim() : "";
      }).filter(Boolean);
      summary.textContent = words.join(" · ");
      var change = text("button", "", "Change");
      change.type = "button";
      change.addEventListener("click", function () { showStep(step.dataset.step); saveDraft(); });
      summary.appendChild(change);
      all[index].parentNode.insertBefore(summary, all[index]);
    });
  }

  function setUpSteps() {
    if (!steps().length) { return; }
    var bar = $(".record-bar", form);
    var back = text("button", "step-back", "Back");
    back.type = "button";
    back.addEventListener("click", function () {
      var all = steps();
      var index = all.map(function (step) { return step.dataset.step; }).indexOf(currentStep());
      showStep(all[Math.max(0, index - 1)].dataset.step);
      saveDraft();
    });
    var next = text("button", "step-next primary big");
    next.type = "button";
    next.addEventListener("click", function () {
      var all = steps();
      var index = all.map(function (step) { return step.dataset.step; }).indexOf(currentStep());
      showStep(all[Math.min(all.length - 1, index + 1)].dataset.step);
      saveDraft();
      window.scrollTo(0, 0);
    });
    bar.insertBefore(back, bar.firstChild);
    bar.appendChild(next);
  }

  function updateSums() { window.Scorekeeper.updateSums(form); }

  // --- errors on the form (a hand refused while the scorekeeper is still at it) ----------------------

  function clearErrors() {
    $all(".js-error", form).forEach(function (error) { error.remove(); });
    $all(".invalid", form).forEach(function (element) { element.classList.remove("invalid"); });
  }

  function showErrors(problem) {
    clearErrors();
    var first = null;
    Object.keys(problem.errors || {}).forEach(function (name) {
      var holder = $("[data-field='" + name + "']", form) || ($("[name='" + name + "']", form) || {}).parentNode;
      if (!holder) { problem.non_field_errors = (problem.non_field_errors || []).concat(problem.errors[name]); return; }
      holder.classList.add("invalid");
      var at = holder.querySelector("legend") || holder;
      problem.errors[name].forEach(function (message) { at.appendChild(text("span", "field-error js-error", message)); });
      first = first || holder;
    });
    Object.keys(problem.groups || {}).forEach(function (name) {
      var group = $("#group-" + name, form);
      if (!group) { return; }
      group.classList.add("invalid");
      var heading = group.querySelector("h3");
      problem.groups[name].forEach(function (message) {
        var line = text("p", "field-error js-error", message);
        line.setAttribute("role", "alert");
        heading.parentNode.insertBefore(line, heading.nextSibling);
      });
      if (!first) { first = group; }
    });
    var general = problem.non_field_errors || [];
    if (!first && !general.length) { general = [problem.detail || "This hand was refused."]; }
    if (general.length) {
      var box = text("div", "form-errors js-error");
      box.setAttribute("role", "alert");
      general.forEach(function (message) { box.appendChild(text("p", "", message)); });
      form.insertBefore(box, form.firstChild);
      first = first || box;
    }
    var step = first.closest("[data-step]");
    if (step) { showStep(step.dataset.step); }
    first.scrollIntoView({ block: "center" });
    var focusable = $("input", first);
    if (focusable) { focusable.focus({ preventScroll: true }); }
  }

  // --- the status line and the hands waiting on this phone -------------------------------------------

  function say(message, kind) {
    statusLine.hidden = !message;
    statusLine.className = "outbox-status" + (kind ? " " + kind : "");
    statusLine.textContent = message || "";
    return statusLine;
  }

  // What the kept cards show: drawn again only when it changes, so that a card (and the button under the
  // scorekeeper's thumb) is not replaced by an identical one when several sends end one after another.
  var shownWaiting = null;
  function renderWaiting(entries) {
    var list = $("#hands");
    var shown = JSON.stringify(entries.map(function (entry) {
      return [entry.key, entry.state, entry.expected_number, entry.user, entry.summary, entry.problem];
    }));
    if (list && shown === shownWaiting && $all(".hand.kept", list).length === entries.length) { return; }
    shownWaiting = shown;
    $all(".hand.kept", list || document).forEach(function (card) { card.remove(); });
    var none = $("[data-no-hands]");
    if (none) { none.hidden = entries.length > 0; }
    if (!list) { return; }
    entries.slice().reverse().forEach(function (entry) {
      var state = entry.state === "review" ? "review" : entry.state === "refused" ? "refused" : "waiting";
      var card = text("li", "hand kept " + state);
      card.dataset.key = entry.key;
      var head = text("div", "hand-head");
      head.appendChild(text("b", "", "Hand " + entry.expected_number));
      head.appendChild(text("span", "state", {
        waiting: "waiting — not yet scored", review: "needs review", refused: "refused — not scored",
      }[state] || ""));
      if (entry.user && facts.user && entry.user !== facts.user) {
        card.appendChild(text("p", "problem", "Entered by " + entry.user + ": sent when " + entry.user +
                                              " signs in on this phone."));
      }
      card.appendChild(head);
      var choices = text("ul", "choices");
      (entry.summary || []).forEach(function (line) { choices.appendChild(text("li", "", line)); });
      card.appendChild(choices);
      if (state === "review") { card.appendChild(reviewPanel(entry)); }
      if (state === "refused") { card.appendChild(refusedPanel(entry)); }
      list.insertBefore(card, list.firstChild);
    });
  }

  function button(label, action, className) {
    var element = text("button", className || "", label);
    element.type = "button";
    element.addEventListener("click", action);
    return element;
  }

  function reviewPanel(entry) {
    var panel = text("div", "problem");
    var state = (entry.problem && entry.problem.state) || {};
    var totals = Object.keys(state.totals || {}).map(function (side) { return side + " " + state.totals[side]; }).join(", ");
    panel.appendChild(text("p", "", "Another phone recorded hand " + (state.hand_count || "") +
      " first. The game as the server has it: " + (state.hand_count || 0) + " hand" +
      (state.hand_count === 1 ? "" : "s") + (totals ? ", " + totals : "") +
      ". Send this entry as the next hand, or drop it if it is the same hand."));
    var actions = text("div", "actions");
    actions.appendChild(button("Send as hand " + ((state.hand_count || 0) + 1), function () {
      sendAsNext(entry, state);
    }, "primary"));
    actions.appendChild(button("Drop this hand", function () { drop(entry); }));
    panel.appendChild(actions);
    return panel;
  }

  function refusedPanel(entry) {
    var panel = text("div", "problem");
    var problem = entry.problem || {};
    var messages = [].concat(problem.non_field_errors || []);
    Object.keys(problem.groups || {}).forEach(function (name) { messages = messages.concat(problem.groups[name]); });
    Object.keys(problem.errors || {}).forEach(function (name) { messages = messages.concat(problem.errors[name]); });
    if (!messages.length) { messages = [problem.detail || "The server refused this hand."]; }
    messages.forEach(function (message) { panel.appendChild(text("p", "field-error", message)); });
    var actions = text("div", "actions");
    if (problem.code !== "not_allowed" && problem.code !== "not_found") {
      actions.appendChild(button("Fix it", function () { edit(entry); }, "primary"));
    }
    actions.appendChild(button("Drop this hand", function () { drop(entry); }));
    panel.appendChild(actions);
    return panel;
  }

  // --- what the scorekeeper decides about a hand that was not taken -----------------------------------

  function renumber() {
    return Outbox.entries(facts.game).then(function (entries) {
      var at = knownCount;
      return Promise.all(entries.map(function (entry) {
        at += 1;
        if (entry.expected_number === at) { return null; }
        entry.expected_number = at;
        return Outbox.put(entry);
      }));
    });
  }

  function sendAsNext(entry, state) {
    knownCount = Math.max(knownCount, state.hand_count || 0);
    if (state.next_dealer) { facts.nextDealer = state.next_dealer; }
    entry.state = "waiting";
    entry.problem = null;
    return Outbox.put(entry).then(renumber).then(function () { return sendWaiting(); });
  }

  function drop(entry) {
    if (!window.confirm("Drop hand " + entry.expected_number + "? It was not scored, and it will be gone from this phone.")) {
      return Promise.resolve();
    }
    return Outbox.remove(entry.key).then(renumber).then(sendWaiting);
  }

  function edit(entry) {
    editing = entry;
    clearForm();
    fill(entry.fields);
    $("[name=idempotency_key]", form).value = entry.key;
    setEntryNumber(entry.expected_number, dealerAfter(entry.expected_number - knownCount - 1));
    showStep(steps().length ? steps()[steps().length - 1].dataset.step : null);
    updateSums();
    showErrors(entry.problem || {});
    say("Fix hand " + entry.expected_number + ", then record it again: it is sent before the hands after it.", "problem");
  }

  // --- recording ------------------------------------------------------------------------------------

  function entryFromForm(expected) {
    return {
      key: $("[name=idempotency_key]", form).value || Outbox.newKey(),
      game: facts.game, url: form.action, fields: fieldsOf(), expected_number: expected,
      summary: choicesInWords(), user: facts.user, state: "waiting", problem: null,
      seq: Date.now() + Math.random(), created_at: new Date().toISOString(),
    };
  }

  function onSubmit(event) {
    event.preventDefault();
    if (form.dataset.busy) { return; }  // a double tap sends the entry once
    form.dataset.busy = "1";
    var keeping = editing
      ? Promise.resolve(Object.assign({}, editing, { fields: fieldsOf(), summary: choicesInWords(), state: "waiting",
                                                    problem: null, key: Outbox.newKey() }))
      : Outbox.entries(facts.game).then(function (entries) { return entryFromForm(knownCount + entries.length + 1); });
    keeping.then(function (entry) {
      var replaced = editing ? Outbox.remove(editing.key) : Promise.resolve();
      return replaced.then(function () { return Outbox.put(entry); }).then(function () { return entry; });
    }).then(function (entry) {
      // Kept on the phone: the form is free for the next hand whatever the network does now.
      var wasEditing = !!editing;
      editing = null;
      forgetDraft();
      return Outbox.entries(facts.game).then(function (entries) {
        startEntry(knownCount + entries.length + 1, dealerAfter(entries.length));
        renderWaiting(entries);
        say("Hand " + entry.expected_number + " is kept on this phone; sending…", "waiting");
        return sendWaiting({ just: entry, wasEditing: wasEditing });
      });
    }).catch(function (error) {
      say("This phone could not keep the hand (" + error + "). Record it again.", "problem");
    }).then(function () {
      delete form.dataset.busy;
    });
  }

  function registerSync() {
    if (!navigator.serviceWorker || !navigator.serviceWorker.ready) { return; }
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.sync) { return registration.sync.register("outbox"); }
    }).catch(function () { /* no Background Sync (Safari, Firefox): the page's own retries cover it */ });
  }

  // After a send that got no answer: try again soon, then less and less often (the interval, the
  // ``online`` event and coming back to the page also try).
  var retryDelay = 0, retryTimer = null;
  function retrySoon(offline) {
    if (!offline) { retryDelay = 0; return; }
    retryDelay = Math.min(retryDelay ? retryDelay * 2 : 2000, 30000);
    clearTimeout(retryTimer);
    retryTimer = setTimeout(function () { sendWaiting(); }, retryDelay);
  }

  var sending = false, sendAgain = null;
  function sendWaiting(context) {
    if (!facts) { return Promise.resolve(); }
    if (sending) {
      // Entered while another send was under way: sent as soon as that one is done.
      sendAgain = context || sendAgain || {};
      return Promise.resolve();
    }
    sending = true;
    Outbox.setMeta("csrf", csrfCookie());
    return Outbox.entries().then(function (all) {
      // Hands stopped because the session had ended are tried again: this page says who is signed in now.
      return Promise.all(all.filter(function (entry) { return entry.state === "signin" && facts.user; })
        .map(function (entry) { entry.state = "waiting"; return Outbox.put(entry); }));
    }).then(function () { return Outbox.flush(); }).then(function (summary) {
      summary.recorded.forEach(function (item) { recordedFromHere[item.entry.key] = true; });
      sending = false;
      return afterSending(summary, context || {});
    }, function (error) {
      sending = false;
      say("Could not send the waiting hands (" + error + "); they stay on this phone.", "problem");
    }).then(function () {
      var next = sendAgain;
      sendAgain = null;
      if (next) { return sendWaiting(next); }
    });
  }

  function afterSending(summary, context) {
    var seen = {};
    var recorded = summary.recorded.filter(function (item) { return item.entry.game === facts.game; })
      .concat(recordedElsewhere.splice(0))
      .filter(function (item) { return !seen[item.entry.key] && (seen[item.entry.key] = true); });
    // No connection: let the service worker send them when it is back, even with this page closed.
    if (summary.offline) { registerSync(); }
    retrySoon(summary.offline || summary.stopped.some(function (entry) { return entry.state === "waiting"; }));
    // What the server now has, even if the page cannot be fetched again right away.
    recorded.forEach(function (item) {
      knownCount = Math.max(knownCount, item.answer.number);
      if (item.answer.game && item.answer.game.next_dealer) { facts.nextDealer = item.answer.game.next_dealer; }
    });
    var just = context.just;
    var justRefused = just && !context.wasEditing && summary.stopped.some(function (entry) {
      return entry.key === just.key && entry.state === "refused";
    });
    var conflict = summary.stopped.some(function (entry) { return entry.game === facts.game && entry.state === "review"; });
    // Something new on the server (ours, or another phone's hand): show the game as it now stands.
    var refreshing = recorded.length || conflict ? refresh() : Promise.resolve();
    return refreshing.then(function () {
      if (justRefused) {
        // Refused while the scorekeeper is still here: back into the form to be fixed now.
        return Outbox.remove(just.key).then(function () {
          editing = null;
          clearForm();
          fill(just.fields);
          return Outbox.entries(facts.game).then(function (entries) {
            $("[name=idempotency_key]", form).value = Outbox.newKey();
            setEntryNumber(knownCount + entries.length + 1, dealerAfter(entries.length));
            updateSums();
            renderWaiting(entries);
            showErrors(just.problem || (summary.stopped.filter(function (e) { return e.key === just.key; })[0] || {}).problem || {});
            saveDraft();  // kept on the phone while it is being fixed
            say("Hand " + just.expected_number + " was not recorded: fix what is marked, then record it again.", "problem");
          });
        });
      }
      return Outbox.entries(facts.game).then(function (entries) {
        renderWaiting(entries);
        describeQueue(entries, recorded, summary);
        if (form && !editing) {
          setEntryNumber(knownCount + entries.length + 1, dealerAfter(entries.length));
          saveDraft();
        }
      });
    });
  }

  function describeQueue(entries, recorded, summary) {
    var signin = entries.filter(function (entry) { return entry.state === "signin"; });
    var stuck = entries.filter(function (entry) { return entry.state === "review" || entry.state === "refused"; });
    var last = recorded[recorded.length - 1];
    if (signin.length) {
      var line = say("Your session has ended. Sign in again to send " + entries.length + " hand" +
                     (entries.length === 1 ? "" : "s") + " kept on this phone. ", "problem");
      var link = text("a", "", "Sign in");
      link.href = "/accounts/login/?next=" + encodeURIComponent(location.pathname);
      line.appendChild(link);
    } else if (stuck.length) {
      say("Hand " + stuck[0].expected_number + " needs you: see it below. The hands after it wait.", "problem");
    } else if (entries.length) {
      var waiting = say(entries.length + " hand" + (entries.length === 1 ? "" : "s") +
        " kept on this phone, not yet scored: " + (summary.offline || navigator.onLine === false
          ? "they are sent as soon as the connection is back. " : "sending again shortly. "), "waiting");
      waiting.appendChild(button("Send now", function () { sendWaiting(); }));
    } else if (last) {
      var delta = (last.answer.game && last.answer.game.delta) || {};
      // In the scoreboard's order: a stored answer's keys may come back in any order.
      var order = $all("[data-side]").map(function (side) { return side.dataset.side; });
      var changes = Object.keys(delta).sort(function (one, other) {
        return order.indexOf(one) - order.indexOf(other);
      }).map(function (side) {
        return side + " " + (delta[side] > 0 ? "+" : "") + String(delta[side]).replace("-", "−");
      }).join(", ");
      say("✓ Hand " + last.answer.number + " recorded" + (changes ? ": " + changes : "") + ".", "");
      if (!recorded.some(function (item) { return item.answer && item.answer.replayed; })) { window.scrollTo(0, 0); }
    }
  }

  // --- the page as the server has it now ------------------------------------------------------------

  // Swap in the server's current scoreboard and history (and the entry, when nothing is being entered).
  function refresh() {
    return fetch(location.pathname, { credentials: "same-origin", cache: "no-store", headers: { Accept: "text/html" } })
      .then(function (response) {
        if (!response.ok) { throw new Error(String(response.status)); }
        return response.text();
      }).then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        $all("[data-region][id]").forEach(function (region) {
          if (region.id === "entry" && (editing || chosen().length)) { return; }
          var replacement = fresh.getElementById(region.id);
          if (replacement) {
            region.replaceWith(document.importNode(replacement, true));
          } else if (region.id === "entry") {
            region.remove();
          }
        });
        var data = fresh.getElementById("table-facts");
        if (data) { $("#table-facts").textContent = data.textContent; }
        readFacts();
        bindForm();
      }).catch(function () { /* offline again: the page stays as it is, the hands are safe */ });
  }

  // --- wiring ---------------------------------------------------------------------------------------

  function bindForm() {
    var found = $("form[data-outbox]");
    if (found === form) { return; }
    form = found;
    if (!form) { return; }
    form.addEventListener("submit", onSubmit);
    form.addEventListener("change", function () {
      var step = currentStep() && $("[data-step='" + currentStep() + "']", form);
      var next = $(".record-bar .step-next", form);
      if (next && step) { next.disabled = !stepComplete(step); }
      saveDraft();
    });
    form.addEventListener("input", saveDraft);
    $all("input[type=radio]:checked", form).forEach(function (input) { input.dataset.default = "1"; });
    setUpSteps();
    Outbox.entries(facts.game).then(function (entries) {
      startEntry(knownCount + entries.length + 1, dealerAfter(entries.length));
    });
  }

  function start() {
    readFacts();
    if (!facts || !Outbox || !window.indexedDB) { return; }  // without them, the form posts as it always did
    statusLine = $("#outbox-status");
    draftKey = "scorekeeper:draft:" + facts.game;
    var serverForm = $("form[data-outbox]");
    // A form shown again with errors from the server (no script ran when it was sent) keeps what it shows.
    var serverErrors = serverForm && $(".field-error, .form-errors", serverForm);
    if (serverErrors) { forgetDraft(); }
    if (!serverErrors) { bindForm(); } else {
      form = serverForm;
      form.addEventListener("submit", onSubmit);
    }
    Outbox.setMeta("csrf", csrfCookie());
    Outbox.setMeta("user", facts.user);
    Outbox.listen(function (message) {
      if (message.type === "recorded" && message.game === facts.game) {
        // Sent by the service worker or another tab: shown once whoever is sending here is done.
        if (!recordedFromHere[message.key]) {
          recordedElsewhere.push({ entry: { game: message.game, key: message.key }, answer: message.answer });
          if (!sending) { afterSending({ recorded: [], stopped: [], offline: false }, {}); }
        }
      } else if (message.type === "changed" && !sending) {
        Outbox.entries(facts.game).then(renderWaiting);
      }
    });
    Outbox.entries(facts.game).then(function (entries) {
      renderWaiting(entries);
      if (entries.length) { describeQueue(entries, [], { offline: navigator.onLine === false }); }
    });
    window.addEventListener("online", function () { sendWaiting(); });
    document.addEventListener("visibilitychange", function () {
      if (document.visibilityState === "visible") { sendWaiting(); }
    });
    setInterval(function () {
      Outbox.entries().then(function (all) {
        if (all.some(function (entry) { return entry.state === "waiting"; })) { sendWaiting(); }
      });
    }, RETRY_EVERY_MS);
    // Shown again from the browser's page cache (Back): take the page as it is now, never as it was.
    window.addEventListener("pageshow", function (event) { if (event.persisted) { location.reload(); } });
    sendWaiting();
    probeConnection();
  }

  // A page opened from the phone's copy says so, even when the phone believes it is online (a Wi-Fi with
  // no way out): it is the game as it was when the copy was made.
  function probeConnection() {
    var banner = $("#connection");
    if (!banner || navigator.onLine === false) { return; }
    fetch("/healthz", { cache: "no-store", credentials: "same-origin" }).then(function (response) {
      return response.text();  // read to the end, so that the request is over
    }).catch(function () {
      var when = new Date(facts.renderedAt);
      banner.hidden = false;
      banner.textContent = "No connection: this is the game as it was at " +
        when.toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" }) +
        ". Hands you record stay on this phone and are sent when the connection is back.";
    });
  }

  document.addEventListener("DOMContentLoaded", start);
})();
