"""Email verification and devices (issue 14).

Existing accounts with an address count as verified: they have been receiving game emails
(each with a one-click unsubscribe link) and playing with them; stopping every email of every
existing player until they click a link would break the service for all of them to guard
against a misuse nobody reported. New accounts and every change of address verify.

DRF's one token per user becomes a device (``accounts.Device``, knox): the key is kept as its
SHA-512 digest, so every client signed in before keeps working with the same
``Authorization: Token <key>``; the plain-text keys are then removed from authtoken_token.
"""

import hashlib
from datetime import timedelta

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def verify_existing_addresses(apps, schema_editor):
    User = apps.get_model("accounts", "User")
    User.objects.exclude(email="").update(email_verified=True)


def move_tokens_to_devices(apps, schema_editor):
    from django.utils import timezone

    Token = apps.get_model("authtoken", "Token")
    Device = apps.get_model("accounts", "Device")
    expiry = timezone.now() + timedelta(days=90)
    devices = [
        Device(
            # knox: token_key is the key's first 15 characters, digest its SHA-512
            token_key=token.key[:15],
            digest=hashlib.sha512(token.key.encode()).hexdigest(),
            user_id=token.user_id,
            name="sign-in before devices",
            expiry=expiry,
        )
        for token in Token.objects.all().iterator()
    ]
    Device.objects.bulk_create(devices, batch_size=1000)
    # auto_now_add stamped them now: keep when each key was first issued.
    for user_id, created in Token.objects.values_list("user_id", "created").iterator():
        Device.objects.filter(user_id=user_id).update(created=created)
    Token.objects.all().delete()


def devices_back_to_nothing(apps, schema_editor):
    """Reversing cannot recover plain-text keys from digests: clients sign in again."""


class Migration(migrations.Migration):

    dependencies = [
        ('accounts', '0005_unique_username_skeleton_email'),
        ('authtoken', '0004_alter_tokenproxy_options'),
    ]

    operations = [
        migrations.AddField(
            model_name='user',
            name='deleted_at',
            field=models.DateTimeField(blank=True, editable=False, null=True, verbose_name='deleted at'),
        ),
        migrations.AddField(
            model_name='user',
            name='email_verified',
            field=models.BooleanField(default=False, verbose_name='email verified'),
        ),
        migrations.CreateModel(
            name='Device',
            fields=[
                ('token_key', models.CharField(db_index=True, max_length=25)),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('expiry', models.DateTimeField(blank=True, null=True)),
                ('id', models.BigAutoField(primary_key=True, serialize=False)),
                ('digest', models.CharField(max_length=128, unique=True)),
                ('name', models.CharField(blank=True, max_length=100, verbose_name='device')),
                ('last_used', models.DateTimeField(blank=True, null=True, verbose_name='last used')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='auth_token_set', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'device',
                'ordering': ['-created', '-id'],
            },
        ),
        migrations.RunPython(verify_existing_addresses, migrations.RunPython.noop),
        migrations.RunPython(move_tokens_to_devices, devices_back_to_nothing),
    ]
