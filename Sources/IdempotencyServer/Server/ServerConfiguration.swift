import ConformanceKit

/// Everything the fault server is started with.
public struct ServerConfiguration: Hashable, Sendable {
    /// The address to listen on. Loopback by default; never widen it without a reason.
    public var host: String
    /// The port; `0` asks the system for a free one (read it from ``FaultServer/port``).
    public var port: UInt16
    /// The answer to the first request for a key.
    public var mode: FaultMode
    /// What the conflict answers mean: under ``ConflictProfile/ietfDraft`` a reused key with
    /// another body gets `422` and a key whose first request is still being processed gets
    /// `409`; under ``ConflictProfile/sourceDocument`` (the default) a reused key with another
    /// body gets `409` and a concurrent duplicate waits for the first.
    public var profile: ConflictProfile
    /// The append-only journal that makes records durable, or `nil` to keep them in memory.
    public var journalPath: String?
    /// Whether `POST /reset` may clear every record (refused with `403` otherwise).
    public var allowReset: Bool
    /// The largest request head accepted (`431` above it).
    public var maxHeaderBytes: Int
    /// The largest body accepted (`413` above it).
    public var maxBodyBytes: Int
    /// How long a connection may stay silent before it is closed (`408` mid-request).
    public var idleTimeout: Duration
    /// The most connections served at once; further ones get `503` and are closed.
    public var maxConnections: Int

    /// Creates a configuration; the defaults match `swift run fault-server` with no flags.
    public init(
        host: String = "127.0.0.1",
        port: UInt16 = 8081,
        mode: FaultMode = .commitThen503,
        profile: ConflictProfile = .sourceDocument,
        journalPath: String? = nil,
        allowReset: Bool = false,
        maxHeaderBytes: Int = 16 * 1024,
        maxBodyBytes: Int = 1024 * 1024,
        idleTimeout: Duration = .seconds(30),
        maxConnections: Int = 512
    ) {
        self.host = host
        self.port = port
        self.mode = mode
        self.profile = profile
        self.journalPath = journalPath
        self.allowReset = allowReset
        self.maxHeaderBytes = maxHeaderBytes
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.maxConnections = maxConnections
    }
}
