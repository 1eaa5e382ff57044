"""Score a whole game from a file: ``manage.py score GAME FILE`` (FILE may be ``-`` for standard input).

FILE holds ``{"options": {...}, "hands": [...]}``; the result is one JSON object on standard
output. An invalid hand, game or option: exit status 2, nothing on standard output, and one
line on standard error saying what is wrong (``hand N: ...`` for a hand).
"""

from __future__ import annotations

import json
import sys

from django.core.management.base import BaseCommand

from games.rules import RulesError, game_types, get_ruleset, shown


class Command(BaseCommand):
    help = "Score a whole game from a JSON file of options and hands, and print the result as JSON."

    def add_arguments(self, parser):
        parser.add_argument("game", help=f"the game: {', '.join(game_types())}")
        parser.add_argument("file", help='a JSON file {"options": {...}, "hands": [...]}, or - for standard input')

    def handle(self, *args, game: str, file: str, **options):
        try:
            document = self.read(file)
            ruleset = get_ruleset(game, document.get("options", {}))
            state = ruleset.replay(document["hands"])
        except RulesError as error:
            self.fail(str(error))
        except InputError as error:
            self.fail(str(error))
        result = {"game": game, **state.as_dict()}
        self.stdout.write(json.dumps(result, indent=2))

    def read(self, file: str) -> dict:
        try:
            text = sys.stdin.read() if file == "-" else open(file, encoding="utf-8").read()
        except OSError as error:
            raise InputError(f"cannot read {file}: {error.strerror}") from None
        try:
            document = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError(f"{file} is not valid JSON: {error}") from None
        if not isinstance(document, dict):
            raise InputError('the file must hold an object: {"options": {...}, "hands": [...]}')
        unknown = set(document) - {"options", "hands"}
        if unknown:
            raise InputError(f"unknown key {shown(sorted(unknown)[0])}; the file has only options and hands")
        if not isinstance(document.get("hands"), list):
            raise InputError('the file needs "hands": a list of hand records')
        if not isinstance(document.get("options", {}), dict):
            raise InputError('"options" must be an object of option names to values')
        return document

    def fail(self, message: str):
        self.stderr.write(message)
        sys.exit(2)


class InputError(Exception):
    pass
