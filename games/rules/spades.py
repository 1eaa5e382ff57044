from .base import Ruleset


class Spades(Ruleset):
    game_type = "spades"
    option_specs = ()
    record_fields = {}
