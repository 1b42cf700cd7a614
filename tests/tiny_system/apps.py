from django.apps import AppConfig


class TinySystemConfig(AppConfig):
    name = "tests.tiny_system"
    label = "tiny_system"
    verbose_name = "Tiny test system"
    # No ready(): the tests register the system themselves (tests/tiny_system/system.py,
    # the `tiny` fixture). A shipped system registers in ready(), as Eldritch Gambit does.
