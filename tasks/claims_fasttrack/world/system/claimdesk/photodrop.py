"""PhotoDrop: texts the claimant a one-time upload link (vendor: SnapClaim, contract signed
2025-11). When the route is photo_link, ClaimCenter sets the claim up at once (claim number,
acknowledgement letter) and the link goes out; uploads land on the claim, then the file joins the
desk queue. Built in December, never switched on in intake (config photodrop.enabled)."""


def link_message(fnol):
    return (f"Sierra Vista Mutual: add photos of your {fnol.get('vehicle') or 'vehicle'} for claim "
            f"{fnol['claim_id']} here: https://svm.snapclaim.io/u/{fnol['claim_id'].lower()} (expires in 7 days)")
