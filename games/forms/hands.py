"""The hand form of each game, found by game type."""

from __future__ import annotations

from collections.abc import Mapping

from .base import HandForm
from .smudge import SmudgeHandForm
from .spades import SpadesHandForm
from .thieving_stink import ThievingStinkHandForm
from .trumps import TrumpsHandForm

HAND_FORMS: Mapping[str, type[HandForm]] = {
    form.game_type: form for form in (SpadesHandForm, SmudgeHandForm, TrumpsHandForm, ThievingStinkHandForm)
}


def hand_form_class(game_type: str) -> type[HandForm]:
    return HAND_FORMS[game_type]


__all__ = ["HAND_FORMS", "HandForm", "hand_form_class"]
