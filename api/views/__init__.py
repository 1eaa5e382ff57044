"""Thin views: parse with a serializer, call one service or selector, serialize."""
