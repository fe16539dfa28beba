"""Brackenridge Foods IT service desk: ticket triage (queue + priority for new tickets)."""
