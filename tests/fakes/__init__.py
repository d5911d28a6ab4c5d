"""Test doubles that subclass pipecat's real service base classes (no mocks)."""
