from .base import Ruleset


class Trumps(Ruleset):
    game_type = "trumps"
    option_specs = ()
    record_fields = {}
