"""voxbench: end-to-end evaluation of voice agents, the way a caller meets them."""

__version__ = "0.1.0"
