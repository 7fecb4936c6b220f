"""Accounts: what the service keeps about a person beyond Django's user (time zone, ...)."""


def email_confirmed(user) -> bool:
    """May mail go to `user.email`, and may mail from it be read as this user's orders?

    The one check for the mail code (outbound notices, inbound sender matching); see
    gm.accounts.confirmation. Imported lazily: this package loads before its models.
    """
    from .confirmation import email_confirmed as check

    return check(user)
