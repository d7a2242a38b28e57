#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// Sends raw bytes to a loopback port and reads whatever comes back, on its own thread:
/// the tool for malformed requests that no HTTP client would send.
enum RawHTTP {
    /// What came back.
    struct Answer: Sendable, CustomStringConvertible {
        /// Everything received, as text.
        let text: String
        /// Whether connecting failed.
        let refused: Bool

        /// The status code of the first response, or `nil` when nothing (or no HTTP) came back.
        var status: Int? {
            let parts = text.prefix(while: { $0 != "\r" && $0 != "\n" }).split(separator: " ")
            guard parts.count >= 2, parts[0].hasPrefix("HTTP/1.") else { return nil }
            return Int(parts[1])
        }

        /// Every status line's code, in order (pipelined and 100-continue answers).
        var statuses: [Int] {
            text.components(separatedBy: "HTTP/1.1 ").dropFirst().compactMap { Int($0.prefix(3)) }
        }

        /// The body of the last response.
        var body: String {
            guard let range = text.range(of: "\r\n\r\n", options: .backwards) else { return "" }
            return String(text[range.upperBound...])
        }

        var description: String { refused ? "(connection refused)" : text.isEmpty ? "(closed, no answer)" : text }
    }

    /// Connects to `127.0.0.1:port`, writes each part of `parts` in order, half-closes when
    /// `finish` is `true`, and reads until the server closes (or `limit` passes: a watchdog).
    /// With `answerBetweenParts`, each part after the first is sent only once the server has
    /// answered something (an event, such as `100 Continue`).
    static func send(
        _ parts: [[UInt8]], to port: UInt16, finish: Bool = true, answerBetweenParts: Bool = false,
        limit: Duration = .seconds(10)
    ) async -> Answer {
        await withCheckedContinuation { continuation in
            Thread {
                continuation.resume(
                    returning: blockingSend(
                        parts, port: port, finish: finish, answerBetweenParts: answerBetweenParts, limit: limit))
            }
            .start()
        }
    }

    /// A complete `POST /items` with `Connection: close`.
    static func post(key: String?, body: String, port: UInt16) async -> Answer {
        await send([Array(request(key: key, body: body).utf8)], to: port)
    }

    /// The text of a `POST /items` request.
    static func request(key: String?, body: String, close: Bool = true) -> String {
        var text = "POST /items HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
        if let key { text += "Idempotency-Key: \(key)\r\n" }
        text += "Content-Length: \(body.utf8.count)\r\n"
        if close { text += "Connection: close\r\n" }
        return text + "\r\n" + body
    }

    /// A loopback port that is bound but not listening, so connecting to it is refused and no
    /// other test can take it while the returned socket stays open. Close the socket after use.
    static func reserveUnlistenedPort() -> (socket: Int32, port: UInt16) {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var address = loopbackAddress(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                _ = bind(fd, pointer, length)
                return getsockname(fd, pointer, &length)
            }
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    /// `127.0.0.1:port` as a socket address.
    private static func loopbackAddress(port: UInt16) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    /// Closes a socket from ``reserveUnlistenedPort()``.
    static func release(_ socket: Int32) {
        _ = close(socket)
    }

    private static func blockingSend(
        _ parts: [[UInt8]], port: UInt16, finish: Bool, answerBetweenParts: Bool, limit: Duration
    ) -> Answer {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        let flags: Int32 = 0
        #endif
        guard fd >= 0 else { return Answer(text: "", refused: true) }
        defer { _ = close(fd) }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var address = loopbackAddress(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else { return Answer(text: "", refused: true) }
        let (seconds, attoseconds) = limit.components
        var timeout = timeval()
        timeout.tv_sec = .init(seconds)
        timeout.tv_usec = .init(attoseconds / 1_000_000_000_000)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        for (index, part) in parts.enumerated() {
            if answerBetweenParts && index > 0 {
                let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                if count > 0 { received.append(contentsOf: chunk[0..<count]) }
            }
            part.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let written = systemSend(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                    if written <= 0 { return }
                    offset += written
                }
            }
        }
        if finish { _ = shutdown(fd, Int32(SHUT_WR)) }
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received.append(contentsOf: chunk[0..<count])
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                break
            }
        }
        return Answer(text: String(decoding: received, as: UTF8.self), refused: false)
    }
}

/// `send(2)`, named apart from `RawHTTP.send`.
private func systemSend(_ fd: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
