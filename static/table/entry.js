// The entry of the next hand: what the scorekeeper has chosen, the hand's number and dealer, and the
// draft kept on the phone while the hand is played (a reload or a locked screen loses nothing).

import { $, $all, pickedWords, question } from "./dom.js";
import { clearErrors } from "./errors.js";
import { currentStep, showStep } from "./steps.js";
import { filledFields, markFilled, updateSums } from "./sums.js";

/** The form's fields as [name, value] pairs, without the CSRF token. */
export function fieldsOf(form) {
  return Array.from(new FormData(form)).filter(([name]) => name !== "csrfmiddlewaretoken")
    .map(([name, value]) => [name, String(value)]);
}

/** What the scorekeeper has chosen so far (the fields they fill in, not the entry's own). */
export function chosen(form) {
  return fieldsOf(form).filter(([name, value]) =>
    name !== "idempotency_key" && name !== "expected_number" && value !== "");
}

/** The entry in words, for a hand waiting on the phone: each question and the answer chosen. */
export function choicesInWords(form) {
  const lines = $all("fieldset.chips", form).filter((fieldset) => $("input:checked", fieldset))
    .map((fieldset) => `${question(fieldset)}: ${pickedWords(fieldset)}`);
  $all(".field.check input:checked", form).forEach((box) => lines.push(box.closest("label").textContent.trim()));
  const note = $("[name=note]", form);
  if (note && note.value.trim()) {
    lines.push(`Note: ${note.value.trim()}`);
  }
  return lines;
}

/** Whether the scorekeeper has begun this entry: a choice or a word that is not the form's default. */
export function touched(form) {
  return $all("input[type=radio], input[type=checkbox]", form)
    .some((input) => input.checked !== ("default" in input.dataset)) ||
    $all("input[type=text], textarea", form).some((input) => input.value.trim() !== "");
}

export function keyOf(form) {
  return $("[name=idempotency_key]", form).value;
}

export function setKey(form, key) {
  $("[name=idempotency_key]", form).value = key;
}

/** Say which hand the entry is for, and who deals it, everywhere the page says so. */
export function setEntryNumber(form, facts, number, dealer) {
  $all("[data-next-number]").forEach((span) => {
    span.textContent = String(number);
  });
  $all("button[data-record]").forEach((record) => {
    record.textContent = `Record hand ${number}`;
  });
  $all("[data-next-dealer]").forEach((span) => {
    span.textContent = facts.names[dealer] || dealer;
  });
  const expected = $("[name=expected_number]", form);
  if (expected) {
    expected.value = String(number);
  }
}

export function clearForm(form) {
  $all("input[type=radio], input[type=checkbox]", form).forEach((input) => {
    input.checked = false;
  });
  $all("input[type=text], textarea", form).forEach((input) => {
    input.value = "";
  });
  // Radio groups with a default (e.g. "not doubled") take it again.
  $all("input[data-default]", form).forEach((input) => {
    input.checked = true;
  });
  markFilled(form, []);
}

/** Put [name, value] pairs back into the form. */
export function fill(form, pairs) {
  pairs.forEach(([name, value]) => {
    $all(`[name='${name}']`, form).forEach((input) => {
      if (input.type === "radio" || input.type === "checkbox") {
        input.checked = input.value === value || (input.type === "checkbox" && value === "on");
      } else if (input.type !== "hidden") {
        input.value = value;
      }
    });
  });
}

/** The draft of game ``game``'s next hand, kept in the phone's local storage. */
export function draftStore(game, storage = globalThis.localStorage) {
  const name = `scorekeeper:draft:${game}`;
  return {
    load() {
      try {
        return JSON.parse(storage.getItem(name) || "null");
      } catch {
        return null;
      }
    },
    save(draft) {
      try {
        storage.setItem(name, JSON.stringify(draft));
      } catch {
        // private mode: no drafts
      }
    },
    forget() {
      try {
        storage.removeItem(name);
      } catch {
        // nothing kept
      }
    },
  };
}

/** The draft of what the form shows now. */
export function draftOf(form) {
  return { key: keyOf(form), step: currentStep(form), fields: chosen(form), filled: filledFields(form),
           expected: Number($("[name=expected_number]", form).value) };
}

/** A new entry for hand ``expected``: blank (or the draft kept for this hand), with its own key. */
export function startEntry(form, facts, drafts, expected, dealer, newKey) {
  clearForm(form);
  clearErrors(form);
  const draft = drafts.load();
  const resumed = draft && draft.expected === expected ? draft : null;
  if (resumed) {
    fill(form, resumed.fields);
    markFilled(form, resumed.filled || []);
  }
  setKey(form, (resumed && resumed.key) || newKey());
  setEntryNumber(form, facts, expected, dealer);
  showStep(form, resumed ? resumed.step : null);
  updateSums(form);
  drafts.save(draftOf(form));
}
