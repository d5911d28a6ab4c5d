"""Goal-directed offline caller."""
