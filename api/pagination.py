from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=2&page_size=20``: 50 to a page by default, at most 100.

    A ``page`` or ``page_size`` that is not a whole number in range is a 400 (not quietly the
    default); a page past the last is a 404.
    """

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100
    last_page_strings = ()  # ``?page=last`` is not a page number

    def get_page_number(self, request, paginator):
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if not (raw.isascii() and raw.isdigit() and int(raw) >= 1):
            raise ValidationError({"page": ["a whole number from 1"]})
        return int(raw)

    def get_page_size(self, request):
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        if not (raw.isascii() and raw.isdigit() and 1 <= int(raw) <= self.max_page_size):
            raise ValidationError({"page_size": [f"a whole number from 1 to {self.max_page_size}"]})
        return int(raw)

    def get_schema_operation_parameters(self, view):
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1}
            elif parameter["name"] == self.page_size_query_param:
                parameter["schema"] = {"type": "integer", "minimum": 1, "maximum": self.max_page_size}
        return parameters


class CursorPages(Pages):
    """How a cursor page (``api.sync.cursor_page``) is described in the schema: ``page_size``, no ``page``."""

    def get_schema_operation_parameters(self, view):
        return [parameter for parameter in super().get_schema_operation_parameters(view)
                if parameter["name"] != self.page_query_param]
