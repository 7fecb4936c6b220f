"""Accounts: what the service keeps about a person beyond Django's user (time zone, ...)."""
