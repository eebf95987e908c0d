"""The terminal front ends the games share: the real-time Textual app and its plain line mode,
and the apps' key lines; a game's own face lives in its folder (``games/<game>/terminal/``)."""
