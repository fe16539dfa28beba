"""Doors to an episode from outside the process: the OpenEnv server and its clients."""
