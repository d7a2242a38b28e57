import Foundation

/// Masks secrets in JSON payloads before they reach a log line or a support report.
/// Shared with the sign-in module, which is why its defaults are credential fields.
enum Redactor {
    static let credentialFields: Set<String> = ["password", "token", "refreshToken", "secret"]
    static let mask = "<redacted>"

    /// The payload as compact JSON with sorted keys, every value under one of `fields` (at any depth)
    /// replaced by `mask`. A payload that is not JSON is summarised by its size.
    static func redact(_ payload: Data, hiding fields: Set<String> = credentialFields) -> String {
        guard let object = try? JSONSerialization.jsonObject(with: payload, options: [.fragmentsAllowed]) else {
            return "<\(payload.count) bytes>"
        }
        let masked = mask(object, fields: fields)
        guard JSONSerialization.isValidJSONObject(masked),
              let data = try? JSONSerialization.data(withJSONObject: masked, options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8)
        else { return "<\(payload.count) bytes>" }
        return text
    }

    private static func mask(_ value: Any, fields: Set<String>) -> Any {
        if let object = value as? [String: Any] {
            var copy: [String: Any] = [:]
            for (key, inner) in object {
                copy[key] = fields.contains(key) ? Self.mask : mask(inner, fields: fields)
            }
            return copy
        }
        if let array = value as? [Any] {
            return array.map { mask($0, fields: fields) }
        }
        return value
    }
}
