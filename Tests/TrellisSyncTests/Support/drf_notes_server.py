#!/usr/bin/env python3
"""A notes server on Django REST Framework, as an app author would write one from DRF's
tutorial: a model, a ModelSerializer, a ModelViewSet on a router, SQLite, server-assigned
integer ids. The sync tests run it on 127.0.0.1 (`bash .ci/test` installs Django and DRF from
PyPI); nothing in it knows Trellis.

    python3 drf_notes_server.py --port 8000 --database notes.sqlite3
        [--trailing-slash]      DRF's DefaultRouter() as is: /notes/ and /notes/<id>/
        [--without-client-id]   a model with no clientId column (DRF drops the member)
        [--etag]                Django's ConditionalGetMiddleware: ETag and 304 on GET

Killed with SIGKILL, it keeps every write it answered (SQLite commits before the answer); a
backup is a copy of the database file.
"""

import argparse
import sys


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--database", required=True)
    parser.add_argument("--trailing-slash", action="store_true")
    parser.add_argument("--without-client-id", action="store_true")
    parser.add_argument("--etag", action="store_true")
    options = parser.parse_args()

    from django.conf import settings

    middleware = ["django.middleware.common.CommonMiddleware"]
    if options.etag:
        middleware.append("django.middleware.http.ConditionalGetMiddleware")
    settings.configure(
        DEBUG=False,
        SECRET_KEY="trellis-tests-only",
        ALLOWED_HOSTS=["127.0.0.1", "localhost"],
        ROOT_URLCONF=__name__,
        INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "__main__"],
        MIDDLEWARE=middleware,
        DATABASES={"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": options.database}},
        USE_TZ=True,
        TIME_ZONE="UTC",
        DEFAULT_AUTO_FIELD="django.db.models.AutoField",
        REST_FRAMEWORK={
            "DEFAULT_AUTHENTICATION_CLASSES": [],
            "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
            "UNAUTHENTICATED_USER": None,
        },
    )
    import django

    django.setup()

    from django.db import connection, models
    from django.urls import include, path
    from rest_framework import routers, serializers, viewsets

    class Note(models.Model):
        title = models.CharField(max_length=200)
        body = models.TextField(blank=True, default="")
        created = models.DateTimeField()
        updated = models.DateTimeField()
        if not options.without_client_id:
            clientId = models.CharField(max_length=64, blank=True, null=True)

        class Meta:
            app_label = "__main__"
            ordering = ["id"]

    class NoteSerializer(serializers.ModelSerializer):
        class Meta:
            model = Note
            fields = "__all__"

    class NoteViewSet(viewsets.ModelViewSet):
        queryset = Note.objects.all()
        serializer_class = NoteSerializer

    router = routers.DefaultRouter(trailing_slash=options.trailing_slash)
    router.register("notes", NoteViewSet)
    global urlpatterns
    urlpatterns = [path("", include(router.urls))]

    if Note._meta.db_table not in connection.introspection.table_names():
        with connection.schema_editor() as editor:
            editor.create_model(Note)

    from django.core.handlers.wsgi import WSGIHandler
    from django.core.servers.basehttp import run

    print(f"listening on 127.0.0.1:{options.port}", file=sys.stderr, flush=True)
    run("127.0.0.1", options.port, WSGIHandler(), threading=True)


urlpatterns = []

if __name__ == "__main__":
    main()
