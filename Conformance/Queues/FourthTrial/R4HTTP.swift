import Foundation

/// Minimal HTTP model shared by the app's write queues (Foundation only, so it builds on Linux too).
public struct R4HTTPRequest: Sendable, Equatable, Codable {
    public var method: String
    public var url: URL
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, url: URL, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }
}

public struct R4HTTPResponse: Sendable, Equatable {
    public var statusCode: Int
    public var headers: [String: String]
    public var body: Data

    public init(statusCode: Int, headers: [String: String] = [:], body: Data = Data()) {
        self.statusCode = statusCode
        self.headers = headers
        self.body = body
    }
}

/// Injected transport. Throwing means "no response" (lost connection, timeout, cancelled).
public typealias R4Transport = @Sendable (R4HTTPRequest) async throws -> R4HTTPResponse
public typealias R4Log = @Sendable (String) -> Void

/// A user operation to be written to the server. `body` carries user content and must never be logged.
public struct R4Operation: Sendable, Codable, Equatable {
    public var id: UUID
    public var method: String
    public var path: String
    /// User content (notes, addresses, ...). Sensitive: never log it.
    public var body: Data
    /// Short, non-sensitive label for logs ("createNote", "updateAddress").
    public var label: String

    public init(id: UUID = UUID(), method: String = "POST", path: String, body: Data, label: String) {
        self.id = id
        self.method = method
        self.path = path
        self.body = body
        self.label = label
    }
}

enum R4JSON {
    static func encoder() -> JSONEncoder {
        let e = JSONEncoder()
        e.dateEncodingStrategy = .millisecondsSince1970
        e.outputFormatting = [.sortedKeys]
        return e
    }
    static func decoder() -> JSONDecoder {
        let d = JSONDecoder()
        d.dateDecodingStrategy = .millisecondsSince1970
        return d
    }
}
