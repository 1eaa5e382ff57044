"""The hand form of each game, found by game type (each form registers itself by its ``game_type``)."""

from __future__ import annotations

from .base import HAND_FORMS, HandForm
from .smudge import SmudgeHandForm
from .spades import SpadesHandForm
from .thieving_stink import ThievingStinkHandForm
from .trumps import TrumpsHandForm


def hand_form_class(game_type: str) -> type[HandForm]:
    return HAND_FORMS[game_type]


__all__ = ["HAND_FORMS", "HandForm", "SmudgeHandForm", "SpadesHandForm", "ThievingStinkHandForm", "TrumpsHandForm",
           "hand_form_class"]
