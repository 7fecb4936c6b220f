"""GM-adjudicated games (issue 27): the adjudication desk, its drafts and rolls.

The rules engine is games.gm_adjudicated; this app plays its pseudo-seat GM for the
game's GM: drafts (saved, come back, publish), rolls made into a draft (append-only:
a reroll is a new roll, both kept), the desk page and API, and the reminders.
"""
