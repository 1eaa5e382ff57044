"""Ask a rendered page for what a person (or a screen reader) finds on it: its buttons, links, headings, labelled
fields and status regions, each by its role and accessible name, rather than for strings of its HTML.

>>> page = Page('<h2>Scores</h2><form><label for="t">Target</label><input id="t" name="target" value="500">'
...             '<button>Record hand 2</button></form><p role="status">Saved</p>')
>>> page.get("button").name, page.get("heading", level=2).name, page.field("Target").attrs["value"]
('Record hand 2', 'Scores', '500')
>>> page.get("status").name
'Saved'

A name is matched whole, with its white space collapsed (as a screen reader reads it); ``contains=`` matches
part of it. The roles are the HTML elements' own (ARIA's implicit roles) unless ``role=`` says otherwise; an
element that is ``hidden`` or ``aria-hidden`` is not found, nor is anything inside it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

# Elements with no end tag: they never hold anything.
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
                  "wbr"})
# Elements whose contents are never shown as text.
UNSEEN = frozenset({"script", "style", "template", "head"})
# Elements set apart from the words around them (the others run on: "hand <b>2</b>." reads "hand 2.").
BLOCKS = frozenset({"address", "article", "aside", "br", "caption", "dd", "details", "dialog", "div", "dl", "dt",
                    "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4", "h5", "h6",
                    "header", "hr", "input", "li", "main", "nav", "ol", "option", "p", "section", "select",
                    "summary", "table", "td", "textarea", "th", "tr", "ul"})
HEADINGS = {f"h{level}": level for level in range(1, 7)}
INPUT_ROLES = {"checkbox": "checkbox", "radio": "radio", "number": "spinbutton", "range": "slider",
               "search": "searchbox", "submit": "button", "button": "button", "reset": "button",
               "image": "button"}
# Roles whose name is their text, not a label of their own (the others: fields, named by their labels).
NAMED_BY_CONTENT = frozenset({"button", "link", "heading", "cell", "columnheader", "rowheader", "option", "tab",
                              "menuitem", "status", "alert", "caption"})
FIELDS = frozenset({"textbox", "checkbox", "radio", "spinbutton", "slider", "searchbox", "combobox", "listbox"})


@dataclass(eq=False)
class Element:
    tag: str
    attrs: dict[str, str]
    parent: Element | None = None
    children: list[Element | str] = field(default_factory=list)

    @property
    def text(self) -> str:
        """The text inside, white space collapsed; hidden parts left out."""
        return squeeze("".join(child if isinstance(child, str) else f" {child.text} " if child.tag in BLOCKS
                               else child.text
                               for child in self.children if isinstance(child, str) or not child.hidden))

    @property
    def hidden(self) -> bool:
        return "hidden" in self.attrs or self.attrs.get("aria-hidden") == "true" or self.tag in UNSEEN or (
            self.tag == "input" and self.attrs.get("type") == "hidden")

    @property
    def level(self) -> int | None:
        """A heading's level (``h2``: 2, or its ``aria-level``)."""
        if "aria-level" in self.attrs:
            return int(self.attrs["aria-level"])
        return HEADINGS.get(self.tag)

    @property
    def role(self) -> str | None:
        if self.attrs.get("role"):
            return self.attrs["role"].split()[0]
        tag, kind = self.tag, self.attrs.get("type", "text").lower()
        if tag in HEADINGS:
            return "heading"
        if tag == "a":
            return "link" if "href" in self.attrs else None
        if tag == "input":
            if kind == "hidden":
                return None
            return INPUT_ROLES.get(kind, "textbox")
        if tag == "section":  # a section is a region once it has a name
            return "region" if self.attrs.get("aria-label") or self.attrs.get("aria-labelledby") else None
        if tag == "th":
            return "rowheader" if self.attrs.get("scope") == "row" else "columnheader"
        if tag == "select":
            return "listbox" if "multiple" in self.attrs or int(self.attrs.get("size") or 1) > 1 else "combobox"
        return {"button": "button", "textarea": "textbox", "output": "status", "table": "table", "tr": "row",
                "td": "cell", "caption": "caption", "nav": "navigation", "main": "main",
                "form": "form", "ul": "list", "ol": "list", "li": "listitem", "option": "option",
                "dialog": "dialog", "img": "img"}.get(tag)


class Page:
    """A page's HTML, asked for its elements by role and name."""

    def __init__(self, html: str) -> None:
        self.root = parse(html)
        self.elements = list(visible(self.root))
        self.by_id = {element.attrs["id"]: element for element in self.elements if "id" in element.attrs}

    @property
    def text(self) -> str:
        """The page's words as read, tags left out and white space collapsed."""
        return self.root.text

    def name_of(self, element: Element) -> str:
        """The accessible name: ``aria-labelledby``, ``aria-label``, then a field's labels or an element's text
        (a button input's value, an image's alt)."""
        attrs = element.attrs
        if attrs.get("aria-labelledby"):
            return squeeze(" ".join(self.by_id[ref].text for ref in attrs["aria-labelledby"].split()
                                    if ref in self.by_id))
        if attrs.get("aria-label"):
            return squeeze(attrs["aria-label"])
        role = element.role
        if role in FIELDS:
            labels = [label for label in self.elements if label.tag == "label" and (
                label.attrs.get("for") == attrs.get("id", object()) or (
                    "for" not in label.attrs and element in descendants(label)))]
            return squeeze(" ".join(field_label(label, element) for label in labels)) or squeeze(
                attrs.get("title", "") or attrs.get("placeholder", ""))
        if element.tag == "input":
            return squeeze(attrs.get("value", "") or attrs.get("alt", ""))
        if element.tag == "img":
            return squeeze(attrs.get("alt", ""))
        if role in NAMED_BY_CONTENT:
            return element.text
        return squeeze(attrs.get("title", ""))

    def all(self, role: str, name: str | None = None, *, contains: str | None = None,
            level: int | None = None) -> list[Named]:
        """Every element of this role (and name, part of a name, heading level), in page order."""
        found = []
        for element in self.elements:
            if element.role != role or (level is not None and element.level != level):
                continue
            element_name = self.name_of(element)
            if name is not None and element_name != squeeze(name):
                continue
            if contains is not None and squeeze(contains) not in element_name:
                continue
            found.append(Named(element, element_name))
        return found

    def get(self, role: str, name: str | None = None, *, contains: str | None = None,
            level: int | None = None) -> Named:
        """The one element of this role and name; an assertion error listing what the page has otherwise."""
        found = self.all(role, name, contains=contains, level=level)
        if len(found) != 1:
            wanted = role + (f" named {name!r}" if name is not None else "") + (
                f" with {contains!r} in its name" if contains is not None else "")
            raise AssertionError(f"{len(found)} {wanted} on the page, not 1; its {role}s: "
                                 f"{[named.name for named in self.all(role)]}")
        return found[0]

    def has(self, role: str, name: str | None = None, *, contains: str | None = None,
            level: int | None = None) -> bool:
        return bool(self.all(role, name, contains=contains, level=level))

    def field(self, label: str) -> Named:
        """The one form field with this label."""
        found = [named for role in sorted(FIELDS) for named in self.all(role, label)]
        if len(found) != 1:
            raise AssertionError(f"{len(found)} fields labelled {label!r} on the page, not 1; its fields: "
                                 f"{[named.name for role in sorted(FIELDS) for named in self.all(role)]}")
        return found[0]

    def within(self, named: Named) -> Page:
        """The part of the page inside one element (a table's rows, a form's buttons)."""
        part = Page("")
        part.root, part.elements = named.element, list(visible(named.element))
        part.by_id = self.by_id
        return part


@dataclass(frozen=True)
class Named:
    """An element found, with the name it was found by."""

    element: Element
    name: str

    @property
    def role(self) -> str | None:
        return self.element.role

    @property
    def text(self) -> str:
        return self.element.text

    @property
    def attrs(self) -> dict[str, str]:
        return self.element.attrs

    @property
    def level(self) -> int | None:
        return self.element.level


def squeeze(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def field_label(label: Element, labelled: Element) -> str:
    """A label's words, without the text of a field it wraps (a select's options are not its label)."""
    return squeeze(" ".join(child if isinstance(child, str) else "" if child is labelled
                            or child.tag in ("select", "textarea") else field_label(child, labelled)
                            for child in label.children if isinstance(child, str) or not child.hidden))


def descendants(element: Element):
    for child in element.children:
        if isinstance(child, Element):
            yield child
            yield from descendants(child)


def visible(element: Element):
    for child in element.children:
        if isinstance(child, Element) and not child.hidden:
            yield child
            yield from visible(child)


class _TreeBuilder(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.root = self.current = Element("#document", {})

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        element = Element(tag, {name: value or "" for name, value in attrs}, parent=self.current)
        self.current.children.append(element)
        if tag not in VOID:
            self.current = element

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.current.children.append(Element(tag, {name: value or "" for name, value in attrs},
                                             parent=self.current))

    def handle_endtag(self, tag: str) -> None:
        # Close up to the nearest open element of this tag (an end tag left out, as HTML allows, closes too).
        open_element: Element | None = self.current
        while open_element is not None and open_element.tag != tag:
            open_element = open_element.parent
        if open_element is not None and open_element.parent is not None:
            self.current = open_element.parent

    def handle_data(self, data: str) -> None:
        self.current.children.append(data)


def parse(html: str) -> Element:
    builder = _TreeBuilder()
    builder.feed(html)
    builder.close()
    return builder.root
