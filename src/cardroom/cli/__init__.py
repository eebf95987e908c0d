"""The ``cardroom`` command: its groups, options, help texts and each game's commands (the
terminal front ends they start are in :mod:`cardroom.terminal`)."""
