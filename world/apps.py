from django.apps import AppConfig


class WorldConfig(AppConfig):
    """Fray's service layer; its Django side is the fight and roll-log tables."""

    name = "world"
    label = "fray"
    verbose_name = "Fray"
