"""A person as the caller (`voxbench talk`): the browser page over WebRTC, or the machine's microphone and speaker."""
