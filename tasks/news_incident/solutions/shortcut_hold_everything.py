"""Shortcut: nothing goes out without an editor. No incidents, but the desk drowns and the news
is stale by the time it is read."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.replace(ws, "system/wire_ingest/pipeline.py",
                      "    # Advisories, test messages, service notices: not stories, never published.",
                      '    # Everything goes to the desk (2.5.0-hotfix).\n    store.record(db, item, "hold")\n'
                      '    return _decision(item, "hold", "all wire copy held for an editor")\n\n'
                      "    # Advisories, test messages, service notices: not stories, never published.")
