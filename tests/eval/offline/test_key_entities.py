"""Offline key-entity transcription accuracy: entities of the intended caller text looked for
in the STT text on normalised values."""

from __future__ import annotations

from voxbench.eval.context import ConversationContext
from voxbench.eval.offline import rate_offline
from voxbench.eval.offline._entities import extract
from voxbench.eval.offline.key_entities import key_entities_offline


def _ctx(pairs: list[tuple[str, str]]) -> ConversationContext:
    ctx = ConversationContext(record_id="ke")
    ctx.intended_user_turns = {i: a for i, (a, _) in enumerate(pairs)}
    ctx.transcribed_user_turns = {i: b for i, (_, b) in enumerate(pairs)}
    return ctx


def _values(text: str) -> list[tuple[str, str]]:
    return [(e.type, e.value) for e in extract(text)]


def test_extracts_the_kinds_eva_counts() -> None:
    got = _values(
        "My confirmation is Z K three F F W and my last name is Rodriguez. Move me from AUS to Boston on "
        "March twenty fifth, arriving by four p m, for under one hundred twenty dollars, seat twenty one A."
    )
    kinds = {k for k, _ in got}
    assert {"code", "name", "airport_code", "date", "time", "amount", "seat"} <= kinds
    assert ("code", "Z K three F F W (ZK3FFW)") in got
    assert ("amount", "one hundred twenty dollars ($120)") in got
    assert not any(v.startswith("My") or v == "Move" for _, v in got)


def test_clean_transcript_scores_1() -> None:
    res = key_entities_offline(
        _ctx(
            [
                (
                    "My code is Z K three F F W, last name Rodriguez.",
                    "My code is ZK3FFW, last name Rodriguez.",
                ),
                ("It was one hundred twenty dollars at eight fifty five a m.", "It was $120 at 8:55 a.m."),
            ]
        )
    )
    assert res.score == 1.0 and res.details["evidence"] == []


def test_misheard_entity_lowers_the_score() -> None:
    res = key_entities_offline(
        _ctx(
            [
                (
                    "My code is Z K three F F W, last name Rodriguez.",
                    "My code is ZK3FF, last name Rodriguez.",
                ),
                ("Keep it under one hundred fifteen dollars.", "Keep it under $150."),
            ]
        )
    )
    assert res.details["per_turn_score"] == {0: 0.5, 1: 0.0}
    assert res.score == 0.25
    assert any("ZK3FFW" in e["claim"] for e in res.details["evidence"])


def test_code_said_twice_heard_once_is_wrong() -> None:
    res = key_entities_offline(
        _ctx([("It is B five O D Z X, that's B five O D Z X.", "It is BODZX. That's B5ODZX.")])
    )
    assert res.score == 0.0


def test_turns_without_entities_are_excluded() -> None:
    res = key_entities_offline(
        _ctx([("Hi, I need help.", "Hi, I need help."), ("Last name Patel.", "Last name Patel.")])
    )
    assert res.details["per_turn_score"][0] == -1.0 and res.score == 1.0


def test_no_entities_at_all_skips() -> None:
    res = rate_offline("transcription_accuracy_key_entities", _ctx([("Goodbye.", "Goodbye.")]))
    assert res is not None and res.skipped


def test_entities_before_a_cut_off_tag_are_skipped() -> None:
    ctx = _ctx([("My code is Z K three F F W [likely cut off by assistant] and my name is Rodriguez.",
                 "My code is and my name is Rodriguez.")])  # fmt: skip
    res = key_entities_offline(ctx)
    ents = res.details["per_turn_entities"][0]
    assert [(e["value"].split(" (")[0], e["skipped"]) for e in ents] == [
        ("Z K three F F W", True),
        ("Rodriguez", False),
    ]
    assert res.score == 1.0


def test_november_in_a_spelled_code_is_nato_not_a_month() -> None:
    from voxbench.eval.offline._values import spoken_values

    assert [v.key for v in spoken_values("Confirmation number is N5FZPR.")] == ["c:n5fzpr"]
    assert [v.key for v in spoken_values("It leaves on November 5 at noon.")] == ["d:1105", "t:1200"]


def test_a_spoken_label_before_a_known_code_is_supported() -> None:
    from voxbench.eval.offline._values import code_supported, data_keys

    known = data_keys({"interaction_id": "INT-000001"})
    assert code_supported("c:idint1", known)  # "interaction I D, I N T zero ... one"
    assert not code_supported("c:idint2", known)


def test_a_measure_after_spelled_letters_is_not_part_of_a_code() -> None:
    from voxbench.eval.offline._values import spoken_values

    assert [v.key for v in spoken_values("a Mac O S, fourteen inch model")] == ["n:14"]
    assert [v.key for v in spoken_values("gate C 12 please")] == ["c:c12"]


def test_clock_times_as_an_stt_writes_them() -> None:
    """An STT writes "o'clock" as "o clock" or "ock", and a time said digit by digit as digits
    with dashes: the time is the same one the words carry."""
    from voxbench.eval.offline._values import spoken_values

    def keys(s: str) -> list[str]:
        return [v.key for v in spoken_values(s)]

    assert keys("the 5-2-0 p.m. flight") == keys("the five two zero p m flight") == ["t:1720"]
    assert keys("the 10 ock AM flight") == keys("the 10 o'clock AM flight") == ["t:1000"]
    assert keys("at three o clock") == ["n:3"]  # "o" is not a zero here
    assert keys("gate 5 2 0") != ["t:1720"]  # digits without am/pm stay a code


def test_a_time_heard_digit_by_digit_is_correct() -> None:
    ctx = ConversationContext(record_id="t")
    ctx.intended_user_turns = {0: "Yes, move me to the five two zero p m flight to Seattle."}
    ctx.transcribed_user_turns = {0: "Yes, move me to the 5-2-0 p.m. flight to Seattle."}
    res = key_entities_offline(ctx)
    assert res.score == 1.0


def _turn_ok(meant: str, heard: str) -> bool:
    res = key_entities_offline(_ctx([(meant, heard)]))
    return res.score == 1.0


def test_a_code_spelled_in_nato_words_is_one_code() -> None:
    """ "Kilo seven Papa three Quebec Foxtrot" is a code, not a seat "three Quebec" inside it."""
    got = _values("My code is Kilo seven Papa three Quebec Foxtrot, last name Patel.")
    assert ("code", "Kilo seven Papa three Quebec Foxtrot (K7P3QF)") in got
    assert not any(k == "seat" for k, _ in got)
    meant = "My code is Kilo seven Papa three Quebec Foxtrot."
    assert _turn_ok(meant, "My code is K7P3QF.")
    assert _turn_ok(meant, "My code is kilo 7 papa 3 Quebec foxtrot.")
    assert not _turn_ok(meant, "My code is K7P3QS.")
    assert not any(k == "code" for k, _ in _values("I flew Delta to Victoria."))  # two words: not a code


def test_a_seat_like_tail_of_a_spelled_code_is_the_code() -> None:
    got = _values("My member ID is M G H zero four B.")
    assert [k for k, _ in got] == ["code"]
    assert _turn_ok("My member ID is M G H zero four B.", "My member ID is MGH04B.")
    assert _turn_ok("My member ID is M G H zero four B.", "My member ID is MGH-04B.")
    assert not _turn_ok("My member ID is M G H zero four B.", "My member ID is MGH-04D.")
    assert ("seat", "twenty one A (21A)") in _values("Seat twenty one A, please.")


def test_a_written_code_broken_by_a_hyphen_is_one_code() -> None:
    from voxbench.eval.offline._values import spoken_values

    assert [v.key for v in spoken_values("it is ZK3-FFW")] == ["c:zk3ffw"]
    assert [v.key for v in spoken_values("A-S-Q-N-J-N")] == ["c:asqnjn"]


def test_spelled_letters_heard_as_the_word_they_spell() -> None:
    """The STT may write a spelling as the word ("L E W I S" -> "LEWIS"); that word is no
    evidence when the caller also said it ("Lewis, L E W I S" heard "Lewis, L-E-W-I-F")."""
    assert _turn_ok("The last name is spelled L E W I S.", "The last name is spelled LEWIS.")
    assert not _turn_ok("The last name is spelled L E W I S.", "The last name is spelled LOUIS.")
    assert not _turn_ok("My last name is Lewis, L E W I S.", "My last name is Lewis, L-E-W-I-F.")


def test_dates_and_times_read_in_their_spoken_forms() -> None:
    assert ("date", "twenty fifth of March") in [(k, v.removeprefix("the ")) for k, v in _values(
        "I fly on the twenty fifth of March."
    )]  # fmt: skip
    assert _turn_ok("I fly on the twenty fifth of March.", "I fly on the 25th of March.")
    assert not _turn_ok("I fly on the twenty fifth of March.", "I fly on the 5th of March.")
    assert _turn_ok("I land at midnight.", "I land at 12 AM.")
    assert not _turn_ok("I land at midnight.", "I land at 12 PM.")
    assert _turn_ok("The code is double seven X Y Z.", "The code is 77XYZ.")


def test_a_clock_time_heard_without_its_am_pm_is_heard() -> None:
    """EVA's people count "5:00 PM" heard "5" and "three o'clock" heard "3:00" as heard; a
    different hour, or the other half of the day said, is not."""
    assert _turn_ok("Arriving by 4 PM if possible.", "Arriving by four o'clock if possible.")
    assert _turn_ok("the 3 o'clock flight", "the 3:00 flight")
    assert _turn_ok("I leave at seven thirty PM.", "I leave at 7:30.")
    assert not _turn_ok("I leave at seven thirty PM.", "I leave at 7:30 AM.")
    assert not _turn_ok("the 3 o'clock flight", "the 2 o'clock flight")


def test_digits_said_one_by_one_keep_their_leading_zero() -> None:
    meant = "The card ends in zero one two three."
    assert _turn_ok(meant, "The card ends in 0123.")
    assert _turn_ok(meant, "The card ends in 0 1 2 3.")
    assert not _turn_ok(meant, "The card ends in 1 2 3.")
    assert not _turn_ok(meant, "The card ends in 0132.")
