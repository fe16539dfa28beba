"""fdegym_env.tasklib: replay's output checks, one evaluation for grade and trial, time helpers,
the sampler context and overlay solutions."""

from __future__ import annotations

import random
import shutil
from datetime import datetime
from types import SimpleNamespace

import pytest

from fdegym_env.core.errors import TaskFormatError
from fdegym_env.core.registry import load_task
from fdegym_env.core.task import Task
from fdegym_env.grading.grade import CallResult
from fdegym_env.tasklib import evaluation, replay, sampling, solutions, timeutil

OUTPUT = {"key": "id", "fields": {"queue": ["a", "b"], "score": "number"}, "incident": None}


class FakeDeploy:
    """A deployment whose entry point is a Python function (no sandbox): replay's contract only."""

    def __init__(self, fn, output=OUTPUT, timeout_s=5.0):
        ep = SimpleNamespace(module="m", function="route", doc="", timeout_s=timeout_s, output=output)
        self.task = SimpleNamespace(id="fake", entry_points=(ep,))
        self.fn, self.calls = fn, []

    def call(self, module, function, *args, timeout_s=None):
        self.calls.append((module, function, timeout_s))
        try:
            return CallResult(True, self.fn(*args))
        except Exception as e:   # what Deployment reports for a crash
            return CallResult(False, None, f"raised: {e}")


def _batch(n=3):
    return [{"id": f"T{i}", "want": "a"} for i in range(n)]


def test_valid_output_gives_decisions_and_no_incident():
    deploy = FakeDeploy(lambda b: [{"id": i["id"], "queue": "a", "score": 1.5} for i in b])
    decide = replay.Decider(deploy)
    reply = decide(_batch())
    assert reply.ok and sorted(reply.decisions) == ["T0", "T1", "T2"] and reply.malformed == []
    assert decide.incidents() == []
    assert deploy.calls == [("m", "route", 5.0)]


@pytest.mark.parametrize("value, why", [
    ([{"id": "T0", "queue": "z", "score": 1}], "queue='z' not one of a, b"),
    ([{"id": "T0", "queue": "a", "score": "high"}], "score='high' is not number"),
    ([{"id": "T0", "queue": "a"}], "no score"),
    ({"T0": "a"}, "no decision"),
    ([["T0", "a"]], "no decision"),
])
def test_malformed_output_is_one_incident_naming_the_entry(value, why):
    decide = replay.Decider(FakeDeploy(lambda b: value))
    reply = decide(_batch(1))
    assert reply.ok and reply.decisions == {} and reply.malformed == [f"T0: {why}"]
    [inc] = decide.incidents()
    assert inc.startswith("malformed_route: 1 item(s)") and why in inc


def test_missing_ids_count_and_declared_incident_name():
    out = dict(OUTPUT, incident="malformed_routing")
    decide = replay.Decider(FakeDeploy(lambda b: [{"id": "T1", "queue": "b", "score": 0}], output=out))
    decide(_batch(3))
    assert decide.malformed == ["T0: no decision", "T2: no decision"]
    assert decide.incidents()[0].startswith("malformed_routing: 2 item(s)")


def test_a_crash_is_not_malformed():
    decide = replay.Decider(FakeDeploy(lambda b: 1 / 0))
    reply = decide(_batch(2))
    assert not reply.ok and reply.malformed == [] and decide.incidents() == []


def test_unknown_entry_point_names_the_declared_ones():
    with pytest.raises(ValueError, match="declared: m.route"):
        replay.Decider(FakeDeploy(lambda b: []), "route_batch")


ENVELOPE = {"items": "messages", "results": "decisions", "key": "id",
            "fields": {"queue": ["a", "b"], "reply": "str?", "tier": [1, 2, None]}, "incident": None}


def test_enveloped_batch_and_reply():
    seen = []
    deploy = FakeDeploy(lambda b: seen.append(b) or {"decisions": [{"id": m["id"], "queue": "a"} for m in b["messages"]]},
                        output=ENVELOPE)
    decide = replay.Decider(deploy)
    reply = decide({"batch_id": "B1", "messages": _batch(2)})
    assert sorted(reply.decisions) == ["T0", "T1"] and reply.malformed == [] and seen[0]["batch_id"] == "B1"
    assert sorted(decide(_batch(1)).decisions) == ["T0"] and seen[1] == {"messages": _batch(1)}   # a bare list is wrapped


@pytest.mark.parametrize("value, bad", [
    ([{"id": "T0", "queue": "a"}], ["T0: no decision"]),                         # a bare list is not the envelope
    ({"decisions": {"T0": "a"}}, ["T0: no decision"]),
    ({"results": [{"id": "T0", "queue": "a"}]}, ["T0: no decision"]),
    ({"decisions": [{"id": "T0", "queue": "a", "reply": 3}]}, ["T0: reply=3 is not str or null"]),
    ({"decisions": [{"id": "T0", "queue": "a", "tier": 3}]}, ["T0: tier=3 not one of 1, 2, None"]),
    ({"decisions": [{"id": "T0", "queue": "a", "reply": None, "tier": None}]}, []),
    ({"decisions": [{"id": "T0", "queue": "a", "reply": "Hello", "tier": 2}]}, []),
])
def test_results_list_and_nullable_fields(value, bad):
    decide = replay.Decider(FakeDeploy(lambda b: value, output=ENVELOPE))
    reply = decide({"messages": _batch(1)})
    assert reply.malformed == bad and (sorted(reply.decisions) == ([] if bad else ["T0"]))
    assert [i.split(":")[0] for i in decide.incidents()] == (["malformed_route"] if bad else [])
    if bad:
        assert "expected {decisions: [{id, queue in a, b; reply: str or null;" in decide.incidents()[0]


def test_item_policy_keeps_the_good_decisions_and_the_last_duplicate():
    spec = replay.OutputSpec.of(OUTPUT)
    good, bad = spec.check([{"id": "T0", "queue": "z", "score": 1}, {"id": "T0", "queue": "b", "score": 1},
                            {"id": "T1", "queue": "q", "score": 1}, {"id": "T9", "queue": "a", "score": 1}],
                           ["T0", "T1"])
    assert list(good) == ["T0"] and good["T0"]["queue"] == "b" and bad == ["T1: queue='q' not one of a, b"]


@pytest.mark.parametrize("value, why", [
    ([{"id": "T0", "queue": "a", "score": 1}, {"id": "T0", "queue": "a", "score": 1},
      {"id": "T1", "queue": "a", "score": 1}], "T0: decided twice"),
    ([{"id": "T0", "queue": "a", "score": 1}], "T1: no decision"),
    ([{"id": "T0", "queue": "a", "score": 1}, {"id": "T1", "queue": "a", "score": 1},
      {"id": "T7", "queue": "a", "score": 1}], "T7: not in the batch"),
    ([{"id": "T0", "queue": "a", "score": 1}, {"id": "T1", "queue": "c", "score": 1}], "T1: queue='c' not one of a, b"),
    ([{"id": "T0", "queue": "a", "score": 1}, {"id": "T1", "queue": "a", "score": 1}, "T2"],
     "a decision without a valid id: T2"),
    ({"decisions": []}, "the reply is not a list"),
])
def test_batch_policy_rejects_the_whole_reply(value, why):
    decide = replay.Decider(FakeDeploy(lambda b: value, output=dict(OUTPUT, on_malformed="batch")))
    reply = decide(_batch(2))
    assert reply.ok and reply.rejected and reply.decisions == {} and any(why in m for m in reply.malformed)
    [inc] = decide.incidents()
    assert inc.startswith("malformed_route: 1 repl(ies) rejected whole") and "each key once" in inc
    ok = replay.Decider(FakeDeploy(lambda b: [{"id": i["id"], "queue": "b", "score": 2} for i in b],
                                   output=dict(OUTPUT, on_malformed="batch")))
    reply = ok(_batch(2))
    assert sorted(reply.decisions) == ["T0", "T1"] and not reply.rejected and ok.incidents() == []


def test_a_trial_may_override_the_timeout():
    deploy = FakeDeploy(lambda b: [], timeout_s=5.0)
    replay.Decider(deploy, timeout_s=20)(_batch(1))
    assert deploy.calls == [("m", "route", 20)]


@pytest.mark.parametrize("output, match", [
    ({"on_malformed": "all"}, "Input should be 'item' or 'batch'"),
    ({"fields": {"reply": "text?"}}, "'str\\?'"),
    ({"result": "decisions"}, "Did you mean 'results'"),
])
def test_output_options_are_schema_checked(output, match):
    from fdegym_env.core import schema
    with pytest.raises(TaskFormatError, match=match):
        schema.check("task.yaml", {"entry_points": [{"module": "m", "function": "f", "output": output}]},
                     "x/task.yaml", partial=True)
    if "on_malformed" in output:
        with pytest.raises(ValueError, match=r"output: on_malformed: Input should be 'item' or 'batch' \(got 'all'\)"):
            replay.OutputSpec.of(output)


def _evaluate(decide, params, traffic):
    right = 0
    for batch in traffic["batches"]:
        d = decide(batch).decisions
        right += sum(d.get(i["id"], {}).get("queue") == i["want"] for i in batch)
    return {"kpi": float(right), "incidents": [], "summary": f"{right} right", "details": {}, "_seen": right}


def test_one_evaluation_builds_grade_and_trial():
    traffic = {"batches": [_batch(2), _batch(3)]}
    deploy = FakeDeploy(lambda b: [{"id": i["id"], "queue": "a", "score": 0} for i in b][:-1])
    grade = evaluation.grader(_evaluate)
    g = grade(deploy, {}, traffic)
    assert g["kpi"] == 3.0 and "_seen" not in g
    assert len(g["incidents"]) == 1 and g["incidents"][0].startswith("malformed_route: 2 item(s)")
    t = evaluation.evaluate_on(deploy, _evaluate, {}, traffic)
    assert t["_seen"] == 3 and t["incidents"] == g["incidents"]


def test_output_schema_typo_gets_did_you_mean():
    from fdegym_env.core import schema
    ep = {"module": "m", "function": "f", "output": {"key": "id", "feilds": {}}}
    with pytest.raises(TaskFormatError, match="Did you mean 'fields'"):
        schema.check("task.yaml", {"entry_points": [ep]}, "x/task.yaml", partial=True)


def test_iso_and_london_time():
    assert timeutil.parse_iso("2026-10-25T00:59:59Z").tzinfo is not None
    assert timeutil.local(timeutil.parse_iso("2026-10-25T00:59:59Z")).utcoffset().total_seconds() == 3600
    assert timeutil.local(timeutil.parse_iso("2026-10-25T01:00:00Z")).utcoffset().total_seconds() == 0
    assert timeutil.iso_z(timeutil.parse_iso("2026-07-01 13:00", tz="Europe/London")) == "2026-07-01T12:00:00Z"
    with pytest.raises(ValueError, match="expected an ISO-8601 time"):
        timeutil.parse_iso("yesterday")


def test_business_hours_skip_weekends_and_nights():
    cal = timeutil.Calendar({0, 1, 2, 3, 4, 5}, 6, 22)
    assert cal.add_hours(datetime(2026, 3, 7, 21, 0), 2.0) == datetime(2026, 3, 9, 7, 0)   # Sat 21:00 -> Mon 07:00
    assert cal.next_open(datetime(2026, 3, 9, 3, 0)) == datetime(2026, 3, 9, 6, 0)
    with pytest.raises(ValueError, match="never opens"):
        timeutil.Calendar(set(), 8, 18).next_open(datetime(2026, 3, 9))


def test_sampler_context_reads_the_task():
    task = load_task("helpdesk_tutorial")
    ctx = sampling.SamplerContext.of(task.module("sampler").__name__)
    assert ctx.task is task
    assert ctx.own("vendor_desk")["owner_queue"] == "vendor_korvex" and "kw_share" not in ctx.own("vendor_desk")
    assert ctx.params("night_pick", world_seed=5)["scanner_priority"] == "P1"
    assert ctx.base == dict(task.variant("base").params)
    assert ctx.held_out(ctx.base) == task.module("traffic").held_out(ctx.base, task.held_out_seed)
    with pytest.raises(ValueError, match="not a module of a loaded task"):
        sampling.SamplerContext.of("json")
    with pytest.raises(RuntimeError, match="in 3 tries"):
        sampling.redraw_until(lambda n: n < 0, lambda r: r.random(), random.Random(0), tries=3)


def test_overlay_solution_and_reference_then_this(tmp_path):
    src = load_task("helpdesk_tutorial").path
    folder = tmp_path / "helpdesk_tutorial"
    shutil.copytree(src, folder, ignore=shutil.ignore_patterns("__pycache__"))
    (folder / "solutions" / "reference.py").unlink()
    ov = folder / "solutions" / "reference" / "system"
    ov.mkdir(parents=True)
    (ov / "owner.txt.tmpl").write_text("owner={{owner_queue}}\n")
    (ov / "static.txt").write_text("same\n")
    (folder / "solutions" / "shortcut_more.py").write_text(
        "from fdegym_env.tasklib import solutions\n\n\ndef apply(ws, params):\n"
        "    solutions.apply(__name__, 'reference', ws, params)\n"
        "    solutions.replace(ws, 'system/static.txt', 'same', 'changed')\n")
    task = Task.load(folder)
    assert "reference" in task.solution_names() and "shortcut_more" in task.solution_names()
    ws = tmp_path / "ws"
    (ws / "system").mkdir(parents=True)
    from fdegym_env.grading.grade import apply_solution
    apply_solution(task, "shortcut_more", ws, task.variant("vendor_desk").params)
    assert (ws / "system" / "owner.txt").read_text() == "owner=vendor_korvex\n"
    assert (ws / "system" / "static.txt").read_text() == "changed\n"
    assert not (ws / "system" / "owner.txt.tmpl").exists()
    with pytest.raises(ValueError, match="expected text not found"):
        solutions.replace(ws, "system/static.txt", "absent", "x")
    with pytest.raises(TaskFormatError, match="missing module"):
        solutions.apply(task, "nope", ws, {})


def test_patch_applies_hunks_in_order_and_refuses_a_moved_world(tmp_path):
    import difflib
    task = SimpleNamespace(path=tmp_path / "task", id="t")
    (task.path / "solutions").mkdir(parents=True)
    ws = tmp_path / "ws"
    (ws / "system").mkdir(parents=True)
    before = [f"line {i}\n" for i in range(40)]
    after = list(before)
    after[3] = "changed 3\n"
    after[30:32] = ["changed 30\n"]
    (ws / "system" / "m.py").write_text("".join(before))
    diff = "".join(difflib.unified_diff(before, after, "a/system/m.py", "b/system/m.py"))
    (task.path / "solutions" / "x.patch").write_text(diff)
    assert solutions.patch(task, ws, "x.patch") == ["system/m.py"]
    assert (ws / "system" / "m.py").read_text() == "".join(after)
    with pytest.raises(ValueError, match="does not apply to system/m.py"):
        solutions.patch(task, ws, "x.patch")   # applied already: the old lines are gone


@pytest.mark.parametrize("before, after", [
    ("a\nb\nc", "a\nB\nc"),            # neither side ends with a newline
    ("a\nb\nc", "a\nb\nc\nd\n"),       # the old side lacks it, the new side has it
    ("a\nb\nc\n", "a\nb\nC"),          # the new side lacks it
    ("x\n" * 10 + "last", "x\n" * 10 + "LAST"),
])
def test_patch_applies_what_diff_u_writes_for_a_file_without_a_final_newline(tmp_path, before, after):
    import shutil
    import subprocess
    if shutil.which("diff") is None:
        pytest.skip("GNU diff is not installed")
    task = SimpleNamespace(path=tmp_path / "task", id="t")
    (task.path / "solutions").mkdir(parents=True)
    old, new = tmp_path / "a" / "system", tmp_path / "b" / "system"
    old.mkdir(parents=True)
    new.mkdir(parents=True)
    (old / "m.py").write_text(before)
    (new / "m.py").write_text(after)
    diff = subprocess.run(["diff", "-u", "a/system/m.py", "b/system/m.py"], cwd=tmp_path, capture_output=True,
                          text=True).stdout
    assert "\\ No newline at end of file" in diff
    (task.path / "solutions" / "x.patch").write_text(diff)
    ws = tmp_path / "ws"
    (ws / "system").mkdir(parents=True)
    (ws / "system" / "m.py").write_text(before)
    assert solutions.patch(task, ws, "x.patch") == ["system/m.py"]
    assert (ws / "system" / "m.py").read_text() == after


def test_output_spec_is_defined_once():
    """replay's OutputSpec is task.yaml's (fdegym_env.core.schema) with the checking added: the same
    fields, defaults and allowed type names, so a shape task.yaml accepts is the shape replay checks."""
    import typing

    from fdegym_env.core import schema
    assert issubclass(replay.OutputSpec, schema.OutputSpec)
    assert replay.OutputSpec.model_fields.keys() == schema.OutputSpec.model_fields.keys()
    assert replay.TYPE_NAMES == typing.get_args(schema.FieldType)
    spec = replay.OutputSpec.of({"fields": {"queue": ["a", None], "n": "int?"}})
    assert (spec.key, spec.on_malformed) == ("id", "item")
    assert spec.check([{"id": 1, "queue": None}, {"id": 2, "queue": "b"}], [1, 2]) == (
        {1: {"id": 1, "queue": None}}, ["2: queue='b' not one of a, None"])


def test_named_gives_sorted_examples_and_says_how_many_were_shown():
    from fdegym_env.tasklib.evaluation import named
    assert named(["QR-3", "QR-1", "QR-2"], 2) == "QR-1, QR-2 (2 of 3 shown)"
    assert named(["QR-2", "QR-1"], 2) == "QR-1, QR-2"
    assert named([], 3) == ""
