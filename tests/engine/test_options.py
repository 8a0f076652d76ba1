import pytest

from pokerzoo.envs.engine.options import ConfigError, Option, OptionSet, num_players_option


def make_set():
    def check(config):
        if config["num_players"] > 4 and config["deck"] == "34":
            raise ValueError("deck '34' is for 3-4 players")

    return OptionSet(
        num_players_option(2, 10, 4),
        Option("deck", "54", "which deck", choices=("54", "34")),
        Option("rate", 2.0, "a multiplier", kind=float, low=1),
        Option("flag", False, "a switch", kind=bool),
        check=check,
    )


def test_defaults_and_values():
    options = make_set()
    assert options.validate({}) == {"num_players": 4, "deck": "54", "rate": 2.0, "flag": False}
    assert options.validate({"rate": 3})["rate"] == 3.0  # ints are accepted for floats


@pytest.mark.parametrize(
    "given, message",
    [
        ({"num_players": 11}, r"num_players=11 is out of range; expected int in 2..10"),
        ({"num_players": "4"}, r"num_players='4': expected int"),
        ({"num_players": True}, r"expected int"),
        ({"deck": "52"}, r"deck='52' is not allowed; expected one of '54', '34'"),
        ({"flag": 1}, r"flag=1: expected bool"),
        ({"rate": 0.5}, r"rate=0.5 is out of range"),
        ({"players": 3}, r"unknown option players; known options: num_players, deck, rate, flag"),
        ({"num_players": 6, "deck": "34"}, r"deck '34' is for 3-4 players"),
    ],
)
def test_errors_name_the_option_and_the_allowed_values(given, message):
    with pytest.raises(ConfigError, match=message):
        make_set().validate(given)


def test_describe_lists_every_option():
    rows = list(make_set().describe())
    assert [r[0] for r in rows] == ["num_players", "deck", "rate", "flag"]
    assert rows[0][2] == "int in 2..10"


def test_keys_that_are_not_strings_are_named_in_the_error():
    """A YAML file holding only ``?`` reads as ``{None: None}``: an unknown option, not a crash."""
    options = OptionSet(Option("seed", 0, "a seed", kind=int))
    with pytest.raises(ConfigError, match=r"unknown options 3, None; known options: seed"):
        options.validate({None: None, 3: 1})
