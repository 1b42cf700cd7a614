from .fixtures import tiny  # noqa: F401 -- the fixture, for the tests of this folder
