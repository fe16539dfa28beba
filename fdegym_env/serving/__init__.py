"""Doors to an episode from outside the process: ``fdegym episode`` (a background process per named
episode), ``fdegym mcp`` (Model Context Protocol; :mod:`~fdegym_env.serving.episode_host` is their
shared episode core), and the OpenEnv server and its clients."""
