"""Lines per scenario: what the toolkit's budget counts."""

from pathlib import Path

import pytest

from fdegym_env.tasklib.size import harness_lines


def _write(root: Path, rel: str, n: int) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text("x\n" * n, encoding="utf-8")


def test_counts_harness_solutions_and_data_tables_but_not_world_briefs_or_notes(tmp_path):
    _write(tmp_path, "grader.py", 10)
    _write(tmp_path, "people.yaml", 7)
    _write(tmp_path, "phrases.txt", 5)                       # a generator's table counts like code
    _write(tmp_path, "solutions/reference/system/a.py", 3)
    _write(tmp_path, "solutions/reference/ABOUT.md", 2)      # inside solutions: counts
    _write(tmp_path, "world/system/a.py", 100)
    _write(tmp_path, "briefs/L0.md", 50)
    _write(tmp_path, "DESIGN_NOTES.md", 40)
    _write(tmp_path, "__pycache__/grader.cpython-311.pyc", 9)
    (tmp_path / "blob.bin").write_bytes(b"\xff\xfe\x00\x81" * 10)
    assert harness_lines(tmp_path) == 10 + 7 + 5 + 3 + 2


def test_the_command_lists_tasks_and_rejects_a_missing_folder(tmp_path, capsys):
    from fdegym_env.tasklib.size import main
    (tmp_path / "tiny").mkdir()
    (tmp_path / "tiny" / "task.yaml").write_text("id: tiny\ntitle: t\n")
    (tmp_path / "notes").mkdir()                       # no task.yaml: not a task
    assert main([str(tmp_path)]) == 0
    assert capsys.readouterr().out.split() == ["tiny", "2"]
    with pytest.raises(SystemExit) as exc:
        main([str(tmp_path / "missing")])
    assert exc.value.code == 2 and "is not a folder" in capsys.readouterr().err
