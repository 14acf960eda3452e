"""Domain error base class rendered by ``config.exceptions.exception_handler``."""


class ApiError(Exception):
    """An error the API reports as ``{"error": {"code", "message", "details"}}``."""

    code: str
    message: str
    status: int = 400
    details: dict

    def __init__(self, code: str, message: str, *, status: int = 400, details: dict | None = None):
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.details = dict(details or {})

    def __repr__(self) -> str:
        return f"{type(self).__name__}(code={self.code!r}, message={self.message!r})"
