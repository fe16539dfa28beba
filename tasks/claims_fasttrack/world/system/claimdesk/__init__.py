"""ClaimDesk intake: decides where a new first notice of loss (FNOL) goes."""
