"""Shortcut: never ask who owns the handhelds - just catch them with R15 and bump them to P2 on the
service desk, hoping speed fixes it."""

from fdegym_env.tasklib import solutions


def apply(ws, params: dict) -> None:
    solutions.replace(ws, "system/config.json", '"enabled": false, "queue": "service_desk", "priority": "P3"',
                      '"enabled": true, "queue": "service_desk", "priority": "P2"')
