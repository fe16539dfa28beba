"""Grading a delivered system: deploy the workspace's ``system/`` in the sandbox, replay held-out
traffic through its entry points, turn the KPI into normalized uplift and score."""
