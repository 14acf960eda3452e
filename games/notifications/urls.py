from django.urls import path

from games.notifications import views

urlpatterns = [
    path("unsubscribe/<str:token>", views.unsubscribe, name="notifications-unsubscribe"),
]
