"""Harrowfield Medical Partnership - patient portal triage (PortalRouter)."""
__version__ = "2.4.1"
