"""Bramble Creek Bank - consumer loan pre-qualification (see ../README.md)."""
