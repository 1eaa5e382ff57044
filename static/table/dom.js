// Small helpers for building and finding the table page's elements.

export function $(selector, within = document) {
  return within.querySelector(selector);
}

export function $all(selector, within = document) {
  return Array.from(within.querySelectorAll(selector));
}

/** A new element, with a class and its text when given. */
export function element(tag, className = "", content = undefined) {
  const made = document.createElement(tag);
  if (className) {
    made.className = className;
  }
  if (content !== undefined) {
    made.textContent = content;
  }
  return made;
}

export function button(label, action, className = "") {
  const made = element("button", className, label);
  made.type = "button";
  made.addEventListener("click", action);
  return made;
}

/** The question a group of choices asks: its legend's own words, without the error shown in it. */
export function question(fieldset) {
  const legend = fieldset.querySelector("legend");
  return legend ? legend.childNodes[0].textContent.trim() : fieldset.dataset.field;
}

/** The words of the choice picked in a group of choices, or "" when none is. */
export function pickedWords(fieldset) {
  const picked = fieldset.querySelector("input:checked");
  return picked ? picked.parentNode.textContent.trim() : "";
}

export function csrfCookie() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}
