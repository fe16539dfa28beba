"""The runtime: a task folder loaded (:mod:`.task`, :mod:`.schema`, :mod:`.registry`), an episode's
workspace and clock, the actions an agent can take and the Gymnasium env that ties them together."""
