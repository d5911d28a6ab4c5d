"""The `voxbench` command line: one module per sub-command."""
