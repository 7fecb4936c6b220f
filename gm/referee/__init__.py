"""The referee's desk: GM powers, disputes, rerun/rollback, the public log, verification.

* actions.py   - every GM power (pause, extend, force, hold/release, amend, orders, dice,
                 rerun, rollback, seats, co-GMs), each logged with author and reason
* disputes.py  - filing, ruling (with a correction that reruns), second opinions
* patching.py  - structured state edits (typed fields addressed by JSON pointers)
* reading.py   - the GM's full picture, the log per reader, verifying an export
* signals.py   - what other apps (mail) can listen to
* api_views.py / views.py - thin REST and web layers over the above
"""
