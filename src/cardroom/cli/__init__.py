"""The ``cardroom`` command and the terminal user interfaces."""
