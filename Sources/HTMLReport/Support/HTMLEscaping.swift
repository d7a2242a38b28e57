/// Escaping for text the page writer puts into HTML, written by the kit itself (no package
/// dependencies).
///
/// Test names, messages and transcripts hold `<`, `&`, quotes and any Unicode: every one of
/// them goes through ``text(_:)`` before it reaches the page, and every value embedded in the
/// page's script goes through ``scriptJSON(_:)``.
package enum HTMLEscaping {
    /// `text` safe to place in HTML element content or in a double- or single-quoted attribute
    /// value: `&`, `<`, `>`, `"` and `'` become character references; everything else,
    /// non-ASCII included, is kept as it is (the page is UTF-8).
    ///
    /// - Parameter text: Any string.
    /// - Returns: The escaped string.
    package static func text(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            case "\u{0}": escaped += "\u{FFFD}"
            default: escaped.unicodeScalars.append(character)
            }
        }
        return escaped
    }

    /// `value` as a JavaScript string literal safe inside an HTML `<script>` element: quotes,
    /// backslashes and control characters are escaped as JSON does, and `<`, `>`, `&`,
    /// U+2028 and U+2029 as `\uXXXX`, so no text can close the script element or start a
    /// comment.
    ///
    /// - Parameter value: Any string.
    /// - Returns: The literal, quotes included.
    package static func scriptJSON(_ value: String) -> String {
        var literal = "\""
        literal.reserveCapacity(value.utf8.count + 2)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": literal += "\\\""
            case "\\": literal += "\\\\"
            case "\n": literal += "\\n"
            case "\r": literal += "\\r"
            case "\t": literal += "\\t"
            case "<", ">", "&", "\u{2028}", "\u{2029}":
                literal += unicodeEscape(scalar.value)
            default:
                if scalar.value < 0x20 {
                    literal += unicodeEscape(scalar.value)
                } else {
                    literal.unicodeScalars.append(scalar)
                }
            }
        }
        return literal + "\""
    }

    private static func unicodeEscape(_ value: UInt32) -> String {
        let hex = String(value, radix: 16)
        return "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}
