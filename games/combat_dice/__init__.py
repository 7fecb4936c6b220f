"""Warpspawn Combat Dice: two combatants, simultaneous combat rolls, one reroll choice."""
