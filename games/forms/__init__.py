"""Forms for the web pages: one hand form per game, the new-game form, the league member and scorekeeper forms."""

from .games import NewGameForm, option_fields
from .hands import HAND_FORMS, HandForm, hand_form_class
from .leagues import MemberForm
from .scorekeepers import ScorekeeperForm

__all__ = ["HAND_FORMS", "HandForm", "MemberForm", "NewGameForm", "ScorekeeperForm", "hand_form_class",
           "option_fields"]
