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
    def page(self, number: Any) -> Page:
        if "count" in self.__dict__ or not isinstance(self.object_list, QuerySet) or self.orphans:
            return super().page(number)
        number = self._number(number)
        bottom = (number - 1) * self.per_page
        rows = list(
            self.object_list.annotate(**{TOTAL: Window(Count("*"))})[bottom:bottom + self.per_page]
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
