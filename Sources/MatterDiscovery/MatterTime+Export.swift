// Discovery's machines take `Instant`s, as every layer's do.
@_exported import MatterTime
