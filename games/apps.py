from django.apps import AppConfig


class GamesConfig(AppConfig):
    name = "games"
    verbose_name = "Games and leagues"

    def ready(self) -> None:
        # Imported here, not at the top: they use the models, which load only once the apps are ready.
        from games import background, subscribers

        background.connect()
        subscribers.connect()
