"""Querysets compiled once, run many times: the live preview's hot path.

The live preview runs on every keystroke, and for its two small queries Django spends
twenty times longer turning the QuerySet into SQL than SQLite spends answering it. A
`PreparedQuery` lets Django compile the QuerySet once per thread and database (with
marker values standing in for the parameters), then runs that same SQL with each
request's values and builds the model instances exactly as `QuerySet` does, with the
same converters and `select_related` populators. The ORM still writes every query:
nothing here is hand-written SQL, and a test checks the results against the plain
QuerySet on each database.

Only for querysets whose SQL does not depend on the values (no `__in` lists, no
`None` comparisons): `PreparedQuery` refuses a queryset whose compiled parameters do
not hold each marker exactly once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.query import get_related_populators

# Marker values: integers no real primary key reaches, one per parameter.
_MARKER_BASE = 987_654_321_000


class PreparedQuery:
    def __init__(self, build: Callable[..., QuerySet], *names: str):
        """`build(**values)` returns the QuerySet for those values; `names` are the
        keyword parameters it takes (integers, such as primary keys)."""
        self.build = build
        self.names = names
        self._local = threading.local()  # compilers are not thread-safe

    def _compiled(self, using: str):
        cache = self._local.__dict__.setdefault("compiled", {})
        vendor = connections[using].vendor
        key = (using, vendor)
        if key not in cache:
            markers = {name: _MARKER_BASE + i for i, name in enumerate(self.names)}
            queryset = self.build(**markers).using(using)
            compiler = queryset.query.get_compiler(using=using)
            sql, params = compiler.as_sql()
            params = list(params)
            slots = {}
            for name, marker in markers.items():
                positions = [i for i, value in enumerate(params) if value == marker]
                if len(positions) != 1:
                    raise ValueError(
                        f"{name} appears {len(positions)} times in the compiled query; "
                        "a PreparedQuery needs each parameter exactly once."
                    )
                slots[name] = positions[0]
            klass_info, select = compiler.klass_info, compiler.select
            model_fields = klass_info["select_fields"]
            start, end = model_fields[0], model_fields[-1] + 1
            init_list = [column[0].target.attname for column in select[start:end]]
            columns = [column[0] for column in select[:compiler.col_count]]
            if compiler.has_composite_fields(columns):
                raise ValueError("A PreparedQuery cannot select composite primary keys.")
            cache[key] = (compiler, sql, params, slots, klass_info["model"], start, end,
                          init_list, get_related_populators(klass_info, select, using),
                          compiler.annotation_col_map, compiler.get_converters(columns))
        return cache[key]

    def all(self, using: str = "default", **values: int) -> list[Model]:
        """The QuerySet's rows for these values, as model instances."""
        (compiler, sql, template, slots, model, start, end, init_list, populators,
         annotations, converters) = self._compiled(using)
        params = list(template)
        for name, position in slots.items():
            params[position] = values[name]
        with connections[using].cursor() as cursor:
            cursor.execute(sql, params)
            rows = cursor.fetchall()
        objects = []
        if converters:  # as compiler.results_iter does, with the converters found once
            rows = compiler.apply_converters(rows, converters)
        for row in rows:
            instance = model.from_db(using, init_list, row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in (annotations or {}).items():
                setattr(instance, name, row[position])
            objects.append(instance)
        return objects

    def first(self, using: str = "default", **values: int) -> Model | None:
        rows = self.all(using, **values)
        return rows[0] if rows else None
