"""A Nain Jaune table's configuration: the turn-based tables' config with Nain Jaune's rules
(:class:`cardroom.games.table.TableConfig`; its rules refuse a target the table's chips can
never reach, see :meth:`Rules.table_refusal`)."""

from __future__ import annotations

from typing import TypeAlias

from cardroom.games.nain_jaune.rules import Rules
from cardroom.games.table import TableConfig as _TableConfig

__all__ = ["TableConfig"]

TableConfig: TypeAlias = _TableConfig[Rules]
