"""The peers of docs/python.md, run and graded here: the table there must be
this run's (versions named in each row; rewrite it with
`python python/tests/peers.py --write`).

Kernels with CPU-specific paths (numpy's float16 and float32 SIMD loops, ONNX
Runtime's MLAS) give counts that depend on the CPU. The section names the kind
of CPU it was counted on (`peers.cpu()`): on that kind it must be this run's,
character for character; on another, every row must still be there with the
same implementation, call and function, and each count within a few entries
of the documented one (`peers.SLACK_MIN`, `peers.SLACK_FRACTION`)."""

import pytest

import peers


@pytest.fixture(scope="module")
def fresh():
    return peers.section()


def test_docs_python_md_has_the_peer_grades_of_this_run(fresh):
    documented = peers.extract(peers.DOC.read_text())
    assert documented, f"{peers.DOC} has no peers section between its markers"
    assert peers.documented_cpu(documented), "the peers section does not name its CPU"
    same = peers.documented_cpu(documented) == peers.cpu()
    found = peers.differences(documented, fresh, same)
    assert not found, (
        "docs/python.md's peer table is not what the peers give now "
        f"(on {'the same' if same else 'another'} kind of CPU: {peers.cpu()}; "
        "rewrite it with `python python/tests/peers.py --write`):\n"
        + "\n".join(found)
        + "\n"
        + fresh
    )


@pytest.mark.parametrize("same_cpu", [True, False])
def test_a_count_moved_beyond_the_slack_is_reported(fresh, same_cpu):
    assert peers.differences(fresh, fresh, same_cpu) == []
    row = peers.rows(fresh)[0]
    wrong = peers.count(row[3])
    moved = wrong + max(peers.SLACK_MIN, int(wrong * peers.SLACK_FRACTION * 2)) + 1
    doctored = fresh.replace(f"| {row[3]} |", f"| {moved:,} of 65,536 |", 1)
    assert doctored != fresh
    found = peers.differences(doctored, fresh, same_cpu)
    assert found, "a count moved beyond the slack went unnoticed"


def test_a_missing_peer_is_reported_on_any_cpu(fresh):
    lines = fresh.splitlines(keepends=True)
    first_row = next(i for i, l in enumerate(lines) if l.startswith("| numpy"))
    shorter = "".join(lines[:first_row] + lines[first_row + 1 :])
    assert peers.differences(shorter, fresh, False)
    assert peers.differences(shorter, fresh, True)
