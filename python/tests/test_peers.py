"""The peers of docs/python.md, run and graded here: the table there must be
this run's (versions named in each row; rewrite it with
`python python/tests/peers.py --write`)."""

import peers


def test_docs_python_md_has_the_peer_grades_of_this_run():
    fresh = peers.section()
    documented = peers.extract(peers.DOC.read_text())
    assert documented, f"{peers.DOC} has no peers section between its markers"
    assert documented == fresh, (
        "docs/python.md's peer table is not what the peers give now "
        "(rewrite it with `python python/tests/peers.py --write`):\n" + fresh
    )
