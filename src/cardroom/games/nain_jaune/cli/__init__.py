"""Nain Jaune's ``cardroom`` commands (play, simulate, tournament), registered when imported
(the registry's ``cli`` piece)."""

from cardroom.games.nain_jaune.cli import play as _play  # noqa: F401
from cardroom.games.nain_jaune.cli import simulate as _simulate  # noqa: F401
from cardroom.games.nain_jaune.cli import tournament as _tournament  # noqa: F401
