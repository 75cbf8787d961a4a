"""Every test carries its layer (unit, integration or e2e): tests/conftest.py fails one that
carries none, so `-m unit` and the like select the whole suite between them."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

pytestmark = pytest.mark.unit


def test_a_test_without_a_layer_fails_and_says_which_markers_to_use(
    pytester: pytest.Pytester,
) -> None:
    pytester.makeconftest("from tests.conftest import pytest_runtest_setup  # noqa: F401\n")
    pytester.makeini("[pytest]\nasyncio_default_fixture_loop_scope = function\n"
                     "markers =\n    unit: u\n    integration: i\n    e2e: e\n")
    pytester.makepyfile(test_layers="""
        import pytest

        def test_bare():
            pass

        @pytest.mark.unit
        def test_unit():
            pass

        @pytest.mark.integration
        def test_integration():
            pass

        @pytest.mark.e2e
        def test_e2e():
            pass
    """)
    result = pytester.runpytest()
    result.assert_outcomes(passed=3, errors=1)
    result.stdout.fnmatch_lines(["*test_bare has no layer marker: mark it with one of "
                                 "@pytest.mark.unit, @pytest.mark.integration, @pytest.mark.e2e*"])
