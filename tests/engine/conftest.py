"""Engine tests are pure Python: they need neither Django nor its cache.

tests/conftest.py clears the Django cache around every test; overriding that autouse fixture
here keeps engine tests runnable with ``-p no:django`` and free of any service.
"""

import pytest


@pytest.fixture(autouse=True)
def _clear_cache():
    yield
