"""Doors to an episode from outside the process: ``fdegym episode`` (a background process per named
episode), ``fdegym mcp`` (Model Context Protocol). They share :mod:`fdegym_env.serving.episode_host`."""
