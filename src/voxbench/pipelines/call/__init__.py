"""One call: its typed spec (:mod:`.spec`), resolved once by a driver, and what runs it."""
