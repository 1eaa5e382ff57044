from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and leagues"

    def ready(self) -> None:
        from games import background

        background.connect()
