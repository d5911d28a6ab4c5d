"""The agent under test's room: profiles, how its services are built, and its pipelines (cascade, speech-to-speech, hybrid, external, reference)."""
