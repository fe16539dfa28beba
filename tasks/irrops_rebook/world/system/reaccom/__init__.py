"""reaccom - automatic re-accommodation of passengers after an OCC cancellation (Skellig Air)."""
__version__ = "1.4.2"
