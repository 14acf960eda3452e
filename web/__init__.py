"""The players' web client: server-rendered pages (htmx) at ``/`` over the same services and
selectors as the JSON API. The page's own scripts call the API with the session cookie."""
