// The message layer's timers are `Instant`s: every user of the messaging layer sees the one time vocabulary.
@_exported import MatterTime
