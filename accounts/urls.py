from django.urls import include, path

from . import views

# No app namespace: django.contrib.auth's views reverse their own names ("login",
# "password_reset_done", ...) without one.
urlpatterns = [
    path("signup/", views.signup, name="signup"),
    path("", include("django.contrib.auth.urls")),
]
