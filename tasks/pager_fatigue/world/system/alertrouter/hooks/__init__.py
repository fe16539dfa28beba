"""Local overrides, evaluated before the threshold rules (see router.py for the order).

The v1 router had a hand-maintained suppression list; it was not carried over in the v2
cut-over (CHANGELOG 2.0.0) and these hooks have been empty since."""
