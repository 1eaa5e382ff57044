"""Forms for the web pages: one hand form per game, starting a game, undo and abandon, league members and
casual-game scorekeepers. Each shows what the services refused beside its field (``RefusalForm``)."""

from .base import RefusalForm
from .games import ChooseGameForm, ConfirmForm, NewGameForm, UndoForm, option_fields
from .hands import HAND_FORMS, HandForm, hand_form_class
from .leagues import MemberForm
from .scorekeepers import ScorekeeperForm

__all__ = ["HAND_FORMS", "ChooseGameForm", "ConfirmForm", "HandForm", "MemberForm", "NewGameForm", "RefusalForm",
           "ScorekeeperForm", "UndoForm", "hand_form_class", "option_fields"]
