"""The multi-host test bed (``tests/testbed.py``): PostgreSQL and two hosts in network
namespaces, faults on their links, every frame checked against the log. Needs root.

    sudo PYTHONPATH=src:. python benchmarks/testbed.py --scenarios kill,cut-db,db-stop,slow
"""

from __future__ import annotations

import asyncio
import sys

from tests.testbed import main

if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
