"""Volunteering, offering seats, accepting, the GM's approval, and asking to leave.

A seat is offered when the absence app reports it in civil disorder
(signals.seat_needs_player, reason "civil_disorder") or when its player asks to leave
(reason "leaving"; they keep playing it until someone takes over). Volunteers for the
game's ruleset are told (a `notable` signal and a mail); the open-seats page lists every
open offer. The first eligible player to accept claims it: under the game's "auto"
policy the seat is handed over at once, under "gm" it waits for the GM's approval.
"""

from __future__ import annotations

from django.apps import apps as django_apps
from django.db import transaction
from django.utils import timezone

from games.core import registry
from gm.play import actions as play
from gm.play import signals
from gm.play.errors import ActionError, Conflict, NotAllowed
from gm.play.models import Game, Seat

from .handover import hand_over
from .models import GamePolicy, SeatHolding, SeatOffer, Volunteer
from .policy import policy_of

LIVE_GAMES = (Game.Status.RUNNING, Game.Status.PAUSED)


def _notable(game: Game, kind: str, text: str, *, users=None, urgent: bool = False,
             url: str | None = None) -> None:
    transaction.on_commit(lambda: signals.notable.send(
        sender=Game, game=game, kind=kind, text=text, users=users, urgent=urgent, url=url),
        robust=True)


# --- volunteering ------------------------------------------------------------------------
def volunteer_rulesets(user) -> list[str]:
    return list(Volunteer.objects.filter(user=user).values_list("ruleset", flat=True))


def set_volunteer(user, rulesets: list[str]) -> list[str]:
    """Replace the rulesets `user` volunteers for ("*" = any); [] stops volunteering."""
    known = set(registry.engines())
    wanted = sorted({str(r) for r in rulesets})
    bad = [r for r in wanted if r != Volunteer.ANY and r not in known]
    if bad:
        raise ActionError(f"unknown ruleset(s): {', '.join(bad)}; known: "
                          f"{', '.join(sorted(known))} or '*' for any")
    with transaction.atomic():
        Volunteer.objects.filter(user=user).exclude(ruleset__in=wanted).delete()
        for ruleset in wanted:
            Volunteer.objects.get_or_create(user=user, ruleset=ruleset)
    return wanted


def volunteers_for(game: Game) -> list[int]:
    """User ids volunteering for the game's ruleset, less those seated in it."""
    seated = set(game.seats.exclude(user=None).values_list("user_id", flat=True))
    ids = Volunteer.objects.filter(ruleset__in=[game.ruleset, Volunteer.ANY],
                                   user__is_active=True).values_list("user_id", flat=True)
    return sorted(set(ids) - seated - {game.gm_id})


# --- offering ----------------------------------------------------------------------------
def offer_seat(seat: Seat, reason: str, *, actor=None) -> SeatOffer | None:
    """Offer `seat` to substitutes; the live offer if it has one already (idempotent),
    None when the game is not running (an open game fills seats by joining)."""
    if reason not in SeatOffer.Reason.values:
        raise ActionError(f"unknown reason {reason!r}")
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=seat.game_id)
        seat = Seat.objects.select_related("user").get(pk=seat.pk)
        if game.status not in LIVE_GAMES:
            return None
        live = SeatOffer.objects.filter(seat=seat, status__in=SeatOffer.LIVE).first()
        if live is not None:
            return live
        offer = SeatOffer.objects.create(game=game, seat=seat, reason=reason,
                                         holder=seat.user)
        why = SeatOffer.Reason(reason).label
        play.record_log(game, "seat-offered",
                        f"Seat {seat.name} ({why}) is offered to substitutes.", actor=actor,
                        private={"seat": seat.name, "offer": offer.pk, "reason": reason})
        url = "/substitutes/"
        volunteers = volunteers_for(game)
        if volunteers:
            _notable(game, "substitute_offer",
                     f"seat {seat.name} needs a substitute ({game.ruleset}).",
                     users=volunteers, url=url)
            if not django_apps.is_installed("gm.notify"):
                # else the notification layer mails it, under each volunteer's budget
                _mail_offer(game, seat, offer, volunteers)
    return offer


def _mail_offer(game: Game, seat: Seat, offer: SeatOffer, user_ids: list[int]) -> None:
    """A short mail to each volunteer (under their "a new turn is open" switch)."""
    from django.contrib.auth import get_user_model

    from gm.mail import compose, outbox, prefs
    from gm.mail.models import Kind

    title = compose.header_value(game.title, 80)
    for user in get_user_model().objects.filter(pk__in=user_ids):
        if not user.email or not prefs.wants(user, Kind.TURN_OPENED):
            continue
        headers, unsubscribe = compose.headers_for(Kind.TURN_OPENED, user)
        text = (f"Seat {seat.name} of the game \"{game.title}\" ({game.ruleset}) needs a "
                f"new player ({SeatOffer.Reason(offer.reason).label}).\n\n"
                f"You volunteered as a substitute. The first to accept takes it"
                f"{' at once' if policy_of(game).approval == GamePolicy.Approval.AUTO else ' once the GM approves'}:\n"
                f"{compose.site_url('/substitutes/')}\n\n"
                f"Stop volunteering: {compose.site_url('/account/substitute/')}\n\n"
                + compose.footer(Kind.TURN_OPENED.label, unsubscribe))
        outbox.enqueue(key=f"offer:{offer.pk}:{user.pk}", kind=Kind.TURN_OPENED,
                       to=user.email, user=user, headers=headers, text=text,
                       subject=f"[{title}] seat {seat.name} needs a substitute")


def on_seat_needs_player(sender, seat: Seat, reason: str = "civil_disorder",
                         **kwargs) -> None:
    """gm.play.signals.seat_needs_player receiver (connected in apps.ready)."""
    offer_seat(seat, reason)


def open_offers(user=None) -> list[SeatOffer]:
    """Offers open to accept in running games (with games and seats loaded)."""
    return list(SeatOffer.objects.filter(status=SeatOffer.Status.OPEN,
                                         game__status__in=LIVE_GAMES)
                .select_related("game", "seat").order_by("created"))


def eligible(offer: SeatOffer, user) -> str:
    """Why `user` may not take `offer`'s seat, or ""."""
    game = offer.game
    if game.seats.filter(user=user).exists():
        return "you already have a seat in this game"
    if offer.holder_id == user.pk:
        return "you are the player leaving this seat"
    barred = play.seat_barred(game, user)
    if barred:
        return barred
    for check in play.JOIN_CHECKS:
        why = check(game, user)
        if why:
            return why
    return ""


def accept(offer_id: int, user) -> SeatOffer:
    """The first to accept claims the offer; under the "auto" policy they take the seat
    now, under "gm" it waits for the GM. Refused when someone was first."""
    with transaction.atomic():
        offer = (SeatOffer.objects.select_for_update(of=("self",)).select_related("game", "seat")
                 .filter(pk=offer_id).first())
        if offer is None:
            raise ActionError("there is no such offer")
        if offer.status != SeatOffer.Status.OPEN or offer.game.status not in LIVE_GAMES:
            raise Conflict("someone else took this seat first, or it is no longer offered")
        why = eligible(offer, user)
        if why:
            raise Conflict(why)
        game, seat = offer.game, offer.seat
        if policy_of(game).approval == GamePolicy.Approval.AUTO:
            hand_over(game, seat.name, user, actor=user, how=SeatHolding.How.SUBSTITUTE,
                      reason="substitute (no approval needed in this game)", offer=offer)
            offer.refresh_from_db()
            return offer
        offer.status = SeatOffer.Status.CLAIMED
        offer.taker = user
        offer.claimed = timezone.now()
        offer.save(update_fields=["status", "taker", "claimed"])
        play.record_log(game, "seat-claimed", f"{user.username} offered to take seat "
                        f"{seat.name}; the GM decides.", actor=user,
                        private={"seat": seat.name, "offer": offer.pk})
        gms = [game.gm_id, *game.co_gms.values_list("pk", flat=True)]
        _notable(game, "substitute_offer", f"{user.username} asks to take seat {seat.name}: "
                 "approve or refuse on the seats page.", users=gms, urgent=True,
                 url=f"/games/{game.pk}/seats/")
    return offer


def _gm_offer(offer_id: int, actor) -> SeatOffer:
    offer = (SeatOffer.objects.select_for_update(of=("self",)).select_related("game", "seat", "taker")
             .filter(pk=offer_id).first())
    if offer is None:
        raise ActionError("there is no such offer")
    if not offer.game.is_gm(actor):
        raise NotAllowed("only this game's GM, a co-GM or a site admin can do that")
    return offer


def approve(offer_id: int, actor, reason: str = "") -> Seat:
    """The GM lets the volunteer who claimed the offer take the seat."""
    with transaction.atomic():
        offer = _gm_offer(offer_id, actor)
        if offer.status != SeatOffer.Status.CLAIMED or offer.taker is None:
            raise Conflict("nobody has accepted this offer yet")
        return hand_over(offer.game, offer.seat.name, offer.taker, actor=actor,
                         how=SeatHolding.How.SUBSTITUTE,
                         reason=reason or "substitute approved by the GM", offer=offer)


def refuse(offer_id: int, actor, reason: str = "") -> SeatOffer:
    """The GM turns the claimant down: the offer is open again for the next volunteer."""
    with transaction.atomic():
        offer = _gm_offer(offer_id, actor)
        if offer.status != SeatOffer.Status.CLAIMED:
            raise Conflict("nobody has accepted this offer yet")
        who = offer.taker.username if offer.taker else "?"
        offer.status, offer.taker, offer.claimed = SeatOffer.Status.OPEN, None, None
        offer.save(update_fields=["status", "taker", "claimed"])
        play.record_log(offer.game, "seat-claim-refused", f"The GM did not give seat "
                        f"{offer.seat.name} to {who}; it is offered again.", actor=actor,
                        reason=reason, private={"offer": offer.pk})
    return offer


def withdraw(offer_id: int, actor, reason: str = "") -> SeatOffer:
    """The GM (or the leaving player, for their own request) takes the offer back."""
    with transaction.atomic():
        offer = (SeatOffer.objects.select_for_update(of=("self",)).select_related("game", "seat")
                 .filter(pk=offer_id).first())
        if offer is None:
            raise ActionError("there is no such offer")
        own = (offer.reason == SeatOffer.Reason.LEAVING and offer.holder_id == actor.pk
               and offer.seat.user_id == actor.pk)
        if not (own or offer.game.is_gm(actor)):
            raise NotAllowed("only the GM, or the player who asked to leave, can do that")
        if offer.status not in SeatOffer.LIVE:
            raise Conflict("this offer is already closed")
        offer.status, offer.closed = SeatOffer.Status.WITHDRAWN, timezone.now()
        offer.save(update_fields=["status", "closed"])
        play.record_log(offer.game, "seat-offer-withdrawn", f"Seat {offer.seat.name} is no "
                        "longer offered to substitutes.", actor=actor, reason=reason,
                        private={"offer": offer.pk})
    return offer


# --- leaving -----------------------------------------------------------------------------
def ask_to_leave(game: Game, user) -> SeatOffer:
    """The player asks to leave: their seat is offered; they keep it until taken over."""
    seat = game.seat_of(user)
    if seat is None:
        raise NotAllowed("you have no seat in this game")
    if game.status not in LIVE_GAMES:
        raise Conflict("only a running game's seats are handed over; before the start "
                       "ask the GM, after the end there is nothing to leave")
    if SeatOffer.objects.filter(seat=seat, status__in=SeatOffer.LIVE).exists():
        raise Conflict(f"seat {seat.name} is already offered to substitutes")
    with transaction.atomic():
        offer = offer_seat(seat, SeatOffer.Reason.LEAVING, actor=user)
        if offer is None:
            raise Conflict("this game is not running")
        _notable(game, "seat_left", f"{user.username} is leaving seat {seat.name}; they "
                     "play it until a substitute takes over.",
                     url=f"/games/{game.pk}/seats/")
    return offer


def my_leave_offer(game: Game, user) -> SeatOffer | None:
    return SeatOffer.objects.filter(game=game, holder=user, seat__user=user,
                                    reason=SeatOffer.Reason.LEAVING,
                                    status__in=SeatOffer.LIVE).first()


def gm_offer_seat(game: Game, actor, seat_name: str) -> SeatOffer:
    """The GM offers a seat to substitutes by hand (e.g. a player who vanished)."""
    if not game.is_gm(actor):
        raise NotAllowed("only this game's GM, a co-GM or a site admin can do that")
    seat = game.seats.filter(name=seat_name).first()
    if seat is None:
        raise ActionError(f"this game has no seat {seat_name!r}")
    offer = offer_seat(seat, SeatOffer.Reason.GM, actor=actor)
    if offer is None:
        raise Conflict("only a running game's seats are offered")
    return offer
