import Foundation

/// What changed between two request bodies, for a message that names it: a resend whose bytes
/// differ from its task's first request either re-encoded the same value (other key order or
/// whitespace) or changed a member (a send time stamped again at each attempt).
package enum BodyDifference {
    /// The paths of the JSON members whose values differ, such as `variables.input.sentAt`
    /// (`the body` when the top-level values differ and are not objects); empty when the values
    /// are equal, or either body is not JSON.
    package static func changedMembers(_ first: Data, _ second: Data) -> [String] {
        guard let a = try? JSONSerialization.jsonObject(with: first, options: [.fragmentsAllowed]),
            let b = try? JSONSerialization.jsonObject(with: second, options: [.fragmentsAllowed])
        else { return [] }
        return differences(a, b, at: "")
    }

    private static func differences(_ a: Any, _ b: Any, at path: String) -> [String] {
        if let a = a as? [String: Any], let b = b as? [String: Any] {
            return Set(a.keys).union(b.keys).sorted().flatMap { key -> [String] in
                let inner = path.isEmpty ? key : path + "." + key
                guard let x = a[key], let y = b[key] else { return [inner] }
                return differences(x, y, at: inner)
            }
        }
        let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
        let same = (try? JSONSerialization.data(withJSONObject: a, options: options))
            == (try? JSONSerialization.data(withJSONObject: b, options: options))
        return same ? [] : [path.isEmpty ? "the body" : path]
    }
}
