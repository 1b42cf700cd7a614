"""Site pages that belong to no app: the landing page and the credits."""

from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def home(request):
    return render(request, "home.html")


@require_safe
def about(request):
    return render(request, "about.html")
