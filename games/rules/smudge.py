from .base import Ruleset


class Smudge(Ruleset):
    game_type = "smudge"
    option_specs = ()
    record_fields = {}
