/// One parsed HTTP/1.x request.
struct HTTPRequest {
    /// The method, such as `POST`.
    var method: String
    /// The path of the request target, without the query (`/items`).
    var path: String
    /// The minor version: 0 for HTTP/1.0, 1 for HTTP/1.1.
    var minorVersion: Int
    /// The header fields in order; names as sent.
    var headers: [(name: String, value: String)]
    /// The body (empty when there is none).
    var body: [UInt8]

    /// The value of the first header named `name` (case-insensitive), or `nil`.
    func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.name.lowercased() == lowered }?.value
    }

    /// Whether the client lets the connection stay open after this exchange.
    var keepAlive: Bool {
        let tokens = (header("Connection") ?? "").lowercased()
            .split(separator: ",").map { $0.trimmingCharacters(in: " \t") }
        if tokens.contains("close") { return false }
        return minorVersion >= 1 || tokens.contains("keep-alive")
    }
}
