"""Forms for the web pages: one hand form per game, starting a game, undo and abandon, accounts, leagues,
their members, invitations and players, and casual-game scorekeepers. Each shows what the services refused beside its field (``RefusalForm``)."""

from .accounts import ProfileForm, SignupForm
from .base import RefusalForm
from .games import ChooseGameForm, ConfirmForm, NewGameForm, UndoForm, option_fields
from .hands import HAND_FORMS, HandForm, hand_form_class
from .leagues import (
           InvitationForm,
           LeagueForm,
           MemberForm,
           MergeForm,
           PlayerAddForm,
           PlayerLinkForm,
           SeasonForm,
)
from .scorekeepers import ScorekeeperForm

__all__ = ["HAND_FORMS", "ChooseGameForm", "ConfirmForm", "HandForm", "InvitationForm", "LeagueForm", "MemberForm",
           "MergeForm", "NewGameForm", "PlayerAddForm", "PlayerLinkForm", "ProfileForm", "RefusalForm",
           "ScorekeeperForm", "SeasonForm", "SignupForm", "UndoForm", "hand_form_class", "option_fields"]
