"""Celery tasks by name, for the modules the tasks themselves are built on.

A task module imports the actions it runs; an action that queues a task (resolve this
turn once the transaction commits, deliver these mails, post these webhooks) would import
the task module back: an import circle, which `lint-imports` refuses. Instead each app's
tasks module registers its tasks here as it is imported (each AppConfig.ready imports it,
so it is registered in every process: web, worker, beat, management commands), and the
actions look them up by name. It is the same task object, so `delay`, eager mode and the
tests' patches of `tasks.<name>.delay` behave exactly as a direct import did.
"""

from __future__ import annotations

from typing import Any

_TASKS: dict[str, Any] = {}


def register(*tasks: Any) -> None:
    for task in tasks:
        _TASKS[task.name] = task


def task(name: str) -> Any:
    """The registered task called `name` (e.g. "gm.play.tasks.resolve_turn")."""
    try:
        return _TASKS[name]
    except KeyError:
        raise LookupError(f"task {name} is not registered: is its app installed, and does "
                          "its AppConfig.ready import its tasks module?") from None
