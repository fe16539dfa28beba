"""Halyard Payments alert router (v2). See ../README.md."""
