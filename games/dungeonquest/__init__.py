"""Dungeonquest, the PBEM edition: 1-4 heroes, 26 turns, one dragon."""
