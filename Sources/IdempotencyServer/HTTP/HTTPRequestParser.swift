/// Parses HTTP/1.x requests from the bytes a connection has received so far.
///
/// The parser is a pure function of the buffer: it either needs more bytes, returns one
/// complete request and how many bytes it used (the rest belongs to the next, pipelined,
/// request), or rejects the buffer with the 4xx/5xx to answer before closing.
struct HTTPRequestParser {
    /// What the buffer holds.
    enum Result {
        /// The head is not complete yet.
        case needHead
        /// The head is complete, the body is not; `expectsContinue` when the client waits
        /// for `100 Continue` before sending it.
        case needBody(expectsContinue: Bool)
        /// One complete request, using the first `consumed` bytes.
        case request(HTTPRequest, consumed: Int)
        /// The request is malformed or too large: answer this and close.
        case reject(HTTPResponse)
    }

    /// The largest head (request line and header fields) accepted, in bytes.
    var maxHeaderBytes: Int
    /// The largest body accepted, in bytes.
    var maxBodyBytes: Int
    /// The most header fields accepted.
    var maxHeaderCount = 100

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// Parses the start of `buffer`.
    func parse(_ buffer: [UInt8]) -> Result {
        // Clients may send stray line breaks between requests; skip them.
        var start = 0
        while start < buffer.count, buffer[start] == Self.cr || buffer[start] == Self.lf { start += 1 }
        guard let (headEnd, bodyStart) = Self.findHeadEnd(buffer, from: start) else {
            if buffer.count - start > maxHeaderBytes {
                return .reject(.error(431, "the request head is larger than \(maxHeaderBytes) bytes", close: true))
            }
            return .needHead
        }
        if headEnd - start > maxHeaderBytes {
            return .reject(.error(431, "the request head is larger than \(maxHeaderBytes) bytes", close: true))
        }
        // Split on bytes: in Swift "\r\n" is one Character, so a String split on "\n" misses it.
        let lines = buffer[start..<headEnd].split(separator: Self.lf, omittingEmptySubsequences: false)
            .map { line in
                Substring(String(decoding: line.last == Self.cr ? line.dropLast() : line, as: UTF8.self))
            }
        guard let requestLine = lines.first else {
            return .reject(.error(400, "empty request line", close: true))
        }
        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, parts[0].allSatisfy(Self.isTokenCharacter) else {
            return .reject(.error(400, "malformed request line (expected: METHOD /path HTTP/1.1)", close: true))
        }
        let version = parts[2]
        guard version.hasPrefix("HTTP/"), version.count == 8,
            let major = Int(String(version.dropFirst(5).prefix(1))),
            version.dropFirst(6).first == ".",
            let minor = Int(String(version.suffix(1)))
        else {
            return .reject(.error(400, "malformed HTTP version \"\(version.prefix(20))\"", close: true))
        }
        guard major == 1 else {
            return .reject(.error(505, "only HTTP/1.0 and HTTP/1.1 are supported", close: true))
        }
        guard let path = Self.path(of: parts[1]) else {
            return .reject(.error(400, "malformed request target", close: true))
        }

        var headers: [(name: String, value: String)] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" {
                return .reject(.error(400, "folded header lines are not allowed", close: true))
            }
            guard let colon = line.firstIndex(of: ":") else {
                return .reject(.error(400, "malformed header line (no colon)", close: true))
            }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(Self.isTokenCharacter) else {
                return .reject(.error(400, "malformed header name", close: true))
            }
            headers.append((String(name), line[line.index(after: colon)...].trimmingCharacters(in: " \t")))
            if headers.count > maxHeaderCount {
                return .reject(.error(431, "more than \(maxHeaderCount) header fields", close: true))
            }
        }
        var request = HTTPRequest(method: String(parts[0]), path: path, minorVersion: minor, headers: headers, body: [])

        if request.header("Transfer-Encoding") != nil {
            return .reject(.error(411, "Transfer-Encoding is not supported; send a Content-Length", close: true))
        }
        var length = 0
        let lengths = headers.filter { $0.name.lowercased() == "content-length" }
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false) }
            .map { $0.trimmingCharacters(in: " \t") }
        if let first = lengths.first {
            guard lengths.allSatisfy({ $0 == first }), !first.isEmpty, first.count <= 18,
                first.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let value = Int(first)
            else {
                return .reject(.error(400, "malformed Content-Length", close: true))
            }
            length = value
        }
        if length > maxBodyBytes {
            return .reject(.error(413, "the body is larger than \(maxBodyBytes) bytes", close: true))
        }
        guard buffer.count - bodyStart >= length else {
            let expects = request.header("Expect")?.lowercased() == "100-continue"
            return .needBody(expectsContinue: expects)
        }
        request.body = Array(buffer[bodyStart..<(bodyStart + length)])
        return .request(request, consumed: bodyStart + length)
    }

    /// Finds the blank line that ends the head: returns where the head ends (before the
    /// blank line) and where the body starts. Accepts CRLF and bare LF line endings.
    private static func findHeadEnd(_ buffer: [UInt8], from start: Int) -> (Int, Int)? {
        var index = start
        while index < buffer.count {
            if buffer[index] == lf {
                if index + 1 < buffer.count, buffer[index + 1] == lf { return (index, index + 2) }
                if index + 2 < buffer.count, buffer[index + 1] == cr, buffer[index + 2] == lf {
                    return (index, index + 3)
                }
            }
            index += 1
        }
        return nil
    }

    /// The percent-decoded path of an origin-form (`/items?x`) or absolute-form target.
    private static func path(of target: Substring) -> String? {
        var target = target
        if target.hasPrefix("http://") || target.hasPrefix("https://") {
            let afterScheme = target[target.index(target.firstIndex(of: ":")!, offsetBy: 3)...]
            target = afterScheme.firstIndex(of: "/").map { afterScheme[$0...] } ?? "/"
        }
        guard target.first == "/" else { return nil }
        let raw = target.prefix { $0 != "?" && $0 != "#" }
        return String(raw).removingPercentEncodingIfValid()
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"()<>@,;:\\\"/[]?={}".contains(character)
    }
}
