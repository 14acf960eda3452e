from django.urls import path

from games.correspondence.api import views

urlpatterns = [
    path("me/vacation", views.VacationView.as_view(), name="me-vacation"),
]
