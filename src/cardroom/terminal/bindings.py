"""The Textual apps' key lines (their ``BINDINGS`` descriptions) in the person's language."""

from __future__ import annotations

from dataclasses import replace

from textual.dom import DOMNode

from cardroom.i18n import Translator


def translate_bindings(node: DOMNode, tr: Translator) -> None:
    """Put ``node``'s key descriptions (the footer's words) into ``tr``'s language.

    Textual copies the class's ``BINDINGS`` into each instance when it is built, so this
    changes only ``node`` (call it after ``super().__init__()``).
    """
    if tr.lang == "en":
        return
    table = node._bindings.key_to_bindings
    for key, bindings in table.items():
        table[key] = [
            replace(b, description=tr._(b.description)) if b.description else b for b in bindings
        ]
