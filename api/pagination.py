from rest_framework.pagination import PageNumberPagination


class Pages(PageNumberPagination):
    """``?page=2&page_size=20``: 50 to a page by default, at most 100."""

    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 100
