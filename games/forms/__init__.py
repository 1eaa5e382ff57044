"""Forms for the web pages: one hand form per game, the new-game form, the league member form."""

from .games import NewGameForm, option_fields
from .hands import HAND_FORMS, HandForm, hand_form_class
from .leagues import MemberForm

__all__ = ["HAND_FORMS", "HandForm", "MemberForm", "NewGameForm", "hand_form_class", "option_fields"]
