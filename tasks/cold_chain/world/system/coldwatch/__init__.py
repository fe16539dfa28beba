"""coldwatch: Calder Vale's van temperature monitoring (release / quarantine at the drop)."""
