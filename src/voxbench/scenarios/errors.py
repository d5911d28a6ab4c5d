"""One error type for bad scenario data, always naming where the problem is."""

from __future__ import annotations

from pydantic import ValidationError


class ScenarioError(ValueError):
    """A scenario, database or agent file could not be loaded.

    The message always names the file, the record id (when known) and the field, so a
    user with a 200-record dataset can go straight to the broken line.
    """

    def __init__(self, path: str, message: str, record_id: str | None = None, field: str | None = None):
        self.path = path
        self.record_id = record_id
        self.field = field
        where = path
        if record_id is not None:
            where += f" [record {record_id}]"
        if field:
            where += f" field '{field}'"
        super().__init__(f"{where}: {message}")

    @classmethod
    def from_validation(cls, path: str, record_id: str | None, exc: ValidationError) -> ScenarioError:
        """Turn the first pydantic error into a one-line, located message."""
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"])
        extra = f" (and {exc.error_count() - 1} more errors)" if exc.error_count() > 1 else ""
        return cls(path, f"{err['msg']}{extra}", record_id=record_id, field=field)
