"""The composition root: builds the agent and user-simulator pipelines and runs a call.

All pipecat *construction* (services, transports, pipelines, workers) lives here, so an
upstream rename touches one package. Submodules are imported on demand.
"""
