import Dispatch

extension DispatchQueue {
    /// Runs `body` on this queue and hands back what it returned or threw. The caller's thread is not held: the
    /// store's statements, key files and device state files wait here, never on a cooperative thread or the loop.
    public func perform<Value: Sendable, Failure: Error>(
        _ body: @escaping @Sendable () throws(Failure) -> Value
    ) async throws(Failure) -> Value {
        let outcome = await withCheckedContinuation { (done: CheckedContinuation<Result<Value, Failure>, Never>) in
            self.async { done.resume(returning: Result { () throws(Failure) in try body() }) }
        }
        return try outcome.get()
    }
}
