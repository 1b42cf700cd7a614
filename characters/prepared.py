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

The instances are built as `Model.from_db` builds them, without going through
`Model.__init__` where that changes nothing (see `instance_builder`): for a handful of
rows, `__init__` setting each field through `setattr` was a third of the query's time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

from django.db import connections
from django.db.models import Model, QuerySet
from django.db.models.base import ModelState
from django.db.models.fields.files import FileDescriptor
from django.db.models.query import get_related_populators
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init

# Marker values: integers no real primary key reaches, one per parameter.
_MARKER_BASE = 987_654_321_000


# Field descriptors whose __set__ (if any) stores the value in the instance's __dict__
# and does nothing else on an instance just made (ForeignKeyDeferredAttribute also
# forgets a cached related object, which a new instance has not got).
_PLAIN_DESCRIPTORS = (DeferredAttribute, FileDescriptor)


def _plain_descriptor(model: type[Model], attname: str) -> bool:
    for klass in model.__mro__:
        if attname in vars(klass):
            descriptor = vars(klass)[attname]
            return (isinstance(descriptor, _PLAIN_DESCRIPTORS)
                    and type(descriptor).__module__.startswith("django.db.models."))
    return False


def instance_builder(model: type[Model], using: str, attnames: list[str]) -> Callable:
    """`values -> model.from_db(using, attnames, values)`, and the same instance built
    faster when `Model.__init__` would only store each value: every concrete field
    selected in order, no pre_init or post_init receivers, no __init__ or from_db of
    the model's own, only Django's plain field descriptors."""
    fields = model._meta.concrete_fields
    plain = (
        [field.attname for field in fields] == list(attnames)
        and model.__init__ is Model.__init__
        and model.from_db.__func__ is Model.from_db.__func__
        and not pre_init.has_listeners(model)
        and not post_init.has_listeners(model)
        and all(_plain_descriptor(model, name) for name in attnames)
    )
    if not plain:
        return lambda values: model.from_db(using, attnames, values)
    new = object.__new__

    def build(values) -> Model:
        instance = new(model)
        state = ModelState()
        state.adding, state.db = False, using
        instance.__dict__["_state"] = state
        instance.__dict__.update(zip(attnames, values, strict=True))
        return instance

    return build


class _Related:
    """A select_related populator (django.db.models.query.RelatedPopulator) building
    its instances with `instance_builder`; only for a relation without nested ones."""

    def __init__(self, populator):
        self.populator = populator
        self.build = instance_builder(populator.model_cls, populator.db, populator.init_list)

    def populate(self, row, from_obj) -> None:
        p = self.populator
        values = p.reorder_for_init(row) if p.reorder_for_init else row[p.cols_start:p.cols_end]
        obj = None if values[p.pk_idx] is None else self.build(values)
        p.local_setter(from_obj, obj)
        if obj is not None:
            p.remote_setter(obj, from_obj)


def _fast(populator):
    return populator if populator.related_populators else _Related(populator)


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
            populators = [_fast(p) for p in get_related_populators(klass_info, select, using)]
            cache[key] = (compiler, sql, params, slots,
                          instance_builder(klass_info["model"], using, init_list), start, end,
                          populators, compiler.annotation_col_map,
                          compiler.get_converters(columns))
        return cache[key]

    def all(self, using: str = "default", **values: int) -> list[Model]:
        """The QuerySet's rows for these values, as model instances."""
        (compiler, sql, template, slots, build, start, end, populators, annotations,
         converters) = self._compiled(using)
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
            instance = build(row[start:end])
            for populator in populators:
                populator.populate(row, instance)
            for name, position in (annotations or {}).items():
                setattr(instance, name, row[position])
            objects.append(instance)
        return objects

    def first(self, using: str = "default", **values: int) -> Model | None:
        rows = self.all(using, **values)
        return rows[0] if rows else None
