/// One setting per way a correct write queue may differ from another, for ``MinimalQueue``.
///
/// Every combination is a conforming queue: the kit's tests run all of them over every Q
/// contract, as swift-collections runs its minimal types through its conformance checkers, so a
/// new variation the kit must accept is one more case here, not one more bundled queue.
public struct MinimalQueueSettings: Hashable, Sendable, CustomStringConvertible {
    /// In which order a pass takes the due tasks.
    public enum SendOrder: String, Hashable, Sendable, CaseIterable {
        /// Oldest first, by creation time (read from the `Date` view of the clock).
        case oldestFirst
        /// Newest first.
        case newestFirst
        /// A fresh random order on every pass (the system generator: not reproducible).
        case random
        /// Strictly in submit order (ordered mutations): only the oldest unfinished task is
        /// sent, retried until it completes or stops; the others wait behind it.
        case headOfLine
    }

    /// How the body is kept and sent.
    public enum BodyEncoding: String, Hashable, Sendable, CaseIterable {
        /// The submitted bytes, stored and sent as they are.
        case storedBytes
        /// Decoded into a dictionary at submit, re-encoded (sorted keys, pretty-printed) for
        /// every request: other bytes than submitted, the same bytes on every resend.
        case reencodedDictionary
    }

    /// Where a task's send lease lives.
    public enum LeaseLocation: String, Hashable, Sendable, CaseIterable {
        /// In the queue instance's memory: gone with the process.
        case processMemory
        /// In the stored row, with an expiry past the request timeout.
        case storage
    }

    /// How many requests a pass has in flight.
    public enum SendsPerPass: String, Hashable, Sendable, CaseIterable {
        /// One task after the other.
        case oneAtATime
        /// Every due task at once, in a task group.
        case concurrent
    }

    /// How a retry waits for its backoff.
    public enum Backoff: String, Hashable, Sendable, CaseIterable {
        /// The pass sleeps on the clock until the retry is due, then retries.
        case waitsOnClock
        /// The pass stores a due time (a `Date`) and returns; a later pass skips tasks not due.
        case dueTimeInStorage
    }

    /// How requests reach the transport.
    public enum Transport: String, Hashable, Sendable, CaseIterable {
        /// `try await transport.send(request)`.
        case async
        /// `transport.send(request) { result in … }` called from the queue's own serial
        /// `DispatchQueue`, bridged with a checked continuation (no task-local survives it).
        case completionHandlerOnDispatchQueue
    }

    /// The order of a pass.
    public var sendOrder: SendOrder
    /// The body encoding.
    public var bodyEncoding: BodyEncoding
    /// Where leases live.
    public var leaseLocation: LeaseLocation
    /// Requests per pass.
    public var sendsPerPass: SendsPerPass
    /// How backoff waits.
    public var backoff: Backoff
    /// The transport style.
    public var transport: Transport

    /// Creates settings; the defaults are the plainest queue.
    public init(
        sendOrder: SendOrder = .oldestFirst, bodyEncoding: BodyEncoding = .storedBytes,
        leaseLocation: LeaseLocation = .processMemory, sendsPerPass: SendsPerPass = .oneAtATime,
        backoff: Backoff = .waitsOnClock, transport: Transport = .async
    ) {
        self.sendOrder = sendOrder
        self.bodyEncoding = bodyEncoding
        self.leaseLocation = leaseLocation
        self.sendsPerPass = sendsPerPass
        self.backoff = backoff
        self.transport = transport
    }

    /// Every combination of every setting.
    public static var allCombinations: [MinimalQueueSettings] {
        SendOrder.allCases.flatMap { order in
            BodyEncoding.allCases.flatMap { encoding in
                LeaseLocation.allCases.flatMap { lease in
                    SendsPerPass.allCases.flatMap { sends in
                        Backoff.allCases.flatMap { backoff in
                            Transport.allCases.map { transport in
                                MinimalQueueSettings(
                                    sendOrder: order, bodyEncoding: encoding, leaseLocation: lease,
                                    sendsPerPass: sends, backoff: backoff, transport: transport)
                            }
                        }
                    }
                }
            }
        }
    }

    public var description: String {
        [sendOrder.rawValue, bodyEncoding.rawValue, leaseLocation.rawValue, sendsPerPass.rawValue,
         backoff.rawValue, transport.rawValue].joined(separator: " · ")
    }
}
