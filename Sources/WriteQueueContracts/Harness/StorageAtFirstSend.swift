/// What storage held for one operation while its first request was in flight: the evidence a
/// later failure is Q1's (the task was never safely stored) rather than the running contract's.
struct StorageAtFirstSend: Sendable {
    /// The number of that first request.
    let send: Int
    /// The key it carried.
    let key: String?
    /// The operation's stored task then, if any.
    let stored: PersistedTask?
    /// Every stored task then, as the transcript shows them.
    let tasks: String
}
