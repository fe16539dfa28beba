"""people.yaml's structure is the pydantic model ``fdegym_env.core.schema.PeopleFile``: unknown
fields, wrong types and missing keys fail naming the file, the field (with the person's and topic's
ids) and the closest known field; ``fdegym schema people`` prints its JSON Schema."""

import copy
import json

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.core.schema import PeopleFile, json_schema
from fdegym_env.people.spec import PERSON_FIELDS, TOP_FIELDS, TOPIC_FIELDS, validate_people

BASE = {"clock": {"start": "2026-03-02T09:00"},
        "people": [{"id": "ann", "name": "Ann", "role": "Ops", "blurb": "Runs ops.",
                    "topics": [{"id": "refunds", "answer": "Refunds take 5 days.", "triggers": ["refund"]}]},
                   {"id": "bob", "name": "Bob", "role": "Legal", "blurb": "Signs off."}],
        "inbox": [{"id": "m1", "from": "bob", "text": "Hello.", "after_hours": 2}]}


def _with(edit):
    data = copy.deepcopy(BASE)
    edit(data)
    return data


@pytest.mark.parametrize("edit, says", [
    (lambda d: d["people"][0].__setitem__("patients", 3),
     "people[0] (ann).patients: unknown field. Did you mean 'patience'?"),
    (lambda d: d["people"][0]["topics"][0].__setitem__("trigers", ["x"]),
     "people[0] (ann).topics[0] (refunds).trigers: unknown field. Did you mean 'triggers'?"),
    (lambda d: d.__setitem__("inboxes", []), "inboxes: unknown field. Did you mean 'inbox'?"),
    (lambda d: d["inbox"][0].__setitem__("frm", "bob"), "inbox[0] (m1).frm: unknown field. Did you mean 'from'?"),
    (lambda d: d["people"][0]["topics"][0].pop("answer"), "people[0] (ann).topics[0] (refunds).answer: missing field"),
    (lambda d: d["people"][1].pop("role"), "people[1] (bob).role: missing field"),
    (lambda d: d["inbox"][0].pop("from"), "inbox[0] (m1).from: missing field"),
    (lambda d: d["people"][0]["topics"][0].__setitem__("answer", 42),
     "people[0] (ann).topics[0] (refunds).answer: Input should be a valid string (got 42)"),
    (lambda d: d["people"][0].__setitem__("patience", "six"),
     "people[0] (ann).patience: Input should be a valid integer (got 'six')"),
    (lambda d: d["people"][0].__setitem__("off_limits", "yes"),
     "people[0] (ann).off_limits: Input should be a valid boolean (got 'yes')"),
    (lambda d: d["people"][0]["topics"][0].__setitem__("triggers", "refund"),
     "people[0] (ann).topics[0] (refunds).triggers: Input should be a valid list (got 'refund')"),
    (lambda d: d["clock"].__setitem__("start", "Monday"), "clock.start: expected a clock stamp like"),
    (lambda d: d["people"][1].__setitem__("gone_at", "2026-03-05"), "people[1] (bob).gone_at: expected a clock stamp"),
    (lambda d: d.__setitem__("trial", {"max_runs": 2, "costs": [0.1]}),
     "trial.costs: unknown field. Did you mean 'cost'?"),
    (lambda d: d["people"][1].update(off_limits=True),
     "people[1] (bob): an off_limits person without topics needs 'off_limits_reply'"),
    (lambda d: d.pop("people"), "needs 'people': a non-empty list of people"),
    (lambda d: d.__setitem__("people", []), "people: List should have at least 1 item"),
])
def test_a_structural_mistake_names_the_file_and_the_field(edit, says):
    with pytest.raises(TaskFormatError) as e:
        validate_people(_with(edit), "tasks/x/people.yaml")
    msg = str(e.value)
    assert msg.startswith("tasks/x/people.yaml: ") and says in msg, msg


@pytest.mark.parametrize("edit, says", [
    (lambda d: d["people"][1].__setitem__("id", "ann"), "people[1] (ann): duplicate id 'ann'"),
    (lambda d: d["inbox"][0].__setitem__("from", "bb"), "inbox[0] (m1): from: unknown person 'bb'. Did you mean 'bob'?"),
    (lambda d: d["people"][0]["topics"][0].__setitem__("triggers", ["refund(s"]),
     "people[0] (ann).topics[0] (refunds).triggers[0]: not a valid regular expression"),
    (lambda d: d["people"][0]["topics"][0].__setitem__("requires", ["[order"]),
     "people[0] (ann).topics[0] (refunds).requires[0]: not a valid regular expression"),
])
def test_what_refers_to_what_is_checked_after_the_model(edit, says):
    with pytest.raises(TaskFormatError) as e:
        validate_people(_with(edit), "tasks/x/people.yaml")
    assert str(e.value).startswith("tasks/x/people.yaml: ") and says in str(e.value), str(e.value)


def test_a_valid_file_is_returned_as_written_with_defaults():
    out = validate_people(_with(lambda d: None), "people.yaml")
    assert out["people"][1]["topics"] == [] and out["show_budget"] is True and out["trial"] == {}
    assert "patience" not in out["people"][0], "unset fields stay absent (the engine reads 'in' and .get)"
    assert out["inbox"][0]["after_hours"] == 2 and isinstance(out["inbox"][0]["after_hours"], int)


def test_the_field_lists_come_from_the_model():
    assert TOP_FIELDS == set(PeopleFile.model_fields)
    assert {"away_until", "dont_know", "topics"} <= PERSON_FIELDS
    assert {"answer", "examples", "keywords"} <= TOPIC_FIELDS


def test_the_json_schema_of_people_yaml(capsys):
    from fdegym_env.cli.main import main
    s = json_schema("people")
    assert s["title"] == "people.yaml" and s["additionalProperties"] is False
    person = s["$defs"]["Person"]
    assert person["additionalProperties"] is False and set(person["required"]) == {"id", "name", "role", "blurb"}
    assert set(s["$defs"]["Topic"]["required"]) == {"id", "answer"}
    assert "from" in s["$defs"]["InboxMessage"]["properties"]
    assert main(["schema", "people"]) == 0
    assert json.loads(capsys.readouterr().out)["title"] == "people.yaml"
