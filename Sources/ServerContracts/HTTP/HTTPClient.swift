#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A minimal HTTP/1.1 client on POSIX sockets: one connection per exchange, `Connection:
/// close`, the answer read to the end.
///
/// The kit uses its own client rather than URLSession so that a dropped connection is seen as
/// exactly that (URLSession may silently resend a request whose connection closed), and so
/// that many concurrent requests really are concurrent connections. Each exchange runs on its
/// own thread, off the cooperative pool.
struct HTTPClient: Sendable {
    /// Where requests go.
    let endpoint: ServerEndpoint
    /// How long a connection may wait for the server before the exchange fails.
    let timeout: Duration

    /// Sends one request and returns what came back.
    func exchange(method: String, path: String, headers: [(String, String)] = [], body: [UInt8]? = nil) async
        -> ServerReply.Outcome
    {
        var head = "\(method) \(endpoint.basePath)\(path) HTTP/1.1\r\nHost: \(endpoint.hostHeader)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        if let body { head += "Content-Length: \(body.count)\r\n" }
        head += "Connection: close\r\n\r\n"
        let request = Array(head.utf8) + (body ?? [])
        let endpoint = endpoint
        let timeout = timeout
        return await withCheckedContinuation { continuation in
            let thread = Thread {
                continuation.resume(returning: Self.blockingExchange(request, endpoint: endpoint, timeout: timeout))
            }
            thread.name = "ServerContracts exchange"
            thread.start()
        }
    }

    private static func blockingExchange(_ request: [UInt8], endpoint: ServerEndpoint, timeout: Duration)
        -> ServerReply.Outcome
    {
        let fd: Int32
        switch connect(to: endpoint) {
        case .success(let connected): fd = connected
        case .failure(let message): return .failed(message)
        }
        defer { _ = systemClose(fd) }
        var value = timeval(timeout)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        let flags: Int32 = 0
        #else
        let flags = Int32(MSG_NOSIGNAL)
        #endif

        // A server may answer (and close) before reading the whole request; keep going and
        // read whatever it said.
        request.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = send(fd, raw.baseAddress! + offset, raw.count - offset, flags)
                if written > 0 { offset += written } else if written < 0 && errno == EINTR { continue } else { break }
            }
        }
        var response: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                response.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                break
            } else if errno == EINTR {
                continue
            } else if errno == EAGAIN || errno == EWOULDBLOCK {
                return response.isEmpty ? .failed("no answer within \(timeout)") : parse(response)
            } else {
                break  // a reset: whatever arrived before it is the answer
            }
        }
        return response.isEmpty ? .closed : parse(response)
    }

    private enum Connection {
        case success(Int32)
        case failure(String)
    }

    private static func connect(to endpoint: ServerEndpoint) -> Connection {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(endpoint.host, String(endpoint.port), &hints, &list)
        guard status == 0, let list else {
            return .failure("cannot resolve \(endpoint.host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else { continue }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            if systemConnect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 { return .success(fd) }
            failure = String(cString: strerror(errno))
            _ = systemClose(fd)
        }
        return .failure("cannot connect to \(endpoint.hostHeader): \(failure)")
    }

    /// Reads the status line, the head and the body (up to `Content-Length` when given).
    private static func parse(_ bytes: [UInt8]) -> ServerReply.Outcome {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        var headEnd: Int?
        if bytes.count >= 4 {
            for index in 0...(bytes.count - 4) where bytes[index..<(index + 4)].elementsEqual(separator) {
                headEnd = index
                break
            }
        }
        guard let headEnd else { return .malformed(String(decoding: bytes.prefix(200), as: UTF8.self)) }
        let head = String(decoding: bytes[..<headEnd], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]) else {
            return .malformed(lines[0])
        }
        var body = Array(bytes[(headEnd + 4)...])
        for line in lines.dropFirst() {
            let parts = line.split(separator: ":", maxSplits: 1)
            if parts.count == 2, parts[0].lowercased() == "content-length",
                let length = Int(parts[1].trimmingCharacters(in: .whitespaces)), length <= body.count
            {
                body = Array(body[..<length])
            }
        }
        return .response(status: status, body: String(decoding: body, as: UTF8.self))
    }
}

private func systemConnect(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

private func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

extension timeval {
    /// A `timeval` for a duration (at least one microsecond, so zero never means "forever").
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        self.init()
        tv_sec = .init(seconds)
        tv_usec = .init(max(seconds > 0 ? 0 : 1, attoseconds / 1_000_000_000_000))
    }
}
