"""The frozen program's entry point: ``subcase [FILE]`` opens the GUI,
``subcase convert ...`` is the command line (see subcase.cli)."""

import multiprocessing
import sys

from subcase.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # harmless unless a worker process is ever spawned
    sys.exit(main())
