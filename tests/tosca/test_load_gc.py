"""The collector after a mid-sized load (toskit.tosca.load.loader.PROMOTE_LOAD_AFTER)."""

from __future__ import annotations

import gc

import toskit
from toskit import runtime
from toskit.tosca.load import loader

# ~1,000 node templates: more young objects than the loader's mark, fewer
# than deep_walk's own (a 1,000-node B1 load sits right at it).
_MID = (
    "tosca_definitions_version: tosca_simple_yaml_1_3\ntopology_template:\n  node_templates:\n"
    + "".join(f"    n{i}:\n      type: tosca.nodes.Root\n" for i in range(1000))
)


def _young_left_by_load() -> int:
    seen: list[int] = []

    class Spy:
        def __enter__(self) -> None:
            loader._PAUSED.__enter__()

        def __exit__(self, *exc: object) -> None:
            seen.append(gc.get_count()[0])
            loader._PAUSED.__exit__(*exc)

    saved = loader._LOADING
    loader._LOADING = Spy()  # type: ignore[assignment]
    try:
        toskit.loads(_MID)
    finally:
        loader._LOADING = saved
    return seen[0]


def test_the_mid_sized_load_lies_between_the_two_marks():
    # What makes the next test meaningful: deep_walk alone would not promote.
    left = _young_left_by_load()
    assert loader.PROMOTE_LOAD_AFTER <= left < runtime.PROMOTE_AFTER


def test_a_mid_sized_load_leaves_its_objects_in_the_oldest_generation():
    # Otherwise the first allocation after the load ran a young collection
    # over all of them (6-9 ms after a 1,000-node B1 load of ~55 ms).
    assert gc.isenabled()
    st = toskit.loads(_MID)
    node = st.node_templates["n999"]
    assert any(o is node for o in gc.get_objects(generation=2))
    assert gc.get_count()[0] < 1000


def test_a_mid_sized_load_keeps_the_objects_a_process_froze():
    kept: list[list] = [[]]
    gc.freeze()
    try:
        toskit.loads(_MID)
        assert gc.get_freeze_count() > 0
        assert not any(o is kept for o in gc.get_objects())
    finally:
        gc.unfreeze()
    assert any(o is kept for o in gc.get_objects())


def test_a_small_load_is_left_to_the_young_collections():
    small = _MID.split("    n10:")[0]  # ten node templates
    gc.collect()
    toskit.loads(small)
    st = toskit.loads(small)
    node = st.node_templates["n9"]
    assert not any(o is node for o in gc.get_objects(generation=2))
