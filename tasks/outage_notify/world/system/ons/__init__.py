"""ONS - SFP Outage Notification Service (v1.4)."""
