"""``bin/ask`` and ``bin/pilot`` as written into a case's workspace.

They speak the reference harness's HTTP protocol to ``127.0.0.1:<port>``; inside the sandbox that
port is bridged to the episode's :class:`~fdegym_env.harness.servers.PeopleServer`, which is answered
by the env's in-process people engine. Usage is the harness's (``python3 bin/ask --who``,
``python3 bin/ask <id> "question"``, ``--now``, ``--wait 6h|2d``, ``--inbox``; ``python3 bin/pilot``).
The programs are ``fdegym_env/sandbox/inside/ask.py`` and ``pilot.py``, with the port set.
"""

from __future__ import annotations

from fdegym_env.sandbox.inside import source, with_values


def ask_client(port: int) -> str:
    return with_values(source("ask"), PORT=int(port))


def pilot_client(port: int) -> str:
    return with_values(source("pilot"), PORT=int(port))
