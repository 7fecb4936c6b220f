"""The absence layer's service logic: settings, vacations, grace, "if I miss" orders,
civil disorder and bot seats. Views, the API, mail and the resolution hook call this.

Resolution hook (`at_resolution`, called by gm.play.actions.resolve_turn under the turn's
and the game's locks, in its transaction): at a deadline that has really passed, a seat
owing orders that has a grace left or a vacation the deadlines wait for moves the
deadline instead of resolving (the turn goes back to OPEN); otherwise the missing seats
are counted towards civil disorder and `stand_in` gives their orders: a bot for a bot
seat or for a player away who chose it, their "if I miss" orders when they still read,
else None (the engine's defaults).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.db.models import Exists, OuterRef, Q, Sum
from django.utils import timezone

from games.core.bots import bot_text
from games.core.engine import Engine
from games.core.types import Orders, OrdersInvalid
from gm.play import actions as play
from gm.play import signals, turn_rows
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Seat, Turn

from .models import AwayChoice, Extension, Rules, SeatAbsence, Vacation

log = logging.getLogger(__name__)
YEAR = timedelta(days=365)
MAX_VACATION = timedelta(days=90)
LIMITS = {"vacation_cap_days": 365, "grace_count": 20, "grace_hours": 24 * 14,
          "misses_to_disorder": 50, "bot_seats": 64}


# --- settings ---------------------------------------------------------------------------
def rules_of(game: Game) -> Rules | None:
    """The game's absence settings; None: none chosen (the old behaviour). Read once per
    game instance (a page asks for them in two places); `configure` refreshes it."""
    if "_absence_rules" not in game.__dict__:
        game.__dict__["_absence_rules"] = Rules.objects.filter(game=game).first()
    return game.__dict__["_absence_rules"]


def rules_or_default(game: Game) -> Rules:
    return rules_of(game) or Rules(game=game)


def clean_settings(data: dict[str, Any]) -> dict[str, Any]:
    """The settings in `data` checked (unknown names and out-of-range values refused)."""
    allowed = {"vacations_allowed", *LIMITS}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise ActionError(f"unknown absence settings: {', '.join(unknown)}; "
                          f"use: {', '.join(sorted(allowed))}")
    out: dict[str, Any] = {}
    for name, value in data.items():
        if name == "vacations_allowed":
            if not isinstance(value, bool):
                raise ActionError("vacations_allowed is true or false")
            out[name] = value
            continue
        if isinstance(value, bool) or not isinstance(value, int) or \
                not 0 <= value <= LIMITS[name]:
            raise ActionError(f"{name} is a whole number from 0 to {LIMITS[name]}")
        out[name] = value
    if out.get("grace_hours") == 0 and out.get("grace_count"):
        raise ActionError("a grace extension lasts at least one hour")
    return out


def configure(game: Game, actor, data: dict[str, Any], *, creating: bool = False,
              reason: str = "") -> Rules:
    """Set the game's absence settings (its GM; at creation, its creator). Logged."""
    if not game.is_gm(actor):
        raise NotAllowed("only the game's GM can change its absence settings")
    data = clean_settings(data)
    if "bot_seats" in data and not creating and game.status != Game.Status.OPEN:
        data.pop("bot_seats")  # seats are dealt: bots are added only before the start
    with transaction.atomic():
        rules, _new = Rules.objects.select_for_update().get_or_create(game=game)
        for name, value in data.items():
            setattr(rules, name, value)
        rules.save()
        game.__dict__["_absence_rules"] = rules
        if "bot_seats" in data:
            _fill_bot_seats(game, rules.bot_seats)
        play.record_log(game, "absence-settings", "Absence settings: " + describe(rules) + ".",
                        actor=actor, reason=reason)
    return rules


def describe(rules: Rules) -> str:
    vac = (f"vacations allowed, deadlines wait up to {rules.vacation_cap_days} days a year "
           "per seat" if rules.vacations_allowed else "no vacations")
    grace = (f"{rules.grace_count} grace extension(s) of {rules.grace_hours} h per seat"
             if rules.grace_count else "no grace extensions")
    cd = (f"civil disorder after {rules.misses_to_disorder} missed deadlines in a row"
          if rules.misses_to_disorder else "no civil disorder")
    bots = f"; {rules.bot_seats} bot seat(s)" if rules.bot_seats else ""
    return f"{vac}; {grace}; {cd}{bots}"


def _fill_bot_seats(game: Game, wanted: int) -> None:
    """Make the game's bot seats (user-less, mode bot) number `wanted`, before the start."""
    engine = play.engine_for(game)
    bots = list(game.seats.filter(user__isnull=True, mode=Seat.Mode.BOT).order_by("-id"))
    while len(bots) > wanted:
        bots.pop(0).delete()
    taken = game.seats.count()
    capacity = play.seat_capacity(game)
    if taken + wanted - len(bots) > capacity:
        raise Conflict(f"{engine.title} has {capacity} seats; {taken} are taken")
    names = engine.seat_names(capacity)
    used = set(game.seats.values_list("name", flat=True))
    for _ in range(wanted - len(bots)):
        name = next(n for n in names if n not in used)
        used.add(name)
        Seat.objects.create(game=game, name=name, user=None, mode=Seat.Mode.BOT)
        play.record_log(game, "bot-seat", f"Seat {name} is played by a bot.")
    # seats are named in joining order (join_game names the next one by the count), so
    # after a bot seat is removed the rest take the first names again, as start_game does
    seats = list(game.seats.order_by("id"))
    if [s.name for s in seats] != names[:len(seats)]:
        for seat in seats:
            Seat.objects.filter(pk=seat.pk).update(name=f"~{seat.pk}")
        for seat, name in zip(seats, names):
            Seat.objects.filter(pk=seat.pk).update(name=name)


# --- per-seat state -----------------------------------------------------------------------
def seat_absence(seat: Seat) -> SeatAbsence:
    return SeatAbsence.objects.get_or_create(seat=seat)[0]


def grace_left(rules: Rules, seat: Seat) -> int:
    spent = Extension.objects.filter(seat=seat, kind=Extension.Kind.GRACE,
                                     turn__superseded=False).count()
    return max(0, rules.grace_count - spent)


def vacation_seconds_left(rules: Rules, seat: Seat, now: datetime) -> int:
    used = (Extension.objects.filter(seat=seat, kind=Extension.Kind.VACATION,
                                     turn__superseded=False, created__gte=now - YEAR)
            .aggregate(s=Sum("seconds"))["s"] or 0)
    return max(0, rules.vacation_cap_days * 86400 - used)


def set_away_choice(game: Game, seat: Seat, user, choice: str) -> SeatAbsence:
    if seat.user_id != getattr(user, "pk", None):
        raise NotAllowed("only the seat's player chooses what happens while they are away")
    if choice not in AwayChoice.values:
        raise ActionError(f"choose one of: {', '.join(AwayChoice.values)}")
    rules = rules_or_default(game)
    if choice == AwayChoice.WAIT and not (rules.vacations_allowed and rules.vacation_cap_days):
        raise Conflict("in this game the deadlines do not wait for vacations")
    absence = seat_absence(seat)
    absence.away_choice = choice
    absence.save(update_fields=["away_choice"])
    return absence


# --- vacations ----------------------------------------------------------------------------
def add_vacation(user, starts: datetime, ends: datetime, *, game: Game | None = None,
                 now: datetime | None = None) -> Vacation:
    """A window `user` is away. Through a game's seat (mail), refused where that game
    forbids vacations; on the account it counts only in the games that allow them."""
    now = now or timezone.now()
    if ends <= starts:
        raise ActionError("a vacation ends after it starts")
    if ends <= now:
        raise ActionError("that vacation is already over")
    if ends - starts > MAX_VACATION:
        raise ActionError(f"a vacation lasts at most {MAX_VACATION.days} days")
    if game is not None and not rules_or_default(game).vacations_allowed:
        raise Conflict("this game's GM does not allow vacations: its deadlines do not wait "
                       "and nothing was recorded")
    with transaction.atomic():
        vac = Vacation.objects.create(user=user, starts=starts, ends=ends)
        for seat in _seats_in_running_games(user):
            rules = rules_of(seat.game)
            if rules is not None and rules.vacations_allowed:
                play.record_log(seat.game, "vacation", away_text(seat, vac, seat_absence(seat)))
                _notable(seat.game, "vacation", away_text(seat, vac, seat_absence(seat)))
    return vac


def cancel_vacation(user, pk: int) -> None:
    deleted, _ = Vacation.objects.filter(user=user, pk=pk).delete()
    if not deleted:
        raise ActionError("no such vacation")


def _seats_in_running_games(user) -> list[Seat]:
    return list(Seat.objects.select_related("game").filter(
        user=user, game__status__in=[Game.Status.RUNNING, Game.Status.OPEN]))


def on_vacation(user_id: int | None, now: datetime) -> Vacation | None:
    if user_id is None:
        return None
    return (Vacation.objects.filter(user_id=user_id, starts__lte=now, ends__gt=now)
            .order_by("-ends").first())


def away_text(seat: Seat, vac: Vacation, absence: SeatAbsence, zone=None) -> str:
    """'P2 is away until Fri 18 Dec, 18:00 UTC (their orders: bot)': never why."""
    from gm.accounts.timezones import UTC

    zone = zone or UTC
    until = vac.ends.astimezone(zone).strftime("%a %-d %b, %H:%M %Z")
    since = "" if vac.starts <= timezone.now() else \
        f" from {vac.starts.astimezone(zone).strftime('%a %-d %b, %H:%M %Z')}"
    orders = {AwayChoice.WAIT: "the deadline waits", AwayChoice.IF_MISS: "if-I-miss orders",
              AwayChoice.BOT: "bot"}[AwayChoice(absence.away_choice)]
    return f"{seat.name} is away{since} until {until} (their orders: {orders})"


def away_lines(game: Game, zone=None, now: datetime | None = None) -> list[str]:
    """The game page's line per seat whose player is or will soon be away."""
    rules = rules_of(game)
    if rules is None or not rules.vacations_allowed:
        return []
    now = now or timezone.now()
    seats = {s.user_id: s for s in game.seats.filter(user__isnull=False)}
    vacs = Vacation.objects.filter(user_id__in=list(seats), ends__gt=now,
                                   starts__lte=now + timedelta(days=14)).order_by("starts")
    absences = {a.seat_id: a for a in SeatAbsence.objects.filter(
        seat__in=list(seats.values()))}
    out, seen = [], set()
    for vac in vacs:
        if vac.user_id in seen:
            continue
        seen.add(vac.user_id)
        seat = seats[vac.user_id]
        out.append(away_text(seat, vac, absences.get(seat.pk) or SeatAbsence(seat=seat), zone))
    return out


# --- "if I miss" orders ------------------------------------------------------------------
def file_if_miss(game: Game, seat: Seat, user, text: str) -> SeatAbsence:
    """Keep `text` as the seat's "if I miss" orders, checked by the engine now ('' clears)."""
    if seat.user_id != getattr(user, "pk", None):
        raise NotAllowed("only the seat's player files its \"if I miss\" orders")
    text = text.strip()
    if text:
        play.check_orders(game, seat, text)  # raises OrdersInvalid with line numbers
    absence = seat_absence(seat)
    absence.if_miss_text = text
    absence.if_miss_problem = ""
    absence.save(update_fields=["if_miss_text", "if_miss_problem"])
    play.record_log(game, "if-miss", f"{seat.name} " + (
        "filed \"if I miss\" orders." if text else "cleared its \"if I miss\" orders."))
    return absence


def recheck_if_miss(game: Game) -> list[str]:
    """Re-read every seat's "if I miss" orders against the game's state now (each turn
    that opens); those that no longer read are reported to their player at once.
    Returns the seats newly found unreadable."""
    engine = play.engine_for(game)
    found: list[str] = []
    absences = list(SeatAbsence.objects.select_related("seat__user")
                    .filter(seat__game=game).exclude(if_miss_text=""))
    if not absences:
        return found
    state = engine.from_json(play.orders_state(game.pk))
    for absence in absences:
        try:
            engine.parse_orders(state, absence.seat.name, absence.if_miss_text)
            problem = ""
        except OrdersInvalid as exc:
            problem = str(exc)
        except Exception as exc:  # noqa: BLE001 - a seat that owes nothing now, etc.
            problem = f"{type(exc).__name__}: {exc}"
        if problem != absence.if_miss_problem:
            absence.if_miss_problem = problem
            absence.save(update_fields=["if_miss_problem"])
            if problem and absence.seat.user_id:
                found.append(absence.seat.name)
                text = (f"Your \"if I miss\" orders for seat {absence.seat.name} no longer "
                        f"read this turn: {problem}. If you miss the deadline the engine's "
                        "default orders are played instead; file new ones on the game page.")
                _notable(game, "orders_unreadable", text, users=[absence.seat.user_id],
                         urgent=True)
    return found


def _if_miss_orders(engine: Engine, state: Any, seat_name: str, absence: SeatAbsence | None
                    ) -> Orders | None:
    if absence is None or not absence.if_miss_text:
        return None
    try:
        orders = engine.parse_orders(state, seat_name, absence.if_miss_text)
    except Exception:  # noqa: BLE001 - unreadable now: the defaults
        return None
    return Orders(orders.seat, orders.items, orders.text, default=True)


def _bot_orders(engine: Engine, state: Any, seat_name: str, seed: str) -> Orders | None:
    try:
        text = bot_text(engine, state, seat_name, seed)  # None: the engine has no bot
    except Exception:  # noqa: BLE001 - a bot that fails plays the defaults, logged
        log.exception("bot for seat %s failed", seat_name)
        return None
    if not text:
        return None
    try:
        orders = engine.parse_orders(state, seat_name, text)
    except OrdersInvalid:
        log.warning("bot for seat %s wrote orders that do not read: %r", seat_name, text)
        return None
    return Orders(orders.seat, orders.items, orders.text, default=True)


def what_plays(game: Game, seat: Seat, state: Any, *, away: bool | None = None,
               absence: SeatAbsence | None = None, seed: str = "") -> tuple[str, Orders | None]:
    """What a missed deadline plays for `seat` now: ("bot" | "if_miss" | "default", the
    orders, None where the engine's defaults are left to resolve_turn)."""
    engine = play.engine_for(game)
    if absence is None:
        absence = SeatAbsence.objects.filter(seat=seat).first()
    if away is None:
        rules = rules_of(game)
        away = bool(rules and rules.vacations_allowed
                    and on_vacation(seat.user_id, timezone.now()))
    wants_bot = seat.mode == Seat.Mode.BOT or (
        away and absence is not None and absence.away_choice == AwayChoice.BOT)
    if wants_bot:
        orders = _bot_orders(engine, state, seat.name, seed)
        if orders is not None:
            return "bot", orders
    orders = _if_miss_orders(engine, state, seat.name, absence)
    if orders is not None and seat.mode == Seat.Mode.ACTIVE:
        return "if_miss", orders
    return ("bot" if wants_bot else "default"), None


def if_missed_line(game: Game, seat: Seat) -> str:
    """The order card's "if you miss this deadline: ..." with what would be played."""
    engine = play.engine_for(game)
    try:
        state = engine.from_json(play.orders_state(game.pk))
        decision = engine.decision(state)
        if decision is None or seat.name not in decision.prompts:
            return ""
        absence = SeatAbsence.objects.filter(seat=seat).first() or SeatAbsence(seat=seat)
        kind, orders = what_plays(game, seat, state, absence=absence,
                                  seed=_seed(game, None))
        fallback = orders is None
        if orders is None:
            orders = engine.default_orders(state, seat.name)
    except Exception:  # noqa: BLE001 - a line on a page is never a 500
        log.exception("if-missed line for %s", seat)
        return ""
    shown = "; ".join(orders.text.splitlines()) or "no orders"
    label = {"bot": "a bot plays for you", "if_miss": "your \"if I miss\" orders are played",
             "default": "the engine's default orders are played"}[kind]
    if kind == "default" and absence.if_miss_problem:
        label += " (your \"if I miss\" orders no longer read)"
    if kind == "bot" and fallback:
        label = "a bot plays for you (this game has no bot yet: the engine's default orders)"
    return f"if you miss this deadline: {label}: {shown}"


# --- the resolution hook -------------------------------------------------------------------
@dataclass
class Plan:
    """What `at_resolution` decided: the turn postponed, or the stand-ins for missers."""

    postponed: bool = False
    stand_ins: dict[str, Orders] = field(default_factory=dict)
    how: dict[str, str] = field(default_factory=dict)

    def stand_in(self, name: str) -> Orders | None:
        return self.stand_ins.get(name)


def _seed(game: Game, turn: Turn | None) -> str:
    if turn is None:
        return f"{game.pk}:preview"
    return f"{game.pk}:{turn.number}:{turn.attempt}"


def at_resolution(game: Game, turn: Turn, engine: Engine, state: Any, now: datetime) -> Plan:
    """Called by resolve_turn (see the module's docstring). One statement when the game
    has no absence settings and no bot, "if I miss" or disorder seat."""
    # one statement decides whether there is anything to do at all
    rules_q = Rules.objects.filter(game=OuterRef("pk"))
    seats_q = Seat.objects.filter(Q(mode=Seat.Mode.BOT) | Q(absence__isnull=False),
                                  game=OuterRef("pk"))
    has_rules, has_seats = (Game.objects.filter(pk=game.pk)
                            .annotate(r=Exists(rules_q), s=Exists(seats_q))
                            .values_list("r", "s").get())
    if not (has_rules or has_seats):
        return Plan()
    rules = (rules_of(game) if has_rules else None) or Rules(game=game)
    seats = {s.name: s for s in game.seats.select_related("absence")}
    sent = turn_rows.latest_orders(turn)
    owing = [n for n in turn.owing if n in seats]
    missing = [n for n in owing if seats[n].mode == Seat.Mode.ACTIVE
               and seats[n].user_id is not None and sent.get(n, (None, None))[1] is None]
    away = {n: (rules.vacations_allowed and on_vacation(seats[n].user_id, now)) or None
            for n in missing}
    at_deadline = turn.deadline is not None and turn.deadline <= now
    if at_deadline and missing and _postpone(game, turn, rules, seats, missing, away, now):
        return Plan(postponed=True)
    plan = Plan()
    for name in owing:
        seat = seats[name]
        if name not in missing and seat.mode == Seat.Mode.ACTIVE:
            _count(seat, missed=False)
            continue
        if name in missing and not away.get(name):
            _count(seat, missed=True, rules=rules, turn=turn)  # may fall into disorder
        absence = getattr(seat, "absence", None) if _has_absence(seat) else None
        kind, orders = what_plays(game, seat, state, away=bool(away.get(name)),
                                  absence=absence, seed=_seed(game, turn))
        plan.how[name] = kind
        if orders is not None:
            plan.stand_ins[name] = orders
        if name in missing:
            play.record_log(game, "missed", f"{name} missed the deadline of turn "
                            f"{turn.number}: " + {"bot": "a bot played for it.",
                                                  "if_miss": "its \"if I miss\" orders "
                                                  "were played.",
                                                  "default": "the engine's default orders "
                                                  "were played."}[kind],
                            turn_number=turn.number)
    return plan


def _has_absence(seat: Seat) -> bool:
    try:
        seat.absence  # noqa: B018 - the reverse one-to-one, loaded by select_related
    except SeatAbsence.DoesNotExist:
        return False
    return True


def _postpone(game: Game, turn: Turn, rules: Rules, seats: dict[str, Seat],
              missing: list[str], away: dict[str, Vacation | None], now: datetime) -> bool:
    """Move the deadline for a vacation the deadlines wait for, or a grace: True if moved."""
    old = turn.deadline
    assert old is not None
    moves: list[tuple[Seat, str, datetime]] = []
    for name in missing:
        seat = seats[name]
        vac = away.get(name)
        absence = getattr(seat, "absence", None) if _has_absence(seat) else None
        choice = absence.away_choice if absence is not None else AwayChoice.IF_MISS
        if vac is not None and choice == AwayChoice.WAIT:
            left = vacation_seconds_left(rules, seat, now)
            until = min(vac.ends, now + timedelta(seconds=left))
            if until > now + timedelta(minutes=1):
                moves.append((seat, Extension.Kind.VACATION, until))
                continue
        if rules.grace_count and grace_left(rules, seat) > 0 and not Extension.objects.filter(
                seat=seat, turn=turn, kind=Extension.Kind.GRACE).exists():
            moves.append((seat, Extension.Kind.GRACE, old + timedelta(hours=rules.grace_hours)))
    if not moves:
        return False
    new = max(when for _s, _k, when in moves)
    if new <= now:
        new = now + timedelta(hours=max(1, rules.grace_hours))
    for seat, kind, _when in moves:
        Extension.objects.create(seat=seat, turn=turn, kind=kind, old_deadline=old,
                                 new_deadline=new,
                                 seconds=int((new - old).total_seconds()))
    Turn.objects.filter(pk=turn.pk).update(status=Turn.Status.OPEN, deadline=new,
                                           claimed_at=None, resolved_at=None)
    turn.status, turn.deadline = Turn.Status.OPEN, new
    from gm.accounts.timezones import format_deadline

    parts = []
    for seat, kind, _when in moves:
        if kind == Extension.Kind.GRACE:
            parts.append(f"{seat.name} used a grace extension "
                         f"({grace_left(rules, seat)} left)")
        else:
            parts.append(f"{seat.name} is away")
    text = (f"The deadline of turn {turn.number} moves to {format_deadline(new)}: "
            + "; ".join(parts) + ".")
    play.record_log(game, "grace" if any(k == Extension.Kind.GRACE for _s, k, _w in moves)
                    else "vacation-wait", text, turn_number=turn.number,
                    private={"old": old.isoformat(), "new": new.isoformat()})
    _notable(game, "grace", text)
    from gm.play.sweep import schedule_deadline

    transaction.on_commit(lambda: schedule_deadline(turn), robust=True)
    return True


def _count(seat: Seat, *, missed: bool, rules: Rules | None = None,
           turn: Turn | None = None) -> None:
    absence = seat_absence(seat)
    if not missed:
        if absence.misses or absence.streak:
            absence.misses, absence.streak = 0, []
            absence.save(update_fields=["misses", "streak"])
        return
    absence.misses += 1
    absence.streak = [*absence.streak, turn.pk] if turn is not None else absence.streak
    fields = ["misses", "streak"]
    if rules is not None and rules.misses_to_disorder and \
            absence.misses >= rules.misses_to_disorder and not absence.disorder:
        absence.disorder = True
        absence.disorder_turn = turn
        fields += ["disorder", "disorder_turn"]
        seat.mode = Seat.Mode.BOT
        seat.save(update_fields=["mode"])
        game = seat.game
        text = (f"{seat.name} missed {absence.misses} deadlines in a row and is in civil "
                "disorder: a bot plays it, and the seat is offered to substitutes.")
        play.record_log(game, "civil-disorder", text,
                        turn_number=turn.number if turn else None)
        _notable(game, "civil_disorder", text)
        transaction.on_commit(lambda: signals.seat_needs_player.send(
            sender=Game, seat=seat, reason="civil_disorder"), robust=True)
    absence.save(update_fields=fields)


def end_disorder(seat: Seat) -> None:
    """The seat has a player again (a substitute or the GM's replacement): counters reset."""
    SeatAbsence.objects.filter(seat=seat).update(misses=0, streak=[], disorder=False,
                                                 disorder_turn=None)


def back_from_disorder(submission) -> bool:
    """Orders from the player of a seat in civil disorder end it (they count from this
    turn on: the seat plays actively again). True when it ended."""
    if submission.orders is None or submission.seat.mode != Seat.Mode.BOT:
        return False  # the common case, from the seat the submission holds: no query
    with transaction.atomic():
        seat = Seat.objects.select_for_update().select_related("game").get(
            pk=submission.seat_id)
        if seat.mode != Seat.Mode.BOT or seat.user_id is None or \
                submission.author_id != seat.user_id or not SeatAbsence.objects.filter(
                    seat=seat, disorder=True).exists():
            return False
        seat.mode = Seat.Mode.ACTIVE
        seat.save(update_fields=["mode"])
        end_disorder(seat)
        text = f"{seat.name}'s player is back: the seat is out of civil disorder."
        play.record_log(seat.game, "civil-disorder-ended", text)
        _notable(seat.game, "civil_disorder", text)
    return True


def _take_back_misses(game: Game) -> list[str]:
    """Misses counted on turns set aside stop counting; a civil disorder that such a miss
    started ends (the seat is its player's again). The seats whose disorder ended."""
    live = set(Turn.objects.filter(game=game, superseded=False).values_list("pk", flat=True))
    ended: list[str] = []
    for absence in SeatAbsence.objects.select_related("seat", "disorder_turn").filter(
            seat__game=game):
        streak = [pk for pk in absence.streak if pk in live]
        fields = []
        if streak != absence.streak:
            absence.streak, absence.misses = streak, len(streak)
            fields += ["streak", "misses"]
        if absence.disorder and absence.disorder_turn_id is not None and \
                absence.disorder_turn_id not in live:
            absence.disorder, absence.disorder_turn = False, None
            fields += ["disorder", "disorder_turn"]
            seat = absence.seat
            if seat.user_id is not None and seat.mode == Seat.Mode.BOT:
                seat.mode = Seat.Mode.ACTIVE
                seat.save(update_fields=["mode"])
            ended.append(seat.name)
        if fields:
            absence.save(update_fields=fields)
    if ended:
        text = (f"The civil disorder of {', '.join(ended)} began on a turn now set aside: "
                "its player plays it again.")
        play.record_log(game, "civil-disorder-undone", text)
        _notable(game, "civil_disorder", text)
    return ended


# --- rollback: what was spent on a turn set aside is given back -------------------------
def give_back(game: Game) -> list[str]:
    """Log the extensions whose turn was set aside (they stopped counting already), and
    take back the misses counted on such turns (see _take_back_misses)."""
    _take_back_misses(game)
    back = list(Extension.objects.select_related("seat")
                .filter(seat__game=game, turn__superseded=True, returned=False))
    if not back:
        return []
    Extension.objects.filter(pk__in=[e.pk for e in back]).update(returned=True)
    names = sorted({e.seat.name for e in back if e.kind == Extension.Kind.GRACE})
    vac = sorted({e.seat.name for e in back if e.kind == Extension.Kind.VACATION})
    parts = []
    if names:
        parts.append(f"grace extensions spent on the turns set aside are given back to "
                     f"{', '.join(names)}")
    if vac:
        parts.append(f"vacation days waited on them are given back to {', '.join(vac)}")
    text = "; ".join(parts)
    text = text[0].upper() + text[1:] + "."
    play.record_log(game, "grace-returned", text)
    _notable(game, "grace", text)
    return names + vac


# --- telling people ------------------------------------------------------------------------
def _notable(game: Game, kind: str, text: str, *, users: list[int] | None = None,
             urgent: bool = False) -> None:
    transaction.on_commit(lambda: signals.notable.send(
        sender=Game, game=game, kind=kind, text=text, users=users, urgent=urgent,
        url=f"/games/{game.pk}/"), robust=True)
