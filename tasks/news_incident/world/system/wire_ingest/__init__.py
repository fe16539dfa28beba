"""Tidewater wire ingest: agency wire items in, CMS decisions out. See ../README.md."""

__version__ = "2.4.1"
