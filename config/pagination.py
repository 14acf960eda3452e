"""Page-number pagination that reads a page and the total in one query (issue 28: the separate
``COUNT(*)`` of a player's thousand games was a sixth of ``GET games``).

The total rides on each row of the page as ``COUNT(*) OVER ()`` (the window is counted before
``LIMIT``). An empty page has no row to carry it: page 1 is then an empty list (0 games), any
later page is past the end, which is what Django's paginator says for it anyway. The "last"
page keyword still counts first (DRF needs the number of pages before asking for the page).
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import EmptyPage, Page, PageNotAnInteger, Paginator
from django.db.models import Count, QuerySet, Window
from rest_framework.pagination import PageNumberPagination

TOTAL = "page_total_rows"


class CountedPaginator(Paginator):
    """For a queryset, or for an object list with ``read_page(offset, limit)`` returning the
    rows of a page, each carrying the total as ``TOTAL`` (and ``count()`` for the "last"
    page): e.g. ``games.selectors.PlayerGamesPages``, which reads a page from a statement
    compiled once."""

    def page(self, number: Any) -> Page:
        read_page = getattr(self.object_list, "read_page", None)
        if read_page is not None:  # (no orphans: DRF's pages have none)
            number = self.validate_number(number) if "count" in self.__dict__ else (
                self._number(number))
            bottom = (number - 1) * self.per_page
            rows = read_page(bottom, self.per_page)
            if "count" in self.__dict__:
                return Page(rows, number, self)
        elif "count" in self.__dict__ or self.orphans or not isinstance(
            self.object_list, QuerySet
        ):
            return super().page(number)
        else:
            number = self._number(number)
            bottom = (number - 1) * self.per_page
            rows = list(
                self.object_list.annotate(
                    **{TOTAL: Window(Count("*"))}
                )[bottom:bottom + self.per_page]
            )
        if rows:
            self.count = getattr(rows[0], TOTAL)
        elif number == 1 and self.allow_empty_first_page:
            self.count = 0
        else:
            raise EmptyPage(self.error_messages["no_results"])
        return Page(rows, number, self)

    def _number(self, number: Any) -> int:
        """``validate_number`` without the upper bound (which needs the count)."""
        try:
            if isinstance(number, float) and not number.is_integer():
                raise ValueError
            number = int(number)
        except (TypeError, ValueError) as exc:
            raise PageNotAnInteger(self.error_messages["invalid_page"]) from exc
        if number < 1:
            raise EmptyPage(self.error_messages["min_page"])
        return number


class CountedPageNumberPagination(PageNumberPagination):
    django_paginator_class = CountedPaginator
