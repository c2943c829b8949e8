"""``python -m toskit`` runs the command line (see :mod:`toskit.cli`)."""

from toskit.cli import main

raise SystemExit(main())
