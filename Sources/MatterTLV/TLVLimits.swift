/// Limits of the TLV reader and writer, each with its reason.
public enum TLVLimits {
    /// Deepest container nesting the reader accepts. Matter messages nest about 8 levels
    /// (Interaction Model reports are the deepest); 32 leaves room while bounding hostile input.
    public static let maximumDepth = 32

    /// Bytes the writer reserves up front: secure-channel and most interaction messages are
    /// smaller, so they encode without regrowing the buffer.
    static let initialWriterCapacity = 256
}
