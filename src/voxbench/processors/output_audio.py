"""Record the agent's channel where it leaves the agent (a pipecat observer).

In a bot-to-bot call the agent's audio is recorded as the simulator's input transport
hears it. When a person is on the other end (browser WebRTC, local speaker) there is no
second pipeline, so the agent channel is taken from the agent's own output transport:
after writing a chunk to the peer, `BaseOutputTransport` pushes that chunk downstream,
paced by the real consumer (WebRTC's 10 ms packetiser, the sound card). The chunk
*ends* at that moment, so it is laid on the timeline at `t - duration`. Between turns
nothing is pushed (the transport plays its own silence), so the gap is filled with
explicit silence first: the onset detector must hear the pause to end a segment.
"""

from __future__ import annotations

from pipecat.frames.frames import InputAudioRawFrame, OutputAudioRawFrame
from pipecat.observers.base_observer import BaseObserver, FramePushed
from pipecat.processors.frame_processor import FrameDirection
from pipecat.transports.base_output import BaseOutputTransport

from voxbench.processors.recorder import ConversationRecorder
from voxbench.records.events import Channel


class OutputAudioTap(BaseObserver):
    """Adds every chunk the output transport wrote to `recorder`'s `channel` track."""

    def __init__(self, recorder: ConversationRecorder, channel: Channel = "agent"):
        super().__init__()
        if channel not in ("agent", "user"):
            raise ValueError(f"channel must be 'agent' or 'user', got {channel!r}")
        self.rec = recorder
        self.channel: Channel = channel
        self.chunks = 0

    async def on_push_frame(self, data: FramePushed) -> None:
        frame = data.frame
        if not isinstance(frame, OutputAudioRawFrame) or not frame.audio:
            return
        if data.direction != FrameDirection.DOWNSTREAM or not isinstance(data.source, BaseOutputTransport):
            return
        n = len(frame.audio) // 2 // max(1, frame.num_channels)
        t_end = data.timestamp / 1e9
        t_start = max(0.0, t_end - n / frame.sample_rate)
        channel = self.channel
        track_end = self.rec.tracks[channel].duration
        gap = round((t_start - track_end) * frame.sample_rate)
        if gap > frame.sample_rate // 50:  # > 20 ms of nothing: the line was silent
            silence = bytes(2 * gap * frame.num_channels)
            self.rec.add_audio(
                channel, InputAudioRawFrame(silence, frame.sample_rate, frame.num_channels), track_end
            )
        heard = InputAudioRawFrame(
            audio=frame.audio, sample_rate=frame.sample_rate, num_channels=frame.num_channels
        )
        self.rec.add_audio(channel, heard, t_start)
        self.chunks += 1
