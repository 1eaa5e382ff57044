from django.db import migrations, models
from django.db.models import Value
from django.db.models.functions import Cast, Concat
import django.db.models.deletion


def scope_hand_keys(apps, schema_editor):
    """Keys stored so far were all for recording hands; a claim never finished is dropped (its request died)."""
    IdempotencyRecord = apps.get_model("games", "IdempotencyRecord")
    IdempotencyRecord.objects.exclude(state="done").delete()
    IdempotencyRecord.objects.filter(result__isnull=True).delete()
    IdempotencyRecord.objects.update(
        scope=Concat(Value("game:"), Cast("game_id", models.CharField()), Value(":hands"))
    )


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0004_game_types_from_the_rules_registry"),
    ]

    operations = [
        migrations.RemoveConstraint(model_name="idempotencyrecord", name="one_result_per_key"),
        migrations.AddField(
            model_name="idempotencyrecord", name="scope", field=models.CharField(default="", max_length=80),
            preserve_default=False,
        ),
        migrations.RunPython(scope_hand_keys, migrations.RunPython.noop),
        migrations.RemoveField(model_name="idempotencyrecord", name="state"),
        migrations.AlterField(
            model_name="idempotencyrecord", name="game",
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                                    related_name="+", to="games.game"),
        ),
        migrations.AlterField(model_name="idempotencyrecord", name="result", field=models.JSONField()),
        migrations.AddConstraint(
            model_name="idempotencyrecord",
            constraint=models.UniqueConstraint(fields=("user", "scope", "key"), name="one_answer_per_key"),
        ),
    ]
