/// Where triggers run when the kit must tell that their work is idle: a ``WatchedTaskExecutor``
/// where the runtime has task executors (macOS 15, iOS 18 and their peers; every Linux
/// toolchain the package supports), and the default pool elsewhere.
///
/// Both halves hold one (the queue half runs every trigger on it, the pager half the triggers
/// that start on the top priority rung), and ask it the same three things: is it idle, how many
/// jobs did it ever take, wait until it is idle. The availability check lives here, once.
/// Where no executor exists, it is always idle and never took a job: callers fall back on
/// barrier rounds, which a preempted thread can outlast.
package struct TriggerExecutor: Sendable {
    /// The ``WatchedTaskExecutor``, typed `Any` because a stored property cannot be newer than
    /// the platforms the package supports.
    private let executor: (any Sendable)?

    /// Creates one that calls `becameIdle` whenever its last job finishes (never, where the
    /// runtime has no task executors).
    package init(becameIdle: @escaping @Sendable () -> Void = {}) {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *) {
            executor = WatchedTaskExecutor(becameIdle: becameIdle)
        } else {
            executor = nil
        }
    }

    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *)
    private var watched: WatchedTaskExecutor? { executor as? WatchedTaskExecutor }

    /// Whether the runtime has task executors, so idleness is observed rather than assumed.
    package var isWatching: Bool { executor != nil }

    /// Whether no job is queued or running (always, where nothing is watched).
    package var isIdle: Bool {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            return watched.isIdle
        }
        return true
    }

    /// How many jobs were ever enqueued (0 where nothing is watched): a change between two
    /// reads means a task moved.
    package var enqueuedJobs: Int {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            return watched.enqueuedJobs
        }
        return 0
    }

    /// Returns once no job is queued or running (at once, where nothing is watched).
    package func waitUntilIdle() async {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            await watched.waitUntilIdle()
        }
    }

    /// Starts `operation` in a new task at `priority` that prefers this executor, so its child
    /// tasks and the default actors it enters run here too.
    package func startTask(
        priority: TaskPriority, _ operation: sending @escaping @isolated(any) () async -> Void
    ) -> Task<Void, Never> {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            return Task(executorPreference: watched, priority: priority, operation: operation)
        }
        return Task(priority: priority, operation: operation)
    }

    /// Calls `start`, which starts tasks with ``startTask(priority:_:)``, and runs their first
    /// jobs as `release` says (see ``WatchedTaskExecutor/startingTogether(release:_:)``); where
    /// task executors do not exist, just calls it.
    package func startingTogether<Result>(
        release: FirstJobsRelease = .backToBack, _ start: () throws -> Result
    ) rethrows -> Result {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            return try watched.startingTogether(release: release, start)
        }
        return try start()
    }

    /// Runs `body` in the current task, preferring this executor for as long as it runs.
    package func run(_ body: @Sendable () async throws -> Void) async throws {
        if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *), let watched {
            try await withTaskExecutorPreference(watched, operation: body)
        } else {
            try await body()
        }
    }
}
