import ConformanceKit
import Foundation

/// Runs a schedule step by step against one driver, keeping an oracle of what the kit
/// delivered and accepted, and checks the invariants I1–I6 after every step.
///
/// "Accepted", from the kit's view: the first answer to a request of the current generation
/// (a request the pager started after the last query change or refresh). A stale answer, a
/// second delivery and a failure are never accepted.
final class ScheduleExecution {
    /// A request the pager started.
    struct Request: Hashable {
        let number: Int
        let generation: Int
        let query: String
        let position: PagePosition
        /// The first answer, once given.
        var answer: PageAnswer?
        /// Answers to non-current requests and repeated answers given before this one started:
        /// one given later while it is in flight may be what cleared its in-flight state.
        var staleAnswersBefore = 0
        var repeatedAnswersBefore = 0
        /// Query changes before this request: one made stale by a refresh alone has the
        /// current count (the query may also have gone back to this request's name: A, B, A).
        var queryChanges = 0
    }

    /// Why the current query may start no further request (I5).
    enum EndOfList: Hashable {
        case lastPage
        case stalledCursor(String?)
        case cursorCycle(String)
        case noProgress(Int)

        /// The contract whose rule a request after this end breaks.
        var contract: ContractID {
            switch self {
            case .lastPage: "P7"
            case .stalledCursor, .cursorCycle: "P10"
            case .noProgress: "P12"
            }
        }

        var tier: ContractTier {
            switch self {
            case .lastPage, .stalledCursor: .required
            case .cursorCycle, .noProgress: .recommended
            }
        }

        var description: String {
            switch self {
            case .lastPage: "an accepted response said hasMore: false"
            case .stalledCursor(let cursor):
                "an accepted response returned the requested cursor \(cursor.map { "\"\($0)\"" } ?? "none") with hasMore: true (P10)"
            case .cursorCycle(let cursor):
                "an accepted response returned cursor \"\(cursor)\", already requested in this query (a cycle, P10)"
            case .noProgress(let pages):
                "\(pages) accepted pages in a row added no new item (P12)"
            }
        }
    }

    /// A schedule that does not apply under the delivery mode it is replayed in: not a
    /// finding, the replay just ends.
    struct NotApplicable: Error {
        let reason: String
        /// Whether the step was settled by assumption (the five task priorities were spent):
        /// a search starts again without it (see ``restart(skipping:after:replaying:)``).
        var byAssumption = false
    }

    /// A failed invariant, ready for the report.
    struct Failure: Error {
        /// The contract whose rule broke (the finding's name); `nil` for an adapter error.
        let invariant: ContractID?
        let violation: Violation
        /// What the search and the shrinker hold fixed: the rule with the tier of its broken
        /// check, keyed by the invariant when the contract depends on which earlier step caused
        /// the failure (I1), so the shrinker can drop a step that was not the cause and the
        /// shrunk schedule names the contract; or the adapter.
        let key: ScheduleFailure

        init(invariant: ContractID, violation: Violation, key: ContractID? = nil) {
            self.invariant = invariant
            self.violation = violation
            self.key = .rule(key ?? invariant, tier: violation.tier)
        }

        /// `error` as a failure: itself, or an adapter error the explorer reports as found.
        init(_ error: any Error) {
            if let failure = error as? Failure {
                self = failure
            } else {
                invariant = nil
                violation = Violation(
                    kind: .adapterError,
                    summary: "Expected the adapter to complete the step, but it threw \(error).")
                key = .adapterError
            }
        }
    }

    let driver: any PagerDriving
    /// The driver again when it steps synchronously (the model level), called without `await`.
    private let synchronousDriver: (any SynchronousPagerDriving)?
    let capabilities: PagerCapabilities
    let recorder: TimelineRecorder?
    var usesCursors: Bool { capabilities.pagination == .cursors }

    // The state below is `@exclusivity(unchecked)`: an execution belongs to one schedule, run by
    // one task from start to end, and no method holds an access to a property across a call
    // that touches it again. The runtime's checks of each access (a thread-local access set)
    // were 8% of a model-level schedule's profile.
    @exclusivity(unchecked) private(set) var requests: [Request] = []
    @exclusivity(unchecked) private(set) var generation = 0
    @exclusivity(unchecked) private(set) var query = "A"
    @exclusivity(unchecked) private(set) var state = PagerState(visible: [])
    @exclusivity(unchecked) private(set) var stepsTaken = 0
    /// Triggers skipped because the kit could not have settled them by evidence.
    @exclusivity(unchecked) private(set) var unobservableTriggers = SkippedTriggers()

    // The oracle of the current generation.
    @exclusivity(unchecked) private(set) var accepted: [Int] = []
    @exclusivity(unchecked) private(set) var acceptedSet: RowSet = []
    @exclusivity(unchecked) private(set) var acceptedPages = 0
    @exclusivity(unchecked) private(set) var lastAcceptedCursor: String?
    @exclusivity(unchecked) private(set) var requestedCursors: [String] = []
    @exclusivity(unchecked) private(set) var failedPosition: PagePosition?
    /// Whether the current generation's latest failure was a cancellation error.
    @exclusivity(unchecked) private var failedByCancellation = false
    /// The list a refresh replaces, kept until the refreshed list accepts its first page: a
    /// pager may abandon a refresh whose own request ended in a cancellation error and go on
    /// with that list (see ``returnToTheListBeforeAnAbandonedRefresh(asking:)``).
    @exclusivity(unchecked) private var listBeforeRefresh: GenerationMark?
    @exclusivity(unchecked) private(set) var end: EndOfList?
    /// Whether an earlier generation's list ended (``end`` was set) and no page was accepted
    /// since: a pager that shows that end to the new query, and loads nothing, broke P7's
    /// "only a query change or a refresh starts a new list" (see ``checkLiveness()``).
    @exclusivity(unchecked) private(set) var earlierListEnded = false
    @exclusivity(unchecked) private(set) var pagesWithoutProgress = 0
    @exclusivity(unchecked) private(set) var generationStartVisible: [VisibleItem] = []
    /// What the query change or refresh that began this generation showed by itself, before
    /// any answer: rows the pager had accepted in earlier generations (a list that caches each
    /// query's rows shows them again at once, until the fresh first page replaces them).
    @exclusivity(unchecked) private(set) var generationShownVisible: [VisibleItem] = []
    /// Every row accepted in an earlier generation (while its generation was current).
    @exclusivity(unchecked) private(set) var acceptedBefore: RowSet = []
    /// Whether the pager showed `hasMore` other than `false` since this generation began: a
    /// pager that never did shows the end an earlier generation's list reached.
    @exclusivity(unchecked) private(set) var showedMoreThisGeneration = false
    /// Whether the step being applied began a generation (a query change or refresh).
    @exclusivity(unchecked) private var stepBeganGeneration = false
    /// Whether the current generation began with a refresh (the query stayed), rather than a
    /// query change: what it shows after its first page is P11's, not P4's.
    @exclusivity(unchecked) private(set) var generationIsRefresh = false
    /// Whether the current query's first accepted page stalled its cursor (P10): a pager may
    /// refuse it and keep showing what it showed before, as before any first page.
    @exclusivity(unchecked) private(set) var stalledFirstPage = false
    /// Whether the list is on screen: the appear event was sent (adapters that declare
    /// `.appear`), or any trigger fired, which only a list on screen can get.
    @exclusivity(unchecked) private var appeared = false
    /// The last step of this query that may have changed what a snapshot does not show, and
    /// so the rule a pager stuck at the end of the schedule breaks: a failure of the current
    /// page (P6), an earlier query's answer (P4), a page delivered again (P3).
    @exclusivity(unchecked) private(set) var lastSuspect: ContractID?
    /// The trigger being performed, while it runs.
    @exclusivity(unchecked) private(set) var triggerInProgress: PagerTrigger?
    /// Whether the step being applied delivers a page the kit accepts (a request the pager
    /// starts now, it started by itself on that page).
    @exclusivity(unchecked) private var answeringAcceptedPage = false
    /// Rows delivered to stale requests, by row ID.
    @exclusivity(unchecked) private(set) var staleRows: RowSet = []
    /// The new items of the page whose cursor stalled (P10): a pager may show or refuse them.
    @exclusivity(unchecked) private(set) var refusableRows: RowSet = []
    /// Answers given so far to requests of a non-current query (pages and failures).
    @exclusivity(unchecked) private(set) var staleAnswersGiven = 0
    /// The number of the request whose answer was the latest one given to a non-current
    /// request: its rule names what such an answer broke (``staleRule(of:)``).
    @exclusivity(unchecked) private(set) var latestStaleRequest: Int?
    /// Pages delivered again so far.
    @exclusivity(unchecked) private(set) var repeatedAnswersGiven = 0
    /// Pages of the current query delivered again: in a shrunk schedule, one still there is
    /// what broke the position or the list (P3), whatever invariant saw it.
    @exclusivity(unchecked) private(set) var repeatedAnswersThisQuery = 0
    /// Answers to an earlier query's requests given since this query began: in a shrunk
    /// schedule, one still there is what moved the position (P4), whatever invariant saw it.
    @exclusivity(unchecked) private(set) var staleAnswersThisQuery = 0
    /// The generation of the response that minted each cursor.
    @exclusivity(unchecked) private(set) var cursorGenerations: [String: Int] = [:]

    init(driver: any PagerDriving, recorder: TimelineRecorder?) {
        self.driver = driver
        self.synchronousDriver = driver as? any SynchronousPagerDriving
        self.capabilities = driver.capabilities
        self.recorder = recorder
    }

    /// A fresh execution over a fresh driver for `subject`, without a transcript unless
    /// `recorder` is given.
    /// - Parameters:
    ///   - mode: The delivery mode (async level; ignored at the model level).
    ///   - plan: The answers an `alreadyAvailable` run hands over at registration, recorded by
    ///     an `immediate` run of the same steps.
    ///   - recorder: The transcript, for a report.
    ///   - waits: Without a transcript, where the driver says what it waits for, so a
    ///     watchdog can quote it.
    static func make(
        _ subject: ExplorationSubject, mode: DeliveryMode? = nil, plan: AnswerPlan = AnswerPlan(),
        recorder: TimelineRecorder? = nil, waits: TimelineRecorder? = nil
    ) async -> ScheduleExecution {
        let wired = recorder ?? waits ?? TimelineRecorder(tier: .required)
        let execution = ScheduleExecution(
            driver: await subject.makeDriver(wired, mode, plan), recorder: recorder)
        if let reference = subject.reference {
            execution.shadow = ScheduleExecution(driver: await reference.makeDriver(), recorder: nil)
            execution.shadowName = reference.name
        }
        return execution
    }

    /// Counts a trigger settled by assumption as taken and skipped, without running it: a
    /// restart replays the schedule without it (see ``restart(after:subject:mode:plan:waits:replaying:)``).
    /// - Parameter previous: The execution this one replaces, whose count of unobservable
    ///   triggers (that one included) this one takes over.
    func passUnobservedStep(countedBy previous: ScheduleExecution? = nil) {
        stepsTaken += 1
        if let previous { unobservableTriggers = previous.unobservableTriggers }
    }

    /// Ends the subject's work (answers what is open at the async level).
    func finish() async {
        await driver.finish()
        await shadow?.finish()
    }

    // MARK: - The differential check

    /// The reference the differential check replays every step on, while it is comparable
    /// (see `ScheduleExecution+Differential.swift`).
    @exclusivity(unchecked) var shadow: ScheduleExecution?
    @exclusivity(unchecked) var shadowName = ""


    /// The requests not answered yet.
    var unanswered: [Request] { openNumbers.map { requests[$0 - 1] } }

    /// The numbers of the requests not answered yet, oldest first (kept as requests start and
    /// are answered: the random search asks for them at every step).
    @exclusivity(unchecked) private(set) var openNumbers: [Int] = []

    private func markAnswered(_ index: Int, _ answer: PageAnswer) {
        requests[index].answer = answer
        openNumbers.removeAll { $0 == index + 1 }
    }

    /// The requests answered with a page, which may be delivered again.
    var answeredWithPage: [Request] { requests.filter(canRedeliver) }

    /// Whether some request was answered with a page (without building the list).
    var hasAnsweredWithPage: Bool { requests.contains(where: canRedeliver) }

    /// Whether `request`'s page may be delivered again: it has one, and no open request of its
    /// generation asks for the same position (a retry at a stalled cursor). A pager whose
    /// ticket is the query and the position cannot tell that second delivery from the open
    /// request's answer, as it cannot tell a failure delivered twice from the retry's.
    func canRedeliver(_ request: Request) -> Bool {
        guard case .page = request.answer else { return false }
        return !openNumbers.contains {
            requests[$0 - 1].generation == request.generation && requests[$0 - 1].position == request.position
        }
    }

    /// Whether a second delivery of one response is possible at this level.
    var canDeliverTwice: Bool { driver.canDeliverTwice }

    /// Takes in the requests the subject made while it was created, as requests of the first
    /// query, and the first snapshot.
    ///
    /// Taken in by the first step instead, a load a screen starts in `init` counted as that
    /// step's: a refresh that superseded it was found starting two requests at once (P1, the
    /// thirty-fourth trial's controller written again by another author).
    func start() async {
        if synchronousDriver == nil {
            let positions = await driver.requestsMadeAtInit()
            if !positions.isEmpty { requestsAtInit = register(positions) }
        }
        state = await driverState()
    }

    /// The requests made while the subject was created, as the transcript names them; empty
    /// when there were none.
    @exclusivity(unchecked) private(set) var requestsAtInit = ""

    /// What the driver shows now, without an `async` call when it steps synchronously.
    @inline(__always)
    private func driverState() async -> PagerState {
        if let synchronousDriver { return synchronousDriver.stateNow() }
        return await driver.state()
    }

    /// A hash of what the user sees plus the kit's oracle and requests: two prefixes with the
    /// same fingerprint are explored once.
    var fingerprint: Int {
        var hasher = Hasher()
        hasher.combine(state)
        hasher.combine(requests)
        hasher.combine(generation)
        hasher.combine(accepted)
        hasher.combine(acceptedPages)
        hasher.combine(lastAcceptedCursor)
        hasher.combine(failedPosition)
        hasher.combine(failedByCancellation)
        hasher.combine(listBeforeRefresh?.acceptedPages)
        hasher.combine(end)
        hasher.combine(pagesWithoutProgress)
        return hasher.finalize()
    }

    /// Applies one step and checks the invariants.
    /// - Returns: `false` when the step could not apply and was skipped.
    /// - Throws: ``Failure`` when an invariant fails; an adapter's own error otherwise.
    @discardableResult
    func apply(_ step: PagerSchedule.Step) async throws -> Bool {
        stepsTaken += 1
        let before = state
        var text = ""
        var staleAnswer: Request?
        var repeatedCurrentAnswer: Request?
        let planned = driver.plannedAnswers
        if !planned.isEmpty, !(step.isFirstAnswer && planned.contains(step.request ?? 0)) {
            // The subject already holds the answer to a request, but this step does not give
            // it: the steps before were skipped differently from the `immediate` replay that
            // planned the answers, so this schedule does not apply under this delivery.
            throw NotApplicable(
                reason: "under answers already available, \(step.swiftCode) came where the planned answer to request #\(planned[0]) was due")
        }
        if step.request == nil, let reason = driver.triggerUnobservable {
            unobservableTriggers.add(step.swiftCode)
            return skip(step, reason)
        }
        let requestsBefore = requests.count
        switch step {
        case .bottomReached where capabilities.triggers.contains(.appear) && !appeared:
            // The first load of a list that loads on appear comes from the appear event.
            text = try await appearFirst()
        case .bottomReached:
            text = "bottom reached" + (try await fire(.bottomReached))
        case .retry:
            text = try await appearFirst(then: "; ") + "retry" + (try await fire(.retry))
        case .fillScreen:
            guard capabilities.triggers.contains(.fillScreen) else { return skip(step, "no fill-the-screen trigger declared") }
            text = try await appearFirst(then: "; ") + "fill the screen" + (try await fire(.fillScreen))
        case .changeQuery:
            guard capabilities.changesQuery else { return skip(step, "no query change declared") }
            // A, B, A, B, …: going back to an earlier query's name shows a pager that recognises
            // its requests by the query text rather than by a generation (A's first request
            // answered after A, B, A is stale, whatever its query says).
            let appearance = try await appearFirst(then: "; ")
            let next = generationQueries % 2 == 0 ? "B" : "A"
            let mark = generationMark
            let keptBeforeRefresh = listBeforeRefresh
            startGeneration(query: next)
            text = appearance + "query changed to \(next)" + (try await fire(.changeQuery(next)))
            if lastTriggerRejected {
                text += undo(mark)
                listBeforeRefresh = keptBeforeRefresh
            }
        case .refresh:
            guard capabilities.triggers.contains(.refresh) else { return skip(step, "no refresh trigger declared") }
            let appearance = try await appearFirst(then: "; ")
            let mark = generationMark
            let nothingAccepted = acceptedPages == 0
            let keptBeforeRefresh = listBeforeRefresh
            startGeneration(query: query)
            // A refresh of a refresh that accepted nothing replaces the list still on screen.
            listBeforeRefresh = (nothingAccepted ? keptBeforeRefresh : nil) ?? mark
            text = appearance + "refresh" + (try await fire(.refresh))
            if lastTriggerRejected {
                text += undo(mark)
                listBeforeRefresh = keptBeforeRefresh
            } else if nothingAccepted, requests.count == requestsBefore, !driver.lastTriggerWaits,
                await driverState() == before
            {
                // A refresh before the generation's first page, which requested nothing and
                // changed nothing, did not reload: no new generation (P11 is about a refresh
                // that reloads), and the first page in flight is as fresh as a reload. (The
                // twentieth trial's `NotificationsReducer` ignores a refresh until its first
                // page is shown; the explorer took its first page as stale.) A refresh ignored
                // after a page was shown is still a new generation: the contracts' P11 asks it
                // to reload.
                _ = undo(mark)
                listBeforeRefresh = keptBeforeRefresh
                if recorder != nil { text += " (requested nothing and changed nothing before the first page: not a reload)" }
            }
        case .deliver(let number, let rows, let hasMore, let cursorAnswer):
            guard let index = index(of: number), requests[index].answer == nil else {
                return skip(step, "request #\(number) is not waiting for an answer")
            }
            let request = requests[index]
            let response = PageResponse(
                rows: rows.map(PageRow.init(id:)), hasMore: hasMore,
                nextCursor: usesCursors ? cursor(answering: request, hasMore: hasMore, with: cursorAnswer) : nil)
            if let minted = response.nextCursor, cursorGenerations[minted] == nil {
                cursorGenerations[minted] = request.generation
            }
            markAnswered(index, .page(response))
            if request.generation == generation {
                accept(response, for: request)
                if lastSuspect == "P6" { lastSuspect = nil }
            } else {
                lastSuspect = "P4"
                staleAnswer = request
                latestStaleRequest = request.number
                staleAnswersGiven += 1
                staleAnswersThisQuery += 1
                staleRows.formUnion(rows)
            }
            answeringAcceptedPage = request.generation == generation
            let started = try await answer(index, with: .page(response))
            answeringAcceptedPage = false
            if recorder != nil { text = "answer \(describe(request))\(staleNote(request)): \(response)" + started }
        case .redeliver(let number):
            guard driver.canDeliverTwice, let index = index(of: number),
                case .page(let response)? = requests[index].answer, canRedeliver(requests[index])
            else { return skip(step, "request #\(number) has no page to deliver again, or an open request asks for the same position") }
            let request = requests[index]
            lastSuspect = request.generation == generation ? "P3" : "P4"
            if request.generation != generation {
                staleAnswer = request
                latestStaleRequest = request.number
                staleAnswersGiven += 1
                staleAnswersThisQuery += 1
            } else {
                repeatedAnswersThisQuery += 1
                repeatedCurrentAnswer = request
            }
            repeatedAnswersGiven += 1
            let started = try await answer(index, with: .page(response))
            if recorder != nil { text = "answer \(describe(request)) [again]\(staleNote(request)): \(response)" + started }
        case .fail(let number, let failure):
            guard let index = index(of: number), requests[index].answer == nil else {
                return skip(step, "request #\(number) is not waiting for an answer")
            }
            let request = requests[index]
            markAnswered(index, .failure(failure))
            if request.generation == generation {
                failedPosition = request.position
                failedByCancellation = failure == .cancelled
                lastSuspect = "P6"
            } else {
                lastSuspect = "P4"
                staleAnswer = request
                latestStaleRequest = request.number
                staleAnswersGiven += 1
                staleAnswersThisQuery += 1
            }
            let started = try await answer(index, with: .failure(failure))
            if recorder != nil { text = "answer \(describe(request))\(staleNote(request)): failure: \(failure)" + started }
        }
        if !driver.plannedAnswers.isEmpty {
            // The subject already holds an answer the schedule gives at a later step: what it
            // shows now is checked together with that step.
            let notes = driver.takeNotes()
            recorder?.record(
                text + notes.map { " (\($0))" }.joined() + " ⇒ checked after the answer already available")
            try checkPendingRequestFailure()
            return true
        }
        state = await driverState()
        if state.hasMore != false { showedMoreThisGeneration = true }
        if stepBeganGeneration {
            stepBeganGeneration = false
            // Shown by the trigger itself (no answer was given in this step): taken as the
            // generation's starting list only if every row was accepted in an earlier generation.
            if acceptedPages == 0, !state.visible.isEmpty, state.visible != generationStartVisible,
                state.visible.allSatisfy({ if case .row(let id) = $0 { acceptedBefore.contains(id) } else { false } })
            {
                generationShownVisible = state.visible
            }
        }
        let notes = driver.takeNotes()
        if let recorder {
            recorder.record(text + notes.map { " (\($0))" }.joined() + " ⇒ \(state)")
        }
        try checkPendingRequestFailure()
        let startedCurrent = requests[requestsBefore...].contains { $0.generation == generation }
        if let repeatedCurrentAnswer { try checkRepeatedAnswer(repeatedCurrentAnswer, before: before) }
        try checkState(
            before: before, staleAnswer: staleAnswer, startedCurrentRequest: startedCurrent,
            repeatedCurrentAnswer: repeatedCurrentAnswer != nil)
        // Tested here as well as in the callee: a step with no reference to compare with (most
        // of them) then makes no async call.
        if shadow != nil { try await compareWithReference(step) }
        return true
    }

    // MARK: - Steps

    /// Query changes so far (a refresh keeps the query).
    @exclusivity(unchecked) private(set) var generationQueries = 0

    private func startGeneration(query newQuery: String) {
        if newQuery != query { generationQueries += 1 }
        acceptedBefore.formUnion(acceptedSet)
        generationIsRefresh = newQuery == query
        query = newQuery
        generation += 1
        accepted = []
        acceptedSet = []
        acceptedPages = 0
        lastAcceptedCursor = nil
        requestedCursors = []
        failedPosition = nil
        failedByCancellation = false
        listBeforeRefresh = nil
        earlierListEnded = earlierListEnded || end != nil
        end = nil
        refusableRows = []
        repeatedAnswersThisQuery = 0
        staleAnswersThisQuery = 0
        pagesWithoutProgress = 0
        stalledFirstPage = false
        lastSuspect = nil
        generationStartVisible = state.visible
        generationShownVisible = []
        showedMoreThisGeneration = false
        stepBeganGeneration = true
    }

    /// What ``startGeneration(query:)`` resets, kept so that a query change or refresh the
    /// pager rejected (it threw and started nothing) can be undone: the pager still shows, and
    /// loads, the query it had, so the kit judges it by that query, not by one it refused.
    private struct GenerationMark {
        let query: String
        let generationQueries: Int
        let generation: Int
        let accepted: [Int]
        let acceptedSet: RowSet
        let acceptedPages: Int
        let lastAcceptedCursor: String?
        let requestedCursors: [String]
        let failedPosition: PagePosition?
        let end: EndOfList?
        let earlierListEnded: Bool
        let refusableRows: RowSet
        let repeatedAnswersThisQuery: Int
        let staleAnswersThisQuery: Int
        let pagesWithoutProgress: Int
        let stalledFirstPage: Bool
        let lastSuspect: ContractID?
        let generationStartVisible: [VisibleItem]
        let generationShownVisible: [VisibleItem]
        let generationIsRefresh: Bool
        let showedMoreThisGeneration: Bool
    }

    private var generationMark: GenerationMark {
        GenerationMark(
            query: query, generationQueries: generationQueries, generation: generation, accepted: accepted,
            acceptedSet: acceptedSet, acceptedPages: acceptedPages, lastAcceptedCursor: lastAcceptedCursor,
            requestedCursors: requestedCursors, failedPosition: failedPosition, end: end,
            earlierListEnded: earlierListEnded, refusableRows: refusableRows, repeatedAnswersThisQuery: repeatedAnswersThisQuery,
            staleAnswersThisQuery: staleAnswersThisQuery, pagesWithoutProgress: pagesWithoutProgress,
            stalledFirstPage: stalledFirstPage, lastSuspect: lastSuspect,
            generationStartVisible: generationStartVisible, generationShownVisible: generationShownVisible,
            generationIsRefresh: generationIsRefresh, showedMoreThisGeneration: showedMoreThisGeneration)
    }

    /// Goes back to the generation `mark` describes, and says so for the transcript.
    private func undo(_ mark: GenerationMark) -> String {
        query = mark.query
        generationQueries = mark.generationQueries
        generation = mark.generation
        accepted = mark.accepted
        acceptedSet = mark.acceptedSet
        acceptedPages = mark.acceptedPages
        lastAcceptedCursor = mark.lastAcceptedCursor
        requestedCursors = mark.requestedCursors
        failedPosition = mark.failedPosition
        end = mark.end
        earlierListEnded = mark.earlierListEnded
        refusableRows = mark.refusableRows
        repeatedAnswersThisQuery = mark.repeatedAnswersThisQuery
        staleAnswersThisQuery = mark.staleAnswersThisQuery
        pagesWithoutProgress = mark.pagesWithoutProgress
        stalledFirstPage = mark.stalledFirstPage
        lastSuspect = mark.lastSuspect
        generationStartVisible = mark.generationStartVisible
        generationShownVisible = mark.generationShownVisible
        stepBeganGeneration = false
        generationIsRefresh = mark.generationIsRefresh
        showedMoreThisGeneration = mark.showedMoreThisGeneration
        shadow = nil  // the reference did not refuse it: the two are no longer comparable
        return recorder == nil ? "" : " (the list stays on query \(query))"
    }

    private func skip(_ step: PagerSchedule.Step, _ reason: String) -> Bool {
        driver.stepSkipped()
        recorder?.record("\(step.swiftCode) skipped: \(reason)")
        shadow = nil  // the reference may not skip it: the two are no longer comparable
        return false
    }

    @exclusivity(unchecked) private var pendingFailure: Failure?

    /// The appear event of a list that declares `.appear`, fired before its first trigger
    /// (`then` separates it from that trigger's text), or nothing once the list is on screen.
    ///
    /// A list is on screen before it can be refreshed, searched or scrolled, and it appears
    /// once: a first bottom trigger is the appear event itself, any other first trigger comes
    /// right after it, and no later step sends it again (an appear handler that loads when it
    /// holds no items would rightly load again after an empty page).
    @inline(__always)
    private func appearFirst(then separator: String = "") async throws -> String {
        guard capabilities.triggers.contains(.appear), !appeared else { return "" }
        let text = "the list appeared" + (try await fire(.appear))
        return recorder == nil ? "" : text + separator
    }

    @inline(__always)
    private func fire(_ trigger: PagerTrigger) async throws -> String {
        triggerInProgress = trigger
        defer { triggerInProgress = nil }
        appeared = true
        lastTriggerRejected = false
        let assumedBefore = driver.assumptionCount
        let outcome: TriggerOutcome
        if let synchronousDriver {
            outcome = synchronousDriver.performNow(trigger)
        } else {
            do {
                outcome = try await driver.perform(trigger)
            } catch let misuse as AdapterMisuse {
                // The failing step is this trigger: shown, so the ▶ and the message agree.
                recorder?.record("\(trigger) → \(AdapterMisuse.stepNote)")
                throw misuse
            }
        }
        try requireNoAssumption(since: assumedBefore, during: trigger)
        switch outcome {
        case .started(let positions):
            let started = register(positions)
            return recorder == nil ? "" : " → " + started
        case .rejected(let error):
            lastTriggerRejected = true
            return recorder == nil ? "" : " → rejected: \(error)"
        }
    }

    /// Ends the schedule when the step just taken settled a trigger by assumption (the five task
    /// priorities spent, see ``SettleEvidence``) rather than by evidence: what the pager does
    /// next may belong to that trigger, and no finding may rest on a guess. (The eighth trial's
    /// event-loop view model was flagged P1 and P4 when a query change assumed blocked was still
    /// on its way to loading.) Counted with the unobservable triggers.
    /// - Parameter trigger: The trigger the step fired; `nil` for an answer (the request it
    ///   started was assumed).
    private func requireNoAssumption(since count: Int, during trigger: PagerTrigger?) throws {
        guard driver.assumptionCount > count else { return }
        unobservableTriggers.add(trigger?.stepName ?? "answers")
        throw NotApplicable(
            reason: "a trigger was taken as blocked by assumption (the five task priorities were spent): the schedule ends there",
            byAssumption: true)
    }

    /// Whether the last trigger fired was rejected (the pager threw and started nothing).
    @exclusivity(unchecked) private var lastTriggerRejected = false

    @inline(__always)
    private func answer(_ index: Int, with answer: PageAnswer) async throws -> String {
        if driver.holdsOtherAnswer(toRequest: index, than: answer) {
            // Planned from an `immediate` replay whose requests were numbered otherwise (a
            // fill-the-screen chain runs at once when its answers are already there): the
            // subject holds another answer than this step gives, which no timeline could
            // judge. (The twenty-second trial's `SearchResultsViewModel`, correct, was found
            // P2 and P4 this way once the finding replayed the whole schedule.)
            throw NotApplicable(
                reason: "under answers already available, request #\(index + 1) was handed another answer than this step gives")
        }
        let assumedBefore = driver.assumptionCount
        let positions =
            if let synchronousDriver {
                synchronousDriver.answerNow(request: index, with: answer)
            } else {
                try await driver.answer(request: index, with: answer)
            }
        try requireNoAssumption(since: assumedBefore, during: nil)
        guard !positions.isEmpty else { return "" }
        let started = register(positions)
        return recorder == nil ? "" : " → " + started
    }

    private func index(of number: Int) -> Int? {
        requests.indices.contains(number - 1) ? number - 1 : nil
    }

    /// The cursor the answer to request `number` hands out: opaque Base64 with `=` padding, as
    /// the fixed contracts' cursors (see `PagerTimeline.cursor(query:generation:page:)`); its
    /// text decodes to `c001`, `c002`, … (four bytes, so always two `=`).
    static func cursor(minting number: Int) -> String {
        let digits = String(number)
        let text = "c" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
        return Data(text.utf8).base64EncodedString()
    }

    private func cursor(answering request: Request, hasMore: Bool, with answer: PagerSchedule.CursorAnswer)
        -> String?
    {
        guard case .cursor(let requested) = request.position else { return nil }
        switch answer {
        case .next:
            return hasMore ? Self.cursor(minting: request.number) : nil
        case .stalled:
            return requested
        case .repeated:
            let earlier = requests.first {
                $0.generation == request.generation && $0.number < request.number
                    && $0.position != .cursor(nil)
            }
            if case .cursor(let cursor)? = earlier?.position { return cursor }
            return requested
        }
    }

    private func accept(_ response: PageResponse, for request: Request) {
        let countBefore = accepted.count
        for row in response.rows where acceptedSet.insert(row.id) {
            accepted.append(row.id)
        }
        acceptedPages += 1
        earlierListEnded = false
        failedPosition = nil
        failedByCancellation = false
        listBeforeRefresh = nil
        pagesWithoutProgress = accepted.count == countBefore ? pagesWithoutProgress + 1 : 0
        if usesCursors { lastAcceptedCursor = response.nextCursor }
        guard end == nil else { return }
        if !response.hasMore {
            end = .lastPage
            return
        }
        if usesCursors, case .cursor(let requested) = request.position {
            if response.nextCursor == nil || response.nextCursor == requested {
                end = .stalledCursor(requested)
                refusableRows = RowSet(accepted.dropFirst(countBefore))
                stalledFirstPage = acceptedPages == 1
            } else if capabilities.detectsCursorCycles, let next = response.nextCursor, requestedCursors.contains(next) {
                end = .cursorCycle(next)
            }
        }
        // A pager that declares it waits for the user after a page that adds nothing (instead
        // of stopping after the bound) may keep loading on each trigger: P12 checks that shape.
        if end == nil, capabilities.stopsOnNoProgress, pagesWithoutProgress >= capabilities.noProgressLimit {
            end = .noProgress(pagesWithoutProgress)
        }
    }

    // MARK: - Descriptions

    func describe(_ request: Request) -> String {
        "request #\(request.number) (\(request.position), query \(request.query))"
    }

    private func staleNote(_ request: Request) -> String {
        request.generation == generation ? "" : " [stale: issued under query \(request.query), gen \(request.generation)]"
    }

    /// A pager that declares it waits for the user after a page that adds nothing
    /// (`stopsOnNoProgress: false`) must not chain the next load by itself on such a page:
    /// P12, as its fixed timeline checks (recommended).
    private func checkChainAfterNoProgress(_ request: Request) -> Failure? {
        guard answeringAcceptedPage, !capabilities.stopsOnNoProgress, pagesWithoutProgress >= 1,
            request.generation == generation
        else { return nil }
        return failure(
            "P12", invariant: "I5",
            "Expected no request started by the pager itself after an accepted page that added nothing (the adapter declares stopsOnNoProgress: false: the pager waits for the next trigger), but it started \(describe(request)).",
            expected: "requests: none until the next trigger", actual: "requests: \(describe(request))",
            hint: "Count accepted pages in a row that add no new visible item, whichever way the next request starts (a trigger or your own chaining); stop chaining at the bound and report a stall.")
    }

    /// P10 stops automatic loading at a stalled cursor or a cycle; a retry the user taps is
    /// not automatic: it may ask again, and the list goes on from what that answer says.
    func liftProtocolErrorStopForRetry() {
        guard triggerInProgress == .retry, let end, end.contract == "P10" else { return }
        self.end = nil
        // The pager showed the stalled page's new items or refused them; from here on the
        // oracle follows the choice its last snapshot shows.
        // A refused first page leaves what the list showed before the query's first page.
        let keptPrevious = stalledFirstPage && !state.visible.isEmpty && state.visible == generationStartVisible
        let shown = !keptPrevious && state.visible.contains {
            if case .row(let id) = $0 { refusableRows.contains(id) } else { false }
        }
        if !shown {
            accepted.removeAll { refusableRows.contains($0) }
            acceptedSet.subtract(refusableRows)
            if stalledFirstPage { acceptedPages -= 1 }
        }
        refusableRows = []
        stalledFirstPage = false
    }

    /// A refresh whose own request ended in a cancellation error, before its list accepted a
    /// page, may be abandoned: the pager still shows the list it had before the refresh and
    /// asks for that list's next page. P6 and P11 do not forbid it (a cancellation error is not
    /// a failure the user must see, and the request is made after the refresh, for the list on
    /// screen), so the oracle goes back to that list instead of expecting the refresh's first
    /// page again (trial 37's feed was flagged P6 for it). Answers to requests made before the
    /// refresh stay stale: the generation does not go back.
    /// - Returns: Whether the oracle went back.
    private func returnToTheListBeforeAnAbandonedRefresh(asking position: PagePosition) -> Bool {
        guard failedPosition != nil, failedByCancellation, acceptedPages == 0, let before = listBeforeRefresh,
            before.acceptedPages > 0, before.end == nil, before.query == query,
            position == (usesCursors ? .cursor(before.lastAcceptedCursor) : .page(before.acceptedPages + 1)),
            state.visible == generationStartVisible
        else { return false }
        accepted = before.accepted
        acceptedSet = before.acceptedSet
        acceptedPages = before.acceptedPages
        lastAcceptedCursor = before.lastAcceptedCursor
        requestedCursors = before.requestedCursors
        pagesWithoutProgress = before.pagesWithoutProgress
        failedPosition = nil
        failedByCancellation = false
        listBeforeRefresh = nil
        shadow = nil  // the reference retries the refresh: the two are no longer comparable
        return true
    }

    /// Whether the current page's last answer was a failure other than a cancellation error
    /// and the pager shows no error for it: P6's own breach, whatever else the state shows.
    var hidesTheCurrentFailure: Bool {
        failedPosition != nil && !failedByCancellation && state.showsError == false
    }

    /// Whether the pager is back on the list a refresh would have replaced, abandoned after its
    /// own request ended in a cancellation error, and that list had ended (its last page, or a
    /// page that added nothing shown as the end): no trigger need load anything.
    var showsTheEndedListBeforeAnAbandonedRefresh: Bool {
        guard failedPosition != nil, failedByCancellation, acceptedPages == 0, let before = listBeforeRefresh,
            before.acceptedPages > 0, state.hasMore == false, state.visible == generationStartVisible
        else { return false }
        return before.end != nil || before.pagesWithoutProgress > 0
    }

    private func register(_ positions: [PagePosition]) -> String {
        var started: [String] = []
        for position in positions {
            let request = Request(
                number: requests.count + 1, generation: generation, query: query, position: position,
                staleAnswersBefore: staleAnswersGiven, repeatedAnswersBefore: repeatedAnswersGiven,
                queryChanges: generationQueries)
            liftProtocolErrorStopForRetry()
            let wentBack = returnToTheListBeforeAnAbandonedRefresh(asking: position)
            if pendingFailure == nil { pendingFailure = checkNewRequest(request) }
            if pendingFailure == nil { pendingFailure = checkChainAfterNoProgress(request) }
            requests.append(request)
            openNumbers.append(request.number)
            if case .cursor(let cursor?) = position { requestedCursors.append(cursor) }
            // Descriptions only for a transcript: the search replays without one.
            if recorder != nil {
                started.append(
                    describe(request)
                        + (wentBack ? " (the refresh, ended by a cancellation error, is abandoned: the list before it goes on)" : ""))
            }
        }
        return started.isEmpty ? "no request" : started.joined(separator: ", ")
    }

    private func checkPendingRequestFailure() throws {
        guard let failure = pendingFailure else { return }
        pendingFailure = nil
        throw failure
    }
}

extension PagerTrigger {
    /// The schedule step that fires this trigger, as a regression test writes it (the appear
    /// event comes with a list's first trigger, and has no step of its own).
    fileprivate var stepName: String {
        switch self {
        case .bottomReached: ".bottomReached"
        case .changeQuery: ".changeQuery"
        case .refresh: ".refresh"
        case .retry: ".retry"
        case .fillScreen: ".fillScreen"
        case .appear: "appear"
        }
    }
}
