// From an outside trial (trial 38): written by an author who read only the kit's README, Docs and
// public API, in the style of a notes app's sync queue; bundled as written but for the names
// (prefixed `NoteSync…` where they clashed) and the adapters' imports.

import Foundation

/// What the notes API client sends: a small, URLRequest-like value.
public struct NoteSyncRequest: Sendable, Equatable {
    public var url: URL
    public var httpMethod: String
    public var headers: [String: String]
    public var body: Data

    public init(url: URL, httpMethod: String, headers: [String: String], body: Data) {
        self.url = url
        self.httpMethod = httpMethod
        self.headers = headers
        self.body = body
    }

    public var idempotencyKey: String? { headers[NoteSyncRequest.idempotencyHeader] }
    public static let idempotencyHeader = "Idempotency-Key"
}

public struct NoteSyncResponse: Sendable, Equatable {
    public var statusCode: Int
    public var body: Data
    public init(statusCode: Int, body: Data = Data()) {
        self.statusCode = statusCode
        self.body = body
    }
}

/// The app's HTTP layer (URLSession-backed in the app). Calls back on a background queue.
public protocol NoteSyncTransport: Sendable {
    func send(_ request: NoteSyncRequest, completion: @escaping @Sendable (Result<NoteSyncResponse, any Error>) -> Void)
}

/// Injected time: `now` for stored due dates, `sleep` for waiting out a backoff.
public struct NoteSyncClock: Sendable {
    public var now: @Sendable () -> Date
    public var sleep: @Sendable (Duration) async throws -> Void
    public init(now: @escaping @Sendable () -> Date, sleep: @escaping @Sendable (Duration) async throws -> Void) {
        self.now = now
        self.sleep = sleep
    }
}

/// A small seedable generator (SplitMix64) so jitter can be replayed in tests.
public struct NoteSyncRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64
    public init(seed: UInt64) { state = seed }
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
