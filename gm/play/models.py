"""Games, seats, turns, submissions, turn records, reports, thread posts and the public log.

Invariants kept here and in actions.py:
* one live TurnRecord per (game, number) - a database constraint, so two workers can
  never both resolve a turn;
* submissions are never edited: a revision or a withdrawal is a new version;
* the game secret never leaves the server until the game is over.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable
from typing import TypeVar

from django.conf import settings
from django.db import models
from django.db.models import Q

from .rendering import render_markdown


def new_token() -> str:
    return secrets.token_urlsafe(12).replace("-", "x").replace("_", "y").lower()


class Game(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "waiting for players"
        RUNNING = "running", "running"
        PAUSED = "paused", "paused"
        FINISHED = "finished", "finished"

    ruleset = models.CharField(max_length=40)
    title = models.CharField(max_length=120)
    options = models.JSONField(default=dict)
    turn_hours = models.PositiveIntegerField(default=48)
    turn_minutes = models.PositiveIntegerField(
        default=0, help_text="Extra minutes added to turn_hours (short test games).")
    process_early = models.BooleanField(
        default=True, help_text="Resolve as soon as every owing seat has orders in.")
    hold_for_review = models.BooleanField(
        default=False, help_text="The GM reviews each resolution before its report goes out.")
    max_seats = models.PositiveIntegerField(default=0, help_text="0 = the ruleset's maximum")
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    gm = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT,
                           related_name="gm_games")
    co_gms = models.ManyToManyField(settings.AUTH_USER_MODEL, blank=True,
                                    related_name="co_gm_games")
    created = models.DateTimeField(auto_now_add=True)
    started = models.DateTimeField(null=True, blank=True)
    finished = models.DateTimeField(null=True, blank=True)
    secret = models.CharField(max_length=128, blank=True, editable=False)
    secret_sha256 = models.CharField(max_length=64, blank=True)
    state = models.JSONField(null=True, blank=True)
    state_hash = models.CharField(max_length=64, blank=True)
    setup_record = models.JSONField(null=True, blank=True)
    result = models.JSONField(null=True, blank=True)
    paused_remaining = models.DurationField(null=True, blank=True)

    class Meta:
        ordering = ["-created"]

    def __str__(self) -> str:
        return f"{self.title} ({self.ruleset} #{self.pk})"

    @property
    def secret_revealed(self) -> bool:
        return self.status == self.Status.FINISHED

    def remember_people(self) -> Game:
        """Read the seats (with their users) and co-GMs once, for a read-only request.

        The game page asks seat_of/is_gm a dozen times, of the reader and of every seated
        player; after this call they are answered from memory (two statements in all)
        instead of one query each. Opt-in per instance, because an instance that lives
        across a join or a replacement must not answer from a stale list; refresh_from_db
        and forget_people drop the memory.
        """
        every = list(self.seats.select_related("user").order_by("pk"))
        seats: dict[int, Seat] = {}
        for seat in every:
            if seat.user_id is not None:
                seats.setdefault(seat.user_id, seat)
        self._people = (seats, set(self.co_gms.values_list("pk", flat=True)), every)
        return self

    def all_seats(self) -> list[Seat]:
        """Every seat, taken or not (users loaded), first seat first: from memory after
        remember_people (the game page lists them twice: the seats and the press form)."""
        people = self.__dict__.get("_people")
        if people is not None:
            return list(people[2])
        return list(self.seats.select_related("user").order_by("pk"))

    def seated(self) -> list[Seat]:
        """The seats that have a player (users loaded), first seat first."""
        people = self.__dict__.get("_people")
        if people is not None:
            return sorted(people[0].values(), key=lambda seat: seat.pk)
        return list(self.seats.select_related("user").filter(user__isnull=False).order_by("pk"))

    def forget_people(self) -> None:
        self.__dict__.pop("_people", None)

    def refresh_from_db(self, *args, **kwargs) -> None:
        self.forget_people()
        super().refresh_from_db(*args, **kwargs)

    def is_gm(self, user) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        if user.pk == self.gm_id or user.is_superuser:
            return True
        people = self.__dict__.get("_people")
        if people is not None:
            return user.pk in people[1]
        return self.co_gms.filter(pk=user.pk).exists()

    def gm_role(self, user) -> str:
        """Why `user` sees everything in this game: "gm", "co-gm", "admin" (a site admin
        who is neither), or "" (is_gm is False)."""
        if not self.is_gm(user):
            return ""
        if user.pk == self.gm_id:
            return "gm"
        if not user.is_superuser:
            return "co-gm"
        people = self.__dict__.get("_people")
        co = (user.pk in people[1]) if people is not None else \
            self.co_gms.filter(pk=user.pk).exists()
        return "co-gm" if co else "admin"

    def seat_of(self, user) -> Seat | None:
        if not getattr(user, "is_authenticated", False):
            return None
        people = self.__dict__.get("_people")
        if people is not None:
            return people[0].get(user.pk)
        return self.seats.filter(user=user).first()

    def current_turn(self) -> Turn | None:
        return self.turns.filter(superseded=False).order_by("-number").first()


class Seat(models.Model):
    class Mode(models.TextChoices):
        ACTIVE = "active", "active"
        DEFAULT = "default", "plays default orders"
        ABANDONED = "abandoned", "abandoned"
        # gm.absence: a bot plays the seat from its own view (civil disorder, or a seat
        # left to a bot at creation); games.core.bots.bot_text, engine defaults if none
        BOT = "bot", "played by a bot"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    name = models.CharField(max_length=40, help_text="The engine's seat id.")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                             on_delete=models.SET_NULL, related_name="seats")
    mail_token = models.CharField(max_length=40, unique=True, default=new_token)
    emails = models.JSONField(default=list, blank=True,
                              help_text="Extra sender addresses accepted for this seat.")
    allow_any_sender = models.BooleanField(default=False)
    mode = models.CharField(max_length=12, choices=Mode.choices, default=Mode.ACTIVE)
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "name"], name="seat_unique_name"),
            models.UniqueConstraint(fields=["game", "user"], name="seat_unique_user"),
        ]

    def __str__(self) -> str:
        return f"{self.name} in game {self.game_id}"

    @property
    def reply_address(self) -> str:
        return f"{settings.GM_MAIL_LOCALPART}+{self.mail_token}@{settings.GM_MAIL_DOMAIN}"

    def player_name(self) -> str:
        return self.user.username if self.user else "(vacant)"


class Turn(models.Model):
    class Status(models.TextChoices):
        OPEN = "open", "open for orders"
        DUE = "due", "due for resolution"
        RESOLVING = "resolving", "resolving"
        HELD = "held", "resolved, held for GM review"
        RESOLVED = "resolved", "resolved"
        PAUSED = "paused", "paused"
        SET_ASIDE = "set_aside", "set aside by the GM (never resolved)"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveIntegerField()
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.OPEN)
    decision = models.JSONField()
    opened = models.DateTimeField(auto_now_add=True)
    deadline = models.DateTimeField(null=True, blank=True)
    claimed_at = models.DateTimeField(null=True, blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)
    overrides = models.JSONField(default=dict, blank=True,
                                 help_text="GM die fixes: draw index -> result.")
    amendments = models.JSONField(
        default=list, blank=True,
        help_text="GM state amendments made while the turn was open (see games.core.replay).")
    superseded = models.BooleanField(default=False,
                                     help_text="Rolled back or rerun; kept for history.")
    attempt = models.PositiveIntegerField(
        default=1, help_text="Labels the dice stream: each re-resolution of a turn number "
                             "draws from a fresh one (games.core.replay.turn_stream).")
    reminded = models.BooleanField(default=False)
    queued_for = models.DateTimeField(
        null=True, blank=True, editable=False,
        help_text="The deadline a timed resolve task was queued for (gm.play.sweep): each "
                  "deadline is queued once; a moved deadline differs and is queued again.")

    class Meta:
        ordering = ["game", "number", "id"]
        indexes = [models.Index(fields=["status", "deadline"], name="turn_due_idx")]
        constraints = [models.UniqueConstraint(
            fields=["game", "number"], condition=Q(superseded=False), name="turn_live_unique")]

    def __str__(self) -> str:
        return f"turn {self.number} of game {self.game_id}"

    @property
    def owing(self) -> list[str]:
        return sorted(self.decision.get("prompts", {}))


class Submission(models.Model):
    """One version of a seat's orders for a turn. Never edited."""

    class Source(models.TextChoices):
        WEB = "web", "web form"
        API = "api", "API"
        EMAIL = "email", "email"
        GM = "gm", "GM"

    turn = models.ForeignKey(Turn, on_delete=models.CASCADE, related_name="submissions")
    seat = models.ForeignKey(Seat, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField()
    text = models.TextField(blank=True)
    orders = models.JSONField(null=True, blank=True, help_text="Parsed Orders; null = withdrawn")
    receipt = models.CharField(max_length=64, blank=True)
    source = models.CharField(max_length=8, choices=Source.choices, default=Source.WEB)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL)
    # issue 28: "save" beside "ready". A saved version counts at the deadline like any
    # other, but only a ready latest version lets the turn close early (process_early).
    # True by default, so every path that does not ask (mail, GM, old rows) is ready.
    ready = models.BooleanField(default=True, db_default=True,
                                help_text="False: saved, not ready; the turn does not "
                                          "close early for it.")
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "seat", "version"]
        constraints = [models.UniqueConstraint(fields=["turn", "seat", "version"],
                                               name="submission_version_unique")]

    @property
    def withdrawn(self) -> bool:
        return self.orders is None


class TurnRecord(models.Model):
    """Everything needed to replay a turn: orders, draws, events, states and hashes."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="records")
    turn = models.OneToOneField(Turn, on_delete=models.CASCADE, related_name="record")
    number = models.PositiveIntegerField()
    orders = models.JSONField()
    defaulted = models.JSONField(default=list, help_text="Seats that got default orders.")
    draws = models.JSONField()
    events = models.JSONField()
    overrides = models.JSONField(default=dict)
    amendments = models.JSONField(default=list)
    attempt = models.PositiveIntegerField(default=1, help_text="The dice stream's attempt.")
    state_before = models.JSONField()
    state_after = models.JSONField()
    before_hash = models.CharField(max_length=64)
    after_hash = models.CharField(max_length=64)
    published = models.BooleanField(default=False)
    superseded = models.BooleanField(default=False)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "number", "id"]
        constraints = [models.UniqueConstraint(
            fields=["game", "number"], condition=Q(superseded=False), name="record_live_unique")]


class RenderedMarkdown(models.Model):
    """Markdown as written, and its safe HTML rendered on first read and then kept.

    `html` is the one accessor. Publishing a turn stores the markdown only: most of a
    turn's texts are never opened (the GM's, a seat's nobody reads), so the first reader
    (a page, the API, a mail, the feed) renders and stores it; `fill_html` does that for
    many rows in one UPDATE. Rendering is a pure function of the markdown, so two readers
    racing store the same HTML.
    """

    # the rows holding the same text as a row being filled (its turn's or game's) are
    # filled by the same UPDATE: a text is rendered once even when several rows hold it
    FILL_SCOPE = ""

    markdown = models.TextField()
    rendered = models.TextField(null=True, blank=True, editable=False, db_column="html",
                                help_text="Safe HTML of markdown; NULL until first read.")

    class Meta:
        abstract = True

    @property
    def html(self) -> str:
        """The safe HTML (nh3-sanitised), rendered and stored on first read."""
        if self.rendered is None:
            fill_html([self])
        return self.rendered or ""

    @html.setter
    def html(self, value: str) -> None:
        # writers that render at once (a thread message is read as soon as it is posted)
        self.rendered = value


R = TypeVar("R", bound=RenderedMarkdown)


def fill_html(rows: Iterable[R]) -> list[R]:
    """`rows`, each with its HTML rendered: what was not rendered yet is, once per
    distinct text, and stored by one UPDATE per model, which also fills the other
    unrendered rows of the same scope (FILL_SCOPE) holding one of those texts. Rows not
    saved yet are only rendered. Readers of many rows (a list of reports, the thread, the
    feed) call it so a first read costs one statement, not one per row."""
    rows = list(rows)
    html_of: dict[str, str] = {}
    scopes: dict[type[RenderedMarkdown], set[int]] = {}
    for row in rows:
        if row.rendered is not None:
            continue
        text = row.markdown or ""
        if text not in html_of:
            html_of[text] = render_markdown(text)
        row.rendered = html_of[text]
        if row.pk is not None:
            scopes.setdefault(type(row), set()).add(getattr(row, type(row).FILL_SCOPE))
    for model, ids in scopes.items():
        _store_html(model, sorted(ids), html_of)
    return rows


def _store_html(model: type[RenderedMarkdown], ids: list[int], html_of: dict[str, str]
                ) -> int:
    """One UPDATE storing each text's HTML in the unrendered rows of the scopes `ids`
    holding it: what

        model.objects.filter(<scope>__in=ids, rendered__isnull=True,
                             markdown__in=list(html_of))
             .update(rendered=Case(*(When(markdown=t, then=Value(h)) ...)))

    sends, as plain SQL built once per model, vendor and size (`gm.play.rows`): the
    ORM's building and compiling of that query cost more CPU than the markdown rendering
    of a mail's reports (bench/README.md, "Fifth session"). Rows changed."""
    from . import rows

    texts = list(html_of)
    scope = model._meta.get_field(model.FILL_SCOPE)
    key = ("fill html", model, len(texts), len(ids))
    sql = rows.cached_sql(key, lambda: _store_html_sql(model, scope.column, len(texts),
                                                      len(ids)))
    params: list = []
    for text in texts:
        params += [text, html_of[text]]
    params += ids
    params += texts
    with rows.cursor() as cur:
        cur.execute(sql, params)
        return cur.rowcount


def _store_html_sql(model: type[RenderedMarkdown], scope: str, n_texts: int, n_ids: int
                    ) -> str:
    from .rows import qn

    html = qn(model._meta.get_field("rendered").column)
    markdown = qn(model._meta.get_field("markdown").column)
    cases = " ".join([f"WHEN {markdown} = %s THEN %s"] * n_texts)
    return (f"UPDATE {qn(model._meta.db_table)} SET {html} = CASE {cases} ELSE NULL END "
            f"WHERE {qn(scope)} IN ({', '.join(['%s'] * n_ids)}) AND {html} IS NULL "
            f"AND {markdown} IN ({', '.join(['%s'] * n_texts)})")


class Report(RenderedMarkdown):
    """A turn's narration for one audience: "" = public, a seat name, or "*" = the GM."""

    FILL_SCOPE = "record_id"

    record = models.ForeignKey(TurnRecord, on_delete=models.CASCADE, related_name="reports")
    audience = models.CharField(max_length=40, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["record", "audience"],
                                               name="report_audience_unique")]


class Post(RenderedMarkdown):
    """The game's thread: player and GM messages, and each turn's public report.

    A message is rendered as it is posted; a report's post is rendered on first read."""

    FILL_SCOPE = "game_id"

    class Kind(models.TextChoices):
        MESSAGE = "message", "message"
        REPORT = "report", "turn report"
        GM = "gm", "GM notice"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="posts")
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                               on_delete=models.SET_NULL)
    kind = models.CharField(max_length=8, choices=Kind.choices, default=Kind.MESSAGE)
    turn_number = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]


class LogEntry(models.Model):
    """The game's public log: every service and GM act, with what players may know of it."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="log")
    actor = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True,
                              on_delete=models.SET_NULL, related_name="game_log_entries")
    action = models.CharField(max_length=40)
    reason = models.TextField(blank=True)
    public = models.TextField(blank=True, help_text="What players may read.")
    private = models.JSONField(default=dict, blank=True, help_text="GM-only details.")
    turn_number = models.PositiveIntegerField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created", "id"]


class Notice(models.Model):
    """A service event that must reach people, written in the transaction that causes it.

    The broker only carries a wake-up for it; if that message is lost (broker down or
    emptied), a periodic job finds the notice unhandled here and handles it. Handling is
    idempotent (the mail outbox is unique per event and recipient).
    """

    class Kind(models.TextChoices):
        TURN_OPENED = "turn_opened", "a turn opened"
        TURN_PUBLISHED = "turn_published", "a turn's reports were published"
        GAME_FINISHED = "game_finished", "the game ended"

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="notices")
    kind = models.CharField(max_length=20, choices=Kind.choices)
    object_id = models.PositiveBigIntegerField(help_text="The Turn, TurnRecord or Game.")
    created = models.DateTimeField(auto_now_add=True)
    handled = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created", "id"]
        constraints = [models.UniqueConstraint(fields=["kind", "object_id"],
                                               name="notice_unique_event")]
        indexes = [models.Index(fields=["created"], condition=Q(handled__isnull=True),
                                name="notice_pending_idx")]
