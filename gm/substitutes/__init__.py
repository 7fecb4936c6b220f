"""Substitutes, seat hand-overs, the newcomer's briefing and the reliability record.

docs/substitutes.md describes the whole flow. The other apps reach in through:
* `handover.hand_over` - the one way a seat changes hands (the GM's replace uses it);
* `briefing.SECTIONS` - what a newcomer is shown (other apps append sections);
* `reliability.PROVIDERS` - counts of a player's record (other apps append providers);
* `gm.play.actions.JOIN_CHECKS` - this app adds the game's minimum record there.
"""
