"""``python -m cardroom.store new "what it does" | heads | history``: the schema's migrations."""

import sys

from cardroom.store.migrate import main

sys.exit(main())
