"""``manage.py score GAME FILE``: a whole game scored from a file, errors on standard error."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from unittest import mock

import pytest
from django.core.management import call_command

ROOT = Path(__file__).resolve().parent.parent

SPADES_GAME = {
    "options": {"target": 150},
    "hands": [
        {"bids": {"N": 3, "E": 4, "S": 4, "W": 2}, "tricks": {"N": 4, "E": 4, "S": 3, "W": 2}},
        {"bids": {"N": 4, "E": 3, "S": 4, "W": 2}, "tricks": {"N": 5, "E": 2, "S": 4, "W": 2}},
    ],
}


@dataclass
class Done:
    returncode: int
    stdout: str
    stderr: str


def score(game: str, document=None, *, text: str | None = None, path: str = "-") -> Done:
    """Run the command in this process, ``text`` (or ``document`` as JSON) on its standard input."""
    stdin = text if text is not None else json.dumps(document)
    stdout, stderr = io.StringIO(), io.StringIO()
    with mock.patch("sys.stdin", io.StringIO(stdin)):
        try:
            call_command("score", game, path, stdout=stdout, stderr=stderr)
            returncode = 0
        except SystemExit as stopped:
            returncode = stopped.code
    return Done(returncode, stdout.getvalue(), stderr.getvalue())


def score_in_a_process(game: str, document) -> subprocess.CompletedProcess:
    """``manage.py score GAME -`` as someone types it: its own process, the real settings."""
    env = {key: value for key, value in os.environ.items() if key != "DJANGO_SETTINGS_MODULE"}
    return subprocess.run(
        [sys.executable, "manage.py", "score", game, "-"],
        input=json.dumps(document), capture_output=True, text=True, cwd=ROOT, env=env, timeout=60,
    )


def test_scores_a_spades_game_from_standard_input():
    done = score("spades", SPADES_GAME)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["game"] == "spades"
    # Hand 1: NS bid 7 took 7: +70; EW bid 6 took 6: +60.
    # Hand 2: NS bid 8 took 9: +81 and a bag; EW bid 5 took 4: set, -50.
    assert result["totals"] == {"NS": 151, "EW": 10}
    assert result["bags"] == {"NS": 1, "EW": 0}
    assert result["finished"] is True and result["winner"] == "NS"
    assert result["next_dealer"] == "S"
    assert [hand["number"] for hand in result["hands"]] == [1, 2]
    assert result["hands"][1]["dealer"] == "E"
    assert result["hands"][1]["delta"] == {"NS": 81, "EW": -50}
    assert result["hands"][1]["totals"] == {"NS": 151, "EW": 10}


def test_scores_a_game_from_a_file(tmp_path):
    path = tmp_path / "stink.json"
    path.write_text(json.dumps({"hands": [
        {"face_cards": {"NS": 6, "EW": 7}, "trump_stack": {"holder": "E", "size": 7}},
    ]}))
    done = score("thieving_stink", path=str(path), text="")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["totals"] == {"NS": 60, "EW": 105}
    assert "bags" not in result


def test_an_invalid_hand_exits_2_with_one_line_naming_the_hand():
    game = json.loads(json.dumps(SPADES_GAME))
    game["hands"][1]["tricks"]["N"] = 4  # now 12 tricks in all
    done = score_in_a_process("spades", game)
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip() == "hand 2: tricks add up to 12; they must add up to 13"


@pytest.mark.parametrize(
    ("game", "document", "words"),
    [
        ("bridge", {"hands": []}, "valid games: spades, smudge, trumps, thieving_stink"),
        ("spades", {"options": {"targte": 1}, "hands": []}, "valid options: first_dealer, target"),
        ("trumps", {"options": {"target": "fifty"}, "hands": []}, "target must be a whole number"),
    ],
)
def test_unknown_game_or_option_exits_2_listing_the_valid_ones(game, document, words):
    done = score(game, document)
    assert done.returncode == 2
    assert done.stdout == ""
    assert words in done.stderr


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{not json", "is not valid JSON"),
        ("[]", "must hold an object"),
        ('{"hands": 3}', "needs \"hands\""),
        ('{"hands": [], "extra": 1}', 'unknown key "extra"'),
    ],
)
def test_a_malformed_file_exits_2_and_says_why(text, words):
    done = score("spades", text=text)
    assert done.returncode == 2
    assert done.stdout == ""
    assert words in done.stderr


def test_a_missing_file_exits_2():
    done = score("spades", text="", path="/nonexistent/game.json")
    assert done.returncode == 2
    assert "cannot read /nonexistent/game.json" in done.stderr
