#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ConformanceKit
import Dispatch
import Foundation

/// The fault server: an HTTP/1.1 idempotency-key endpoint that commits a write and then
/// loses the answer, so a client's offline write queue can be checked against it.
///
/// `POST /items` follows the seed script (`fault_server.py`): the `Idempotency-Key` header and
/// a JSON body are required (`400`); the first request for a key commits a record and gets
/// the fault mode's answer; a repeat with an equal body (compared as parsed JSON) gets `200`
/// with `{"id","attempts","record_count"}`; a repeat with another body gets `409` (`422` in
/// the IETF profile). `GET /records`, `GET /records/<key>` and `POST /reset` observe and clear
/// the records.
///
/// ```swift
/// let server = try FaultServer.start(ServerConfiguration(port: 0, journalPath: path))
/// print(server.baseURL)      // http://127.0.0.1:43121
/// await server.stop()
/// ```
///
/// Each connection is served on its own thread with blocking sockets; the accepting thread
/// waits in `poll` on the listening socket and a wake-up pipe, so ``stop()`` is an event,
/// not a timeout.
public final class FaultServer: Sendable {
    /// Why the server could not start.
    public struct StartError: Error, Hashable, Sendable, CustomStringConvertible {
        /// What went wrong, in one line.
        public let description: String
    }

    /// The configuration the server was started with.
    public let configuration: ServerConfiguration
    /// The port the server listens on (the chosen one when the configuration said `0`).
    public let port: UInt16
    /// How many records the journal replayed at start.
    public let replayedRecordCount: Int
    /// How many bytes of torn journal tail (an unacknowledged write cut by a crash) were dropped.
    public let droppedJournalTailBytes: Int

    private let listenFD: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let store: RecordStore
    private let router: RequestRouter
    private let journal: Journal?
    private let group = DispatchGroup()
    /// The open connections, and how far ``stop(completion:)`` has got.
    private let state = Locked(rawValue: State())

    private struct State {
        var connections: Set<Int32> = []
        var stopping = false
        var stopped = false
        var stopWaiters: [@Sendable () -> Void] = []
    }

    private init(
        configuration: ServerConfiguration, listenFD: Int32, port: UInt16, wake: (Int32, Int32),
        journal: Journal?, replay: Journal.Replay?
    ) {
        self.configuration = configuration
        self.listenFD = listenFD
        self.port = port
        (wakeRead, wakeWrite) = wake
        self.journal = journal
        replayedRecordCount = replay?.records.count ?? 0
        droppedJournalTailBytes = replay?.droppedTailBytes ?? 0
        store = RecordStore(journal: journal, replayed: replay?.records ?? [])
        router = RequestRouter(
            store: store, mode: configuration.mode, profile: configuration.profile,
            allowReset: configuration.allowReset)
    }

    /// Replays the journal (if any), binds, listens, and starts accepting connections.
    ///
    /// Returns only once the socket is listening: a client may connect as soon as it returns.
    /// - Parameter configuration: Where to listen and how to answer.
    /// - Returns: The running server.
    /// - Throws: ``StartError`` when the address cannot be bound or the journal is damaged.
    public static func start(_ configuration: ServerConfiguration) throws -> FaultServer {
        var journal: Journal?
        var replay: Journal.Replay?
        if let path = configuration.journalPath {
            do {
                let (opened, replayed) = try Journal.open(path: path)
                journal = opened
                replay = replayed
            } catch {
                throw StartError(description: "\(error)")
            }
        }
        do {
            let listenFD = try bind(host: configuration.host, port: configuration.port)
            guard let port = SystemSocket.boundPort(listenFD) else {
                SystemSocket.close(listenFD)
                throw StartError(description: "cannot read the bound port")
            }
            var pipeFDs: [Int32] = [-1, -1]
            guard pipe(&pipeFDs) == 0 else {
                SystemSocket.close(listenFD)
                throw StartError(description: "cannot create the wake-up pipe: \(SystemSocket.describe(errno))")
            }
            for fd in pipeFDs { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
            let server = FaultServer(
                configuration: configuration, listenFD: listenFD, port: port, wake: (pipeFDs[0], pipeFDs[1]),
                journal: journal, replay: replay)
            server.group.enter()
            let thread = Thread { server.acceptLoop() }
            thread.name = "fault-server accept"
            thread.start()
            return server
        } catch {
            journal?.close()
            throw error
        }
    }

    /// `host:port` as clients should dial it (`[::1]:8081` for IPv6).
    public var address: String {
        configuration.host.contains(":") ? "[\(configuration.host)]:\(port)" : "\(configuration.host):\(port)"
    }

    /// `http://host:port`, the base URL for clients and for the S contracts.
    public var baseURL: URL {
        URL(string: "http://\(address)")!
    }

    /// Every committed record, in ID order.
    public var records: [StoredRecord] {
        store.snapshot().records
    }

    /// How many requests each key has received (bad requests are not counted).
    public var attempts: [String: Int] {
        store.snapshot().attempts
    }

    /// Stops accepting, lets every request being processed finish and answer, closes idle
    /// connections and the journal, then calls `completion` (on a background queue).
    ///
    /// Calling it again is harmless; every completion is called.
    public func stop(completion: @escaping @Sendable () -> Void) {
        enum Step { case done, wait, begin }
        let step: Step = state.withLock { state in
            if state.stopped { return .done }
            state.stopWaiters.append(completion)
            if state.stopping { return .wait }
            state.stopping = true
            for fd in state.connections { SystemSocket.shutdownRead(fd) }
            return .begin
        }
        switch step {
        case .done:
            completion()
        case .wait:
            break
        case .begin:
            var byte: UInt8 = 1
            _ = write(wakeWrite, &byte, 1)
            group.notify(queue: .global()) { [self] in
                SystemSocket.close(listenFD)
                SystemSocket.close(wakeRead)
                SystemSocket.close(wakeWrite)
                journal?.close()
                let waiters = state.withLock { state in
                    state.stopped = true
                    defer { state.stopWaiters = [] }
                    return state.stopWaiters
                }
                for waiter in waiters { waiter() }
            }
        }
    }

    /// Stops the server (see ``stop(completion:)``) and returns once it has stopped: the port
    /// is free and the journal closed, so a new server may start on both.
    public func stop() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            stop { continuation.resume() }
        }
    }

    private func acceptLoop() {
        defer { group.leave() }
        while true {
            var fds = [
                pollfd(fd: listenFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents & Int16(POLLIN) != 0 else { continue }
            let client = accept(listenFD, nil, nil)
            if client >= 0 { admit(client) }
        }
    }

    private func admit(_ client: Int32) {
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        SystemSocket.configure(client)
        SystemSocket.setReceiveTimeout(client, configuration.idleTimeout)
        SystemSocket.setSendTimeout(client, configuration.idleTimeout)
        enum Admission { case refuseStopping, refuseFull, accept }
        let admission: Admission = state.withLock { state in
            if state.stopping { return .refuseStopping }
            if state.connections.count >= configuration.maxConnections { return .refuseFull }
            state.connections.insert(client)
            group.enter()
            return .accept
        }
        switch admission {
        case .refuseStopping:
            SystemSocket.close(client)
        case .refuseFull:
            let response = HTTPResponse.error(503, "too many connections; try again", close: true)
            SystemSocket.sendAll(client, response.serialized(keepAlive: false))
            SystemSocket.close(client)
        case .accept:
            let connection = HTTPConnection(
                fd: client, router: router,
                parser: HTTPRequestParser(
                    maxHeaderBytes: configuration.maxHeaderBytes, maxBodyBytes: configuration.maxBodyBytes))
            let thread = Thread { [self] in
                connection.run()
                _ = state.withLock { $0.connections.remove(client) }
                SystemSocket.close(client)
                group.leave()
            }
            thread.name = "fault-server connection"
            thread.start()
        }
    }

    /// Creates a listening socket on the first address `host` resolves to.
    private static func bind(host: String, port: UInt16) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = SystemSocket.streamType
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let list else {
            throw StartError(description: "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(list) }
        var failure = "no address"
        var entry: UnsafeMutablePointer<addrinfo>? = list
        while let info = entry {
            entry = info.pointee.ai_next
            let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
            guard fd >= 0 else {
                failure = SystemSocket.describe(errno)
                continue
            }
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            if systemBind(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0,
                listen(fd, SOMAXCONN) == 0
            {
                return fd
            }
            failure = SystemSocket.describe(errno)
            SystemSocket.close(fd)
        }
        throw StartError(description: "cannot listen on \(host):\(port): \(failure)")
    }
}

/// `bind(2)`, named apart from `FaultServer.bind`.
private func systemBind(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>!, _ length: socklen_t) -> Int32 {
    bind(fd, address, length)
}
