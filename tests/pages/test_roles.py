"""The page helper finds what a person finds: elements by role and accessible name, never what is hidden."""

import doctest

import pytest

from tests.pages import roles
from tests.pages.roles import Page

FORM = """
<main>
  <h1>Table 3</h1>
  <h2 id="board-title">Scores <small>after hand 2</small></h2>
  <section aria-labelledby="board-title"><p>NS 70</p></section>
  <form method="post">
    <label for="bid-n">Ann's bid</label> <input id="bid-n" name="bid_N" type="number" value="3">
    <label>Note <textarea name="note"></textarea></label>
    <label>Trump <select name="trump"><option>hearts</option><option selected>spades</option></select></label>
    <label><input type="checkbox" name="doubled"> Doubled</label>
    <input type="hidden" name="idempotency_key" value="k1">
    <input type="submit" value="Record hand 3">
    <button type="button" aria-label="Undo the last hand">&#x21b6;</button>
  </form>
  <a href="/league/club/">Club   league</a> <a>not a link</a>
  <p role="status">Saved &amp; shared</p>
  <div hidden><button>Hidden away</button></div>
  <span aria-hidden="true"><a href="/x">Decoration</a></span>
  <script>var button = "<button>Not one</button>";</script>
</main>
"""


@pytest.fixture
def page():
    return Page(FORM)


def test_buttons_are_named_by_their_text_their_value_or_their_aria_label(page):
    assert [button.name for button in page.all("button")] == ["Record hand 3", "Undo the last hand"]
    assert page.get("button", "Record hand 3").attrs["type"] == "submit"


def test_links_need_an_href_and_are_named_by_their_text_with_white_space_collapsed(page):
    assert [link.name for link in page.all("link")] == ["Club league"]
    assert page.get("link", "Club league").attrs["href"] == "/league/club/"


def test_headings_have_levels_and_their_whole_text_as_name(page):
    assert page.get("heading", level=1).name == "Table 3"
    assert page.get("heading", "Scores after hand 2").level == 2
    assert not page.has("heading", "Scores")
    assert page.has("heading", contains="Scores")


def test_fields_are_found_by_their_labels_whether_pointed_at_or_wrapped(page):
    assert page.field("Ann's bid").attrs["name"] == "bid_N"
    assert page.field("Ann's bid").role == "spinbutton"
    assert page.field("Note").role == "textbox"
    assert page.field("Trump").role == "combobox"  # its options are not part of its label
    assert page.field("Doubled").role == "checkbox"


def test_a_region_is_named_by_the_element_it_points_at(page):
    assert page.get("status").name == "Saved & shared"
    section = Page('<h2 id="t">Scores</h2><section aria-labelledby="t">NS 70</section><section>Not one</section>')
    assert section.get("region", "Scores").text == "NS 70"
    assert [region.name for region in section.all("region")] == ["Scores"]


def test_hidden_elements_and_scripts_are_not_found(page):
    assert not page.has("button", "Hidden away") and not page.has("button", "Not one")
    assert not page.has("link", "Decoration")
    assert not any(field.attrs.get("name") == "idempotency_key" for field in page.all("textbox"))


def test_a_missing_or_ambiguous_element_fails_with_what_the_page_has(page):
    with pytest.raises(AssertionError, match=r"0 button named 'Save' on the page, not 1; its buttons: "
                                             r"\['Record hand 3', 'Undo the last hand'\]"):
        page.get("button", "Save")
    with pytest.raises(AssertionError, match="2 button on the page"):
        page.get("button")
    with pytest.raises(AssertionError, match="0 fields labelled 'Bid'"):
        page.field("Bid")


def test_within_looks_only_inside_one_element():
    page = Page("<nav><a href='/a'>Home</a></nav><table><caption>Players</caption><tr><th>Name</th></tr>"
                "<tr><td><a href='/p/1'>Ann</a></td></tr></table>")
    table = page.within(page.get("table"))
    assert [link.name for link in table.all("link")] == ["Ann"]
    assert [cell.name for cell in table.all("cell")] == ["Ann"]
    assert [header.name for header in table.all("columnheader")] == ["Name"]
    assert page.has("link", "Home") and not table.has("link", "Home")


def test_the_example_at_the_top_of_the_helper_holds():
    result = doctest.testmod(roles)
    assert result.attempted and not result.failed


def test_the_page_reads_as_its_words_without_tags_or_hidden_parts(page):
    assert "Saved & shared Hidden away" not in page.text
    assert Page("<p>Sign <b>in</b>\n  to <a href='/'>keep</a> score.</p><p hidden>no</p><p>Hand <b>2</b>.</p>"
                "<ul><li>one</li><li>two</li></ul>").text == "Sign in to keep score. Hand 2. one two"
