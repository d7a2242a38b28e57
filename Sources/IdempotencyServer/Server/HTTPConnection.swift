/// One client connection: reads requests (keep-alive and pipelining included), answers each
/// through the router, and closes on error, on `Connection: close`, on idle timeout, or when
/// the server stops.
struct HTTPConnection {
    let fd: Int32
    let router: RequestRouter
    let parser: HTTPRequestParser

    /// Serves the connection until it ends. Does not close the descriptor.
    func run() {
        var buffer: [UInt8] = []
        var continueSent = false
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            switch parser.parse(buffer) {
            case .request(let request, let consumed):
                buffer.removeFirst(consumed)
                continueSent = false
                switch router.route(request) {
                case .drop:
                    return
                case .respond(let response):
                    let keepAlive = request.keepAlive && !response.closeConnection
                    guard SystemSocket.sendAll(fd, response.serialized(keepAlive: keepAlive)), keepAlive else {
                        return
                    }
                }
                continue
            case .reject(let response):
                reject(response)
                return
            case .needBody(let expectsContinue):
                if expectsContinue && !continueSent {
                    continueSent = true
                    guard SystemSocket.sendAll(fd, Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return }
                }
            case .needHead:
                break
            }
            let count = chunk.withUnsafeMutableBytes {
                SystemSocket.receive(fd, into: $0.baseAddress!, count: $0.count)
            }
            if count > 0 {
                buffer.append(contentsOf: chunk[0..<count])
            } else if count == 0 {
                return  // the client closed (or the server is stopping); a partial request is dropped
            } else if SystemSocket.lastError == EINTRValue {
                continue
            } else if SystemSocket.isTimeout(SystemSocket.lastError), buffer.contains(where: { $0 > 32 }) {
                reject(.error(408, "the request was not completed within the idle limit", close: true))
                return
            } else {
                return  // idle keep-alive connection timed out, or a socket error
            }
        }
    }

    /// Answers a malformed request and closes gently: stop writing, then discard what the
    /// client is still sending (bounded), so the answer is not lost to a reset.
    private func reject(_ response: HTTPResponse) {
        guard SystemSocket.sendAll(fd, response.serialized(keepAlive: false)) else { return }
        SystemSocket.shutdownWrite(fd)
        SystemSocket.setReceiveTimeout(fd, .milliseconds(500))
        var discard = [UInt8](repeating: 0, count: 16 * 1024)
        var total = 0
        while total < 4 * 1024 * 1024 {
            let count = discard.withUnsafeMutableBytes {
                SystemSocket.receive(fd, into: $0.baseAddress!, count: $0.count)
            }
            if count <= 0 { return }
            total += count
        }
    }
}
