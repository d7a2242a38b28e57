import Foundation

/// Makes request bodies safe to put in the support log.
enum LogRedaction {
    /// Fields whose values must never reach a log line (`card` is the v1 API's name for the number).
    static let sensitiveFields: Set<String> = ["card", "cardNumber", "cvv", "pin"]

    static func redacted(_ body: Data) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: body, options: [.fragmentsAllowed]) else {
            return "<\(body.count) bytes, not JSON>"
        }
        let clean = redact(object, field: nil)
        guard let data = try? JSONSerialization.data(withJSONObject: clean, options: [.sortedKeys, .fragmentsAllowed])
        else { return "<\(body.count) bytes>" }
        return String(decoding: data, as: UTF8.self)
    }

    private static func redact(_ value: Any, field: String?) -> Any {
        switch value {
        case let object as [String: Any]:
            return object.reduce(into: [String: Any]()) { result, entry in
                result[entry.key] = redact(entry.value, field: entry.key)
            }
        case let array as [Any]:
            return array.map { redact($0, field: field) }
        case is String where field.map(sensitiveFields.contains) == true:
            return "••••"   // fully masked: a last-four hint would show a CVV whole
        default:
            // Numbers, booleans and null stay as they are: amounts, quantities and flags are what
            // support reads first in a failed redemption, and they identify no one.
            return value
        }
    }

    /// The server's machine-readable error code, if it sent one. Its human-readable message is
    /// never kept: validation messages quote the values they rejected.
    static func errorCode(in response: Data) -> String? {
        guard let object = try? JSONSerialization.jsonObject(with: response) as? [String: Any],
              let code = object["error"] as? String,
              !code.isEmpty, code.count <= 64,
              code.allSatisfy({ $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") })
        else { return nil }
        return code
    }
}
