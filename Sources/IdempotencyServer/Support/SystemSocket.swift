#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Thin wrappers over the C socket calls whose spelling differs between Glibc and Darwin.
///
/// Everything platform-specific in the server goes through here, so the rest of the module
/// reads the same on Linux and Apple platforms.
enum SystemSocket {
    /// `SOCK_STREAM` as the `Int32` the socket calls take (an enum on Glibc).
    static var streamType: Int32 {
        #if canImport(Glibc)
        Int32(SOCK_STREAM.rawValue)
        #else
        SOCK_STREAM
        #endif
    }

    /// Flags for `send` that stop a write to a closed peer from raising `SIGPIPE` (Linux);
    /// Apple platforms use the `SO_NOSIGPIPE` socket option instead (see ``configure(_:)``).
    static var sendFlags: Int32 {
        #if canImport(Darwin)
        0
        #else
        Int32(MSG_NOSIGNAL)
        #endif
    }

    /// The last error number.
    static var lastError: Int32 { errno }

    /// A readable description of an error number.
    static func describe(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// Sets the options every accepted or connected socket needs: no `SIGPIPE`, no Nagle delay.
    static func configure(_ fd: Int32) {
        var one: Int32 = 1
        let size = socklen_t(MemoryLayout<Int32>.size)
        #if canImport(Darwin)
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, size)
        #endif
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, size)
    }

    /// Limits how long a blocking `recv` waits for data before failing with `EAGAIN`.
    static func setReceiveTimeout(_ fd: Int32, _ duration: Duration) {
        var value = timeval(duration)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Limits how long a blocking `send` waits for buffer space.
    static func setSendTimeout(_ fd: Int32, _ duration: Duration) {
        var value = timeval(duration)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
    }

    /// Reads up to `count` bytes into `buffer`; returns what `recv` returns.
    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        recv(fd, buffer, count, 0)
    }

    /// Writes all of `bytes`, retrying partial writes and interruptions.
    /// - Returns: `false` if the peer went away or the write failed.
    @discardableResult
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw -> Bool in
            guard let base = raw.baseAddress else { return true }
            var offset = 0
            while offset < raw.count {
                let written = send(fd, base + offset, raw.count - offset, sendFlags)
                if written > 0 {
                    offset += written
                } else if written < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }

    /// Stops reading (`SHUT_RD`), writing (`SHUT_WR`) or both on a socket.
    static func shutdownRead(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_RD)) }
    static func shutdownWrite(_ fd: Int32) { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Closes a descriptor.
    static func close(_ fd: Int32) {
        #if canImport(Glibc)
        _ = Glibc.close(fd)
        #elseif canImport(Musl)
        _ = Musl.close(fd)
        #elseif canImport(Darwin)
        _ = Darwin.close(fd)
        #endif
    }

    /// The port a bound socket listens on.
    static func boundPort(_ fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getsockname(fd, $0, &length)
            }
        }
        guard result == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin_port)
                }
            }
        case AF_INET6:
            return withUnsafePointer(to: &storage) {
                $0.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    UInt16(bigEndian: $0.pointee.sin6_port)
                }
            }
        default:
            return nil
        }
    }
}

extension timeval {
    /// A `timeval` for a duration (at least one microsecond, so zero never means "forever").
    init(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        let micros = max(1, attoseconds / 1_000_000_000_000)
        self.init()
        self.tv_sec = .init(seconds)
        self.tv_usec = .init(micros)
    }
}

/// `EINTR`, for files that do not import the C library.
let EINTRValue: Int32 = EINTR

extension SystemSocket {
    /// Whether an error number means a socket timeout expired.
    static func isTimeout(_ code: Int32) -> Bool {
        code == EAGAIN || code == EWOULDBLOCK
    }
}
