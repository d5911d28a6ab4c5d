"""How the two bots exchange audio over a loopback WebSocket.

Fixes for the four pitfalls of pipecat's websocket transports (see
`shared/reference/pipecat-1.14-notes.md` §4.4):

(a) interruptions crossing the wire -> `serializers`: only audio crosses; an
    interruption from the far side becomes a callback, never a frame;
(b) idle gaps -> `pacing.ContinuousMixer` keeps a sender's output continuous and
    `pacing.GapFillProcessor` fills holes in what a listener receives;
(c) WAV headers on chunks -> `pairing.client_params` forces `add_wav_header=False`;
(d) the client's connect race -> `pairing.wait_for_server` before the client starts.

Timing: `paced` sends each chunk on the stream's sample clock (pipecat's pacing runs a
chunk ahead after every burst start), and `WireConfig.chunk_ms` sets the chunk length.
"""
