from gm.play.models import Turn


def test_toy_game_resolves_turns(race, play_turn):
    play_turn(race, {"P1": "MOVE 2", "P2": "MOVE 1"})
    play_turn(race, {"P1": "MOVE 3", "P2": "REST"})
    assert race.records.filter(superseded=False).count() == 2
    assert race.current_turn().number == 3
    assert race.current_turn().status == Turn.Status.OPEN
    assert race.state["energy"] == {"P1": 4, "P2": 8}
