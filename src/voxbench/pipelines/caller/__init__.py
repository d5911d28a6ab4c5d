"""The simulated caller's room: what a caller decides and says (see ``goal`` for the goal-directed caller)."""
