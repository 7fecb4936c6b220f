"""Pure rules engines. Nothing in this package touches Django, I/O, the clock or `random`."""
