/// The one bug a mutant of ``CallbackFeedController`` carries. The adopter has none; the branch
/// that reads a defect is marked `// Mutant:` in ``CallbackFeedController``.
enum CallbackFeedControllerDefect: Hashable, Sendable {
    /// The in-flight token is recorded after the loader is called, on the assumption that the
    /// completion always runs later. A completion that runs inside the call (a cached page)
    /// finds no matching token and is dropped; the token set afterwards then blocks every later
    /// load.
    case marksLoadingAfterTheCall
}
