// A hand refused while the scorekeeper is still at the entry: each reason beside the question at fault,
// brought into view, with the focus on it.

import { $, $all, element } from "./dom.js";
import { showStep } from "./steps.js";

export function clearErrors(form) {
  $all(".js-error", form).forEach((error) => error.remove());
  $all(".invalid", form).forEach((marked) => marked.classList.remove("invalid"));
}

function alertLine(tag, className, message) {
  const line = element(tag, className, message);
  line.setAttribute("role", "alert");
  return line;
}

/** Show the server's problem (``{errors, groups, non_field_errors, detail}``) on the entry. */
export function showErrors(form, problem) {
  clearErrors(form);
  let first = null;
  let general = [...(problem.non_field_errors || [])];
  Object.entries(problem.errors || {}).forEach(([name, messages]) => {
    const input = $(`[name='${name}']`, form);
    const holder = $(`[data-field='${name}']`, form) || (input && input.parentNode);
    if (!holder) {
      general = general.concat(messages);
      return;
    }
    holder.classList.add("invalid");
    const at = holder.querySelector("legend") || holder;
    messages.forEach((message) => at.appendChild(element("span", "field-error js-error", message)));
    first = first || holder;
  });
  Object.entries(problem.groups || {}).forEach(([name, messages]) => {
    const group = $(`#group-${name}`, form);
    if (!group) {
      return;
    }
    group.classList.add("invalid");
    const heading = group.querySelector("h3");
    messages.forEach((message) => heading.after(alertLine("p", "field-error js-error", message)));
    first = first || group;
  });
  if (!first && !general.length) {
    general = [problem.detail || "This hand was refused."];
  }
  if (general.length) {
    const box = alertLine("div", "form-errors js-error");
    general.forEach((message) => box.appendChild(element("p", "", message)));
    form.prepend(box);
    first = first || box;
  }
  const step = first.closest("[data-step]");
  if (step) {
    showStep(form, step.dataset.step);
  }
  first.scrollIntoView({ block: "center" });
  const focusable = $("input", first);
  if (focusable) {
    focusable.focus({ preventScroll: true });
  }
}
