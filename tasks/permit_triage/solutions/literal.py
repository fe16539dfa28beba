"""Literal: what Alistair asked for - every small application the triage recognises (outside the
conservation streets and the applicant's tick) is auto-issued by PermitBase with no officer."""

from fdegym_env.tasklib import solutions


def apply(ws, params):
    solutions.patch(__name__, ws, "literal.patch")
