import sys

from subcase.cli import main

sys.exit(main())
