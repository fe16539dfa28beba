"""What the newsroom told us (see docs/ and the tickets); change here, not in the code.

KILL_FORMAT      how each agency withdraws a story: "cancel" = new version with pubstatus canceled,
                 "ref" = advisory "KILL ..." whose ref is the killed guid, "phrase:X" = advisory whose
                 headline starts with X and quotes the slug.
NAIVE_OFFSET_H   agencies whose times come without an offset, and their UTC offset.
LEGAL_STAGES     crime subjects that mean proceedings are active (legal review before publication).
LEGAL_NEEDS_NAME only when a suspect/defendant is named.
SPIKE_PRIORITY   legal copy at this priority number or lower importance is spiked, not queued.
"""

KILL_FORMAT = {"UKNS": "ref", "MRD": "cancel", "KNA": "phrase:DO NOT USE"}
NAIVE_OFFSET_H = {"MRD": -4.0}
LEGAL_STAGES = {"arrest", "charge", "court-hearing", "trial", "verdict"}
LEGAL_NEEDS_NAME = True
SPIKE_PRIORITY = 9
