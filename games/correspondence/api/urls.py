from django.urls import path

from games.correspondence.api import views

urlpatterns = [
    path("me/vacation", views.VacationView.as_view(), name="me-vacation"),
    path("me/archive", views.ArchiveView.as_view(), name="me-archive"),
    path("me/archive/export", views.ArchiveExportView.as_view(), name="me-archive-export"),
    path("me/watching", views.WatchSettingsView.as_view(), name="me-watching"),
    path("games/<int:game_id>/watch", views.WatchView.as_view(), name="game-watch"),
    path("games/<int:game_id>/export", views.GameExportView.as_view(), name="game-export"),
    path("games/<int:game_id>/export.txt", views.GameExportTextView.as_view(),
         name="game-export-text"),
]
