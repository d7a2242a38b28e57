import Foundation

/// Where the S contracts send their requests: host, port and the path prefix before `/items`.
struct ServerEndpoint: Sendable {
    /// The host name or address, without IPv6 brackets.
    let host: String
    /// The TCP port.
    let port: Int
    /// The path before `/items` (empty for `http://127.0.0.1:8081`).
    let basePath: String

    /// Reads an `http://` base URL. A URL that already ends in `/items` (the address an app is
    /// pointed at) is accepted too.
    /// - Returns: `nil` for other schemes or a URL without a host.
    init?(baseURL: URL) {
        guard baseURL.scheme?.lowercased() == "http", var host = baseURL.host, !host.isEmpty else { return nil }
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = baseURL.port ?? 80
        var path = baseURL.path
        while path.hasSuffix("/") { path.removeLast() }
        if path.hasSuffix("/items") { path.removeLast("/items".count) }
        basePath = path
    }

    /// The value of the `Host` header.
    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == 80 ? name : "\(name):\(port)"
    }
}
