"""Declared rounds played segment by segment (elethril): the HUD and the queries the game
asks of such a fight. (Being moved onto the engine: ``rules.systems.elethril``.)"""

from __future__ import annotations


def initiatives(d) -> dict[str, int]:
    raise NotImplementedError("elethril is being moved onto the engine")


def to_declare(d) -> list[int]:
    raise NotImplementedError("elethril is being moved onto the engine")


def render_hud(row, viewer=None) -> str:
    raise NotImplementedError("elethril is being moved onto the engine")
