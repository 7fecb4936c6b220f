"""Monsters (reactions, slashes, the d10 combat, arrows, the Ring of Blinding) and the
giant spider."""

from __future__ import annotations

from typing import Any

from .context import Ctx
from .exits import flee_back

REACTION_TEXT = {"combat": "it fights", "flee": "it runs away",
                 "slash-combat": "it slashes, then fights", "escape": "you get away",
                 "slash-escape": "it slashes as you get away"}


def article(name: str) -> str:
    return f"{'an' if name[0].lower() in 'aeiou' else 'a'} {name}"


def monster_answers(ctx: Ctx, seat: str, ambush: bool, no_escape: bool) -> set[str]:
    ch = ctx.ch(seat)
    allowed = {"attack", "escape"} if ambush else {"attack", "wait", "escape"}
    if not ambush and "blinding" in ch["rings"]:
        allowed.add("use:blinding")
    if not ambush and ch["arrows"] > 0:
        allowed.add("shoot")
    if no_escape or ch["prev"] is None:
        allowed.discard("escape")
    return allowed


def describe_choices(allowed: set[str]) -> list[str]:
    names = {"attack": "ATTACK", "wait": "WAIT", "escape": "ESCAPE", "shoot": "SHOOT",
             "use:blinding": "USE RING OF BLINDING"}
    return [names[a] for a in ("attack", "wait", "escape", "shoot", "use:blinding")
            if a in allowed]


def meet_monster(ctx: Ctx, seat: str, kind: str, *, ambush: bool = False,
                 no_escape: bool = False) -> None:
    """A monster arises: fight it now if an order says how, otherwise it waits for a
    decision next turn and the hero's turn ends here."""
    ch = ctx.ch(seat)
    m = ctx.content.monsters[kind]
    monster = {"type": "monster", "kind": kind, "life": m["life"], "ambush": ambush,
               "no_escape": no_escape, "square": ch["pos"]}
    allowed = monster_answers(ctx, seat, ambush, no_escape)
    order = ctx.answer(seat, "monster", {"what": kind, "ambush": ambush}, allowed=allowed)
    if order is None:
        ch["pending"] = monster
        ctx.stopped.add(seat)
        ctx.say(seat, f"{article(m['name'])[0].upper()}{article(m['name'])[1:]} ({m['life']} Life Points) bars the way. No order covers "
                      f"it: decide next turn ({', '.join(describe_choices(allowed))}).")
        return
    resolve_monster(ctx, seat, monster, order)


def resolve_monster(ctx: Ctx, seat: str, monster: dict[str, Any], order: dict[str, Any]
                    ) -> None:
    ch = ctx.ch(seat)
    m = ctx.content.monsters[monster["kind"]]
    name = m["name"]
    op = order["op"]
    if op == "use":
        ctx.use_ring(seat, "blinding", f"on the {name}")
        ctx.say(seat, f"The {name} reels about blinded and is overcome.", public=True)
        return
    choice = op
    if op == "shoot":
        need = 6 if m["undead"] else 4
        rolls = []
        for _ in range(min(3, ch["arrows"])):
            roll = ctx.die(seat, "arrow", 6)
            ch["arrows"] -= 1
            rolls.append(roll)
            if roll >= need:
                monster["life"] -= 1
            if monster["life"] <= 0:
                break
        hits = sum(1 for r in rolls if r >= need)
        ctx.say(seat, f"Shoots {len(rolls)} arrow{'s' if len(rolls) != 1 else ''} at the "
                      f"{name} (d6 {', '.join(map(str, rolls))}, hits on {need}+): {hits} "
                      f"hit{'s' if hits != 1 else ''}, {ch['arrows']} arrows left.")
        if monster["life"] <= 0:
            ctx.say(seat, f"The {name} falls to the arrows.", public=True)
            return
        choice = "attack"
    react(ctx, seat, monster, choice)


def react(ctx: Ctx, seat: str, monster: dict[str, Any], choice: str) -> None:
    m = ctx.content.monsters[monster["kind"]]
    name = m["name"]
    roll = ctx.die(seat, "reaction", 6)
    mod = (1 if ctx.ability(seat) == "wits" else 0) - m["menace"]

    def reaction_of(r: int) -> str:
        return ctx.content.reactions[choice][min(6, max(1, r + mod)) - 1]

    roll = ctx.lucky(seat, "reaction", "reaction", 6, roll,
                     lambda r: reaction_of(r) not in ("flee", "escape"), "reaction")
    total = min(6, max(1, roll + mod))
    reaction = reaction_of(roll)
    shown = f"{roll}{mod:+d} = {total}" if mod else str(roll)
    ctx.say(seat, f"{choice.capitalize()} against the {name} ({monster['life']} Life "
                  f"Points): reaction d6 {shown}, {REACTION_TEXT[reaction]}.", roll=roll,
            reaction=reaction)
    if reaction == "flee":
        ctx.say(seat, f"The {name} flees into the dark.")
        return
    if reaction.startswith("slash"):
        damage = max(0, m["slash"] - (1 if ctx.ability(seat) == "plate" else 0))
        if not ctx.hurt(seat, damage, f"the {name}'s slash"):
            return
    if reaction.endswith("combat"):
        fight(ctx, seat, monster)
        return
    if not flee_back(ctx, seat, f"from the {name}"):
        ctx.say(seat, "Cannot get away, and must wait and see.")
        react(ctx, seat, monster, "wait")


def fight(ctx: Ctx, seat: str, monster: dict[str, Any]) -> None:
    """The d10 combat until one side falls."""
    ch = ctx.ch(seat)
    m = ctx.content.monsters[monster["kind"]]
    rolls: list[int] = []
    lost = 0

    def flush(outcome: str) -> None:
        ctx.say(seat, f"Combat with the {m['name']}: d10 rolls {', '.join(map(str, rolls))}; "
                      f"loses {lost} Life Point{'s' if lost != 1 else ''}; {outcome}.",
                rolls=list(rolls))

    while True:
        roll = ctx.die(seat, "combat", 10)
        roll = ctx.lucky(seat, "combat", "combat", 10, roll, lambda r: ctx.content.combat[r - 1][0] > 0,
                         "combat")
        rolls.append(roll)
        hero_loss, monster_loss = ctx.content.combat[roll - 1]
        if roll == 9 and ctx.ability(seat) == "berserk":
            monster_loss = 2
        monster["life"] -= monster_loss
        if hero_loss:
            ch["life"] -= hero_loss
            lost += hero_loss
            if ch["life"] <= 0:
                flush(f"the {m['name']} wins")
                ctx.kill(seat, f"slain by {article(m['name'])}")
                return
        if monster["life"] <= 0:
            flush(f"the {m['name']} is slain ({ch['life']} Life Points left)")
            ctx.say(seat, f"{ch['name']} slays {article(m['name'])}.", public=True)
            return
        if hero_loss and ch["potion"] and ctx.answer(seat, "hurt", {}, plain=False):
            flush(f"still fighting with {ch['life']} Life Points")
            rolls, lost = [], 0
            ctx.drink(seat)
            if ch["status"] != "in":
                return


# -- the giant spider ----------------------------------------------------------------

def spider_answers(ctx: Ctx, seat: str, no_escape: bool) -> set[str]:
    allowed = {"fight", "attack", "flee", "escape"}
    if ctx.ch(seat)["arrows"] > 0:
        allowed.add("shoot")
    if no_escape or ctx.ch(seat)["prev"] is None:
        allowed -= {"flee", "escape"}
    return allowed


def meet_spider(ctx: Ctx, seat: str, *, no_escape: bool = False) -> None:
    ch = ctx.ch(seat)
    allowed = spider_answers(ctx, seat, no_escape)
    order = ctx.answer(seat, "spider", {}, allowed=allowed)
    if order is None:
        ch["pending"] = {"type": "spider", "no_escape": no_escape, "square": ch["pos"]}
        ctx.stopped.add(seat)
        ctx.say(seat, "A giant spider drops from the ceiling. No order covers it: decide next "
                      "turn (FIGHT" + (", FLEE" if "flee" in allowed else "") +
                      (", SHOOT" if "shoot" in allowed else "") + ").")
        return
    spider_choice(ctx, seat, order)


def spider_choice(ctx: Ctx, seat: str, order: dict[str, Any]) -> None:
    op = {"attack": "fight", "escape": "flee"}.get(order["op"], order["op"])
    if op == "flee":
        roll = ctx.die(seat, "spider/flee", 6)
        roll = ctx.lucky(seat, "spider", "spider/flee", 6, roll, lambda r: r < 3,
                         "flight from the spider")
        if roll >= 3:
            ctx.say(seat, f"Tries to flee the spider: d6 rolls {roll}, free of the webs.",
                    roll=roll)
            if flee_back(ctx, seat, "from the spider"):
                return
            ctx.say(seat, "But there is nowhere to run.")
        else:
            ctx.say(seat, f"Tries to flee the spider: d6 rolls {roll}, caught in the webs.",
                    roll=roll)
        op = "fight"
    spider_round(ctx, seat, shoot=(op == "shoot"))


def spider_round(ctx: Ctx, seat: str, shoot: bool | None = None) -> None:
    """One round against the spider: win and it is dead, lose and lose 1 Life Point and
    stay bound to fight again next turn."""
    ch = ctx.ch(seat)
    if shoot is None:
        order = ctx.answer(seat, "spider", {}, allowed={"shoot"})
        shoot = order is not None
    if shoot and ch["arrows"] > 0:
        ch["arrows"] -= 1
        roll = ctx.die(seat, "spider/arrow", 12)
        roll = ctx.lucky(seat, "spider", "spider/arrow", 12, roll, lambda r: r > 6,
                         "arrow at the spider")
        won = roll <= 6
        ctx.say(seat, f"Shoots at the giant spider: d12 rolls {roll} (kills on 1-6), "
                      f"{ch['arrows']} arrows left.", roll=roll)
    else:
        roll = ctx.die(seat, "spider/fight", 6)
        roll = ctx.lucky(seat, "spider", "spider/fight", 6, roll, lambda r: r < 4,
                         "fight with the spider")
        won = roll >= 4
        ctx.say(seat, f"Fights the giant spider: d6 rolls {roll} (wins on 4-6).", roll=roll)
    if won:
        ch["spider"] = False
        ctx.say(seat, f"{ch['name']} kills a giant spider.", public=True)
        return
    ch["spider"] = True
    if ctx.hurt(seat, 1, "the spider's bite"):
        ctx.say(seat, "Still wrapped in the webs: must fight the spider again next turn.")
        ctx.stopped.add(seat)
