-- claims.db: nightly extract from ClaimCenter (loaded 02:15 PT). Today's FNOLs are NOT in it.
CREATE TABLE claims (
  claim_id TEXT PRIMARY KEY, policy_no TEXT, fnol_date TEXT, loss_date TEXT, channel TEXT, state TEXT,
  insured TEXT, vin TEXT, vehicle TEXT, shop_id TEXT, shop_name TEXT, shop_ein TEXT,
  estimate_usd REAL, status TEXT, paid_usd REAL, closed_date TEXT, adjuster TEXT, note TEXT
);
CREATE TABLE photos (claim_id TEXT, sha1 TEXT, source TEXT);   -- source: app | snapclaim:<file name> (SnapClaim email-in)
CREATE TABLE siu_flags (key_type TEXT, key_value TEXT, claim_id TEXT, flagged_on TEXT, analyst TEXT, note TEXT);
CREATE INDEX ix_photos_sha1 ON photos (sha1);
CREATE INDEX ix_claims_policy ON claims (policy_no);
