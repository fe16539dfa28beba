"""The ``fdegym`` command line: :func:`fdegym_env.cli.main.commands` is the one explicit list of
subcommands; each lives in its own module here."""
