"""ledgerline - Lumencrest Analytics billing engine."""
__version__ = "4.0.2"
