import Foundation

/// One request parked at the kit's transport, waiting for the timeline to answer it.
struct ParkedSend: Hashable, Sendable {
    /// The send's number in the run, from 1.
    let number: Int
    /// The trigger whose work sent it, or `nil` when no trigger's task-local tag reached the
    /// transport (sent from a `DispatchQueue`, a completion handler, or outside every trigger).
    let trigger: Int?
    /// The launch (process) whose transport it came through.
    let instance: Int
    /// What the queue sent, read through the declared layout: the key, and the operation's body
    /// as canonical JSON (compared as a JSON value).
    let request: WriteRequest
    /// The body bytes exactly as the queue sent them (compared byte for byte between the
    /// attempts of one task, Q3).
    let rawBody: Data
    /// Whether the queue sent it through the completion-handler API.
    let isCallback: Bool
}
