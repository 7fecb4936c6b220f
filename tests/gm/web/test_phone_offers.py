"""What the order form adds for a phone player: a form's example to tap, the engine's
further prompt lists (Combat Dice's items and spells), both checked without a browser."""

from __future__ import annotations

from games.core.replay import run_setup, secret_rng
from games.dungeonquest.engine import ENGINE as QUEST
from gm.web import prompts
from gm.web.views import prompt_lists


def test_only_a_form_example_that_parses_alone_is_offered_to_tap():
    state = run_setup(QUEST, ["P1"], QUEST.new_game_options({"hero_choice": "assigned"}),
                      secret_rng("ef" * 32, None)).state
    prompt = QUEST.decision(state).prompts["P1"]
    broken = "MOVE TO <square> — the shortest way (e.g. MOVE TO Z99)"
    offers = prompts.offers(QUEST, state, "P1", {**prompt,
                                                 "choices": [*prompt["choices"], broken]})
    tappable = {f.example for f in offers.form_help if f.example_parses}
    assert "IF MONSTER TROLL THEN ESCAPE ELSE ATTACK" in tappable
    assert "MOVE TO Z99" not in tappable  # shown as text, never as a button
    assert all(prompts.parses(QUEST, state, "P1", line) == "" for line in tappable)


def test_prompt_lists_are_the_engines_further_lists_of_text():
    prompt = {"title": "Arm", "help": "h", "choices": ["EQUIP SWORD"], "example": "x",
              "pending": True, "items": ["Sword (standard)", ""], "spells": [],
              "spell_notes": ["Heal (2d6+2)"], "table": {"a": 1}}
    assert prompt_lists(prompt) == [("Items", ["Sword (standard)"]),
                                    ("Spell notes", ["Heal (2d6+2)"])]
    assert prompt_lists(None) == []
