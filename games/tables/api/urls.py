from django.urls import path

from games.tables.api import views

urlpatterns = [
    path("tables", views.TablesView.as_view(), name="tables"),
    path("tables/<str:code>", views.TableDetailView.as_view(), name="table-detail"),
    path("tables/<str:code>/join", views.TableJoinView.as_view(), name="table-join"),
    path("tables/<str:code>/leave", views.TableLeaveView.as_view(), name="table-leave"),
    path("tables/<str:code>/deal", views.TableDealView.as_view(), name="table-deal"),
    path("tables/<str:code>/back", views.TableBackView.as_view(), name="table-back"),
    path("tables/<str:code>/invite", views.TableInviteView.as_view(), name="table-invite"),
]
