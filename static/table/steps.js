// Games that enter a hand in steps (Spades: the bids when they are made, the tricks at the end) show one
// step at a time: what was chosen in the earlier steps in a line with "Change", and under the current
// step "Back", then "Next: <step>" or Record.

import { $, $all, button, element, pickedWords, question } from "./dom.js";

/**
 * Which step to show, given each step's ``{name, complete}``: the one ``wanted`` if the entry has it;
 * otherwise the first not yet complete, or the last when all are.
 */
export function stepToShow(steps, wanted) {
  const asked = steps.findIndex((step) => step.name === wanted);
  if (asked >= 0) {
    return asked;
  }
  const open = steps.findIndex((step) => !step.complete);
  return open >= 0 ? open : steps.length - 1;
}

/** What the button after step ``index`` says ("Next: Tricks"), or "" on the last step. */
export function nextLabel(steps, index) {
  if (index >= steps.length - 1) {
    return "";
  }
  return `Next: ${steps[index].next || steps[index + 1].name}`;
}

/** A finished step in one short line, to leave the screen to the step shown: each seat and its choice
 * ("N 3 · E Nil · W 4"). */
export function summaryLine(choices) {
  return choices.filter(([, picked]) => picked)
    .map(([asked, picked]) => `${asked.split(" ")[0]} ${picked}`)
    .join(" · ");
}

export function stepsOf(form) {
  return $all("[data-step]", form);
}

export function stepComplete(step) {
  return $all("fieldset.chips", step).every((fieldset) => $("input:checked", fieldset));
}

/** The step shown, or null when the entry has no steps. */
export function currentStep(form) {
  const shown = stepsOf(form).filter((step) => !step.hidden);
  return shown.length === 1 ? shown[0].dataset.step : null;
}

function described(all) {
  return all.map((step) => ({ name: step.dataset.step, next: step.dataset.stepNext, complete: stepComplete(step) }));
}

/** Show the step ``name`` (or the one the entry is at) and the buttons that go with it. */
export function showStep(form, name) {
  const all = stepsOf(form);
  if (!all.length) {
    return;
  }
  const steps = described(all);
  const index = stepToShow(steps, name);
  all.forEach((step, at) => {
    step.hidden = at !== index;
  });
  const last = index === all.length - 1;
  const record = $(".record-bar button[type=submit]", form);
  const next = $(".record-bar .step-next", form);
  const back = $(".record-bar .step-back", form);
  if (record) {
    record.hidden = !last;
  }
  if (next) {
    next.hidden = last;
    next.textContent = nextLabel(steps, index);
    next.disabled = !steps[index].complete;
  }
  if (back) {
    back.hidden = index === 0;
  }
  $all(".step-summary", form).forEach((summary) => summary.remove());
  all.slice(0, index).forEach((step) => {
    const line = summaryLine($all("fieldset.chips", step).map((fieldset) => [question(fieldset), pickedWords(fieldset)]));
    const summary = element("p", "step-summary muted");
    summary.appendChild(element("span", "", line));
    summary.appendChild(button("Change", () => {
      showStep(form, step.dataset.step);
      focusStep(form);
      form.dispatchEvent(new CustomEvent("step", { detail: step.dataset.step }));
    }));
    all[index].parentNode.insertBefore(summary, all[index]);
  });
}

/** Put the focus on a step's first choice (the one picked in its first question, if any), as Tab would. */
export function focusStep(form) {
  const name = currentStep(form);
  const step = name ? $(`[data-step='${name}']`, form) : form;
  const first = $("fieldset.chips", step);
  const choice = first && ($("input:checked", first) || $("input", first));
  if (choice) {
    choice.focus({ preventScroll: true });
  }
}

/** Follow the scorekeeper's choices: Next is offered once the step shown is complete. */
export function followStep(form) {
  const name = currentStep(form);
  const next = $(".record-bar .step-next", form);
  if (name && next) {
    next.disabled = !stepComplete($(`[data-step='${name}']`, form));
  }
}

function move(form, by) {
  const names = stepsOf(form).map((step) => step.dataset.step);
  const index = names.indexOf(currentStep(form));
  const name = names[Math.min(names.length - 1, Math.max(0, index + by))];
  showStep(form, name);
  focusStep(form);
  form.dispatchEvent(new CustomEvent("step", { detail: name }));
}

/** Add Back and Next to the record bar of an entry in steps. The form hears a "step" event on each move. */
export function setUpSteps(form) {
  if (!stepsOf(form).length) {
    return;
  }
  const bar = $(".record-bar", form);
  bar.insertBefore(button("Back", () => move(form, -1), "step-back"), bar.firstChild);
  bar.appendChild(button("", () => {
    move(form, 1);
    window.scrollTo(0, 0);
  }, "step-next primary big"));
}
