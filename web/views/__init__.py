"""Page views of the web client; thin like the API's: validate, call a service or selector,
render. Moves, previews and other game actions are made by the page's script through the
JSON API with the session cookie (see web/static/web/)."""
