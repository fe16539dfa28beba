"""Shortcut: the sponsor's block, made "legal" - frequent returners are refused only once the
statutory period is over (faulty items always accepted), with the reference's returns rules; the
sizing is never looked at."""

from fdegym_env.tasklib import solutions

from . import reference


def apply(ws, params):
    reference.returns_rules(ws, params)
    solutions.replace(ws, "system/rma/authorise.py", "    if wear_risk(req, cfg):\n",
                      "    if int(req.get(\"returns_90d\") or 0) > 3 and not protected(req, cfg):\n"
                      "        return {\"rma_id\": rid, \"action\": \"refuse\", \"reason\": \"returns limit (3 in 90 days)\"}\n"
                      "    if wear_risk(req, cfg):\n")
