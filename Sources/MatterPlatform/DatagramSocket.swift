/// What the transport needs of a socket: send, receive without blocking, and its address.
public protocol DatagramSocket: Sendable {
    func send(_ bytes: [UInt8], to address: SocketAddress) throws(SocketError)
    /// The next datagram and its sender, waiting at most `timeout`; nil when none came in time.
    func receive(maximumLength: Int, timeout: Duration) throws(SocketError) -> (bytes: [UInt8], sender: SocketAddress)?
    func localAddress() throws(SocketError) -> SocketAddress
    /// The descriptor to wait on for readability: the transport sleeps until it has a datagram.
    var readinessDescriptor: Int32 { get }
    /// Gives up the bound address at once, once nothing more will be sent or received (the transport shut down).
    func releaseAddress()
}

extension DatagramSocket {
    /// A socket of a simulated network, or one wrapping a real socket that is released with it, holds no address
    /// of its own to give up.
    public func releaseAddress() {}

    func receive(timeout: Duration) throws(SocketError) -> (bytes: [UInt8], sender: SocketAddress)? {
        try receive(maximumLength: 9000, timeout: timeout)
    }
}

extension UDPSocket: DatagramSocket {
    public var readinessDescriptor: Int32 { descriptor }
}
