/// How ``WatchedTaskExecutor/startingTogether(release:_:)`` runs the first jobs of the tasks it
/// started.
package enum FirstJobsRelease: Sendable {
    /// One after the other on one thread, in the order the tasks were started.
    case backToBack
    /// Each on a new thread of its own, all let go at once.
    case atOnceOnOwnThreads
}
