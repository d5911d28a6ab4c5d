"""τ-voice's interaction panel (L_R, L_Y, R_R, R_Y, I_A, S_BC, S_VT, S_ND), exactly.

`timeline` is the one event engine: speech segments of both sides in seconds, in, the
events τ-voice's rules detect, out. `ticks` reads τ-voice tick trajectories into a timeline
(and writes one back), `runs` recognises and reads τ-voice experiment folders, `panel`
aggregates events into τ-voice's fields with their counts, `records` builds a timeline from
a voxbench conversation (natively, or on a tick grid). docs/tau-voice.md lists every rule.
"""
