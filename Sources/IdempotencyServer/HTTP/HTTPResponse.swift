/// One HTTP response the server writes, or the decision to write none.
struct HTTPResponse {
    /// The status code.
    var status: Int
    /// Extra header fields (Content-Length and Connection are added when serializing).
    var headers: [(name: String, value: String)] = []
    /// The body.
    var body: [UInt8] = []
    /// Close the connection after writing (framing is lost, or the client asked).
    var closeConnection = false

    /// A JSON response.
    static func json(_ status: Int, _ text: String, headers: [(name: String, value: String)] = []) -> HTTPResponse {
        HTTPResponse(
            status: status, headers: [("Content-Type", "application/json")] + headers,
            body: Array(text.utf8))
    }

    /// A JSON error response: `{"error":"…","status":400}`.
    static func error(_ status: Int, _ message: String, close: Bool = false) -> HTTPResponse {
        var text = "{\"error\":"
        JSONValue.writeString(message, to: &text)
        text += ",\"status\":\(status)}"
        var response = json(status, text)
        response.closeConnection = close
        return response
    }

    /// The bytes on the wire.
    func serialized(keepAlive: Bool) -> [UInt8] {
        var head = "HTTP/1.1 \(status) \(HTTPResponse.reason(for: status))\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "Content-Length: \(body.count)\r\n"
        head += keepAlive && !closeConnection ? "Connection: keep-alive\r\n" : "Connection: close\r\n"
        head += "\r\n"
        return Array(head.utf8) + body
    }

    /// The reason phrase of a status code.
    static func reason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 200: "OK"
        case 201: "Created"
        case 400: "Bad Request"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 422: "Unprocessable Content"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 503: "Service Unavailable"
        case 505: "HTTP Version Not Supported"
        default: "Status \(status)"
        }
    }
}
