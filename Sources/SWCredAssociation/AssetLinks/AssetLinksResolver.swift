import SWCredCore

/// Reads a statement list and its includes as one verifier does and gives the statements that
/// count with every problem met (asset-links.md §1.1, §1.3; DAL-I1…I4, DAL-S7, DAL-Q1).
///
/// - `google`: includes are followed to any depth, each URL once, at most ``includeBudget``
///   fetches (Google's budget is undocumented; a loop ends as "Fetch budget exhausted", 5005);
///   an `http` include under a secure asset is refused (5006, 5007, 5009); an invalid element
///   or include is skipped and reported, the rest still counts (2003, 5002, 5003).
/// - `android`: only the root's includes are followed (`MAX_INCLUDE_LEVEL = 1`), `https` only;
///   a malformed element anywhere fails the whole list (DAL-S7, DERIVED from AOSP code).
///
/// Retrieval itself is the caller's: the root list comes as a fetch result, includes from an
/// ``AssetLinksIncludeSource``.
package struct AssetLinksResolver: Sendable {
    /// The verifier whose reading is modelled.
    package var verifier: AssetLinksVerifier
    /// The limits of each list read.
    package var limits: AssetLinksStatementList.Limits
    /// The most include fetches for one resolution (10; swcred's decision for Google's budget).
    package var includeBudget: Int

    /// Creates a resolver.
    package init(
        verifier: AssetLinksVerifier, limits: AssetLinksStatementList.Limits = .init(), includeBudget: Int = 10
    ) {
        self.verifier = verifier
        self.limits = limits
        self.includeBudget = includeBudget
    }

    private struct State {
        var statements: [AssetLinksStatement] = []
        var problems: [AssetLinksProblem] = []
        var failure: AssetLinksProblem?
        var visited: Set<String> = []
        var stack: [String] = []
        var fetches = 0
    }

    /// Resolves the list `root` of `source`, following its includes through `includes`.
    package func resolve(
        _ root: AssetLinksFetch, source: AssetLinksSource, includes: some AssetLinksIncludeSource
    ) async -> AssetLinksResolution {
        var state = State()
        let name = source.listName
        state.visited.insert(name)
        state.stack = [name]
        switch root {
        case .failed(let code, let message):
            state.problems.append(AssetLinksProblem(.dalQ1, code, url: name, message))
            if verifier == .android { state.failure = state.problems.last }
        case .body(let bytes):
            await read(bytes, url: name, secure: source.isSecure, depth: 0, includes: includes, into: &state)
        }
        return AssetLinksResolution(
            verifier: verifier, source: source, statements: state.statements, problems: state.problems,
            failure: state.failure)
    }

    private func read(
        _ bytes: [UInt8], url: String, secure: Bool, depth: Int, includes: some AssetLinksIncludeSource,
        into state: inout State
    ) async {
        switch AssetLinksStatementList.parseReportingRule(bytes, limits: limits) {
        case .failure(let failure):
            let problem = AssetLinksProblem(
                failure.rule, failure.rule == .dalF3 ? .tooLarge : .malformedContent, url: url, failure.error.message)
            state.problems.append(problem)
            // A root that does not read gives a device no statements; an include that does not
            // read is discarded, as Google's API does (AOSP's handling is not established).
            if verifier == .android, depth == 0, state.failure == nil { state.failure = problem }
        case .success(let list):
            await walk(list, url: url, secure: secure, depth: depth, includes: includes, into: &state)
        }
    }

    private func walk(
        _ list: AssetLinksStatementList, url: String, secure: Bool, depth: Int,
        includes: some AssetLinksIncludeSource, into state: inout State
    ) async {
        if list.elements.isEmpty {
            state.problems.append(
                AssetLinksProblem(.dalS1, .malformedContent, url: url, "No statements were found: the list is empty"))
        }
        for element in list.elements {
            switch element.reading(verifier) {
            case .statement(var statement):
                statement.origin = url
                state.statements.append(statement)
            case .skipped(var problem):
                problem.url = url
                problem.code = nil
                state.problems.append(problem)
            case .malformed(var problem):
                problem.url = url
                state.problems.append(problem)
                if verifier == .android, state.failure == nil {
                    state.failure = AssetLinksProblem(
                        .dalS7, nil, url: url, path: problem.path,
                        "element \(element.index) is malformed (\(problem.message)); an Android 12+ verifier "
                            + "fails the whole list on it")
                }
            case .include(let text):
                await include(
                    text, from: url, at: element.index, secure: secure, depth: depth, includes: includes,
                    into: &state)
            }
        }
    }

    private func include(
        _ text: String, from url: String, at index: Int, secure: Bool, depth: Int,
        includes: some AssetLinksIncludeSource, into state: inout State
    ) async {
        let path = JSONPath.child(JSONPath.element("", index), "include")
        func problem(_ rule: RuleID, _ code: AssetLinksErrorCode?, _ message: String) {
            state.problems.append(AssetLinksProblem(rule, code, url: url, path: path, message))
        }
        let target: AssetLinksURL
        switch AssetLinksURL.parse(text) {
        case .failure(.nonHTTP):
            return problem(.dalS2, .malformedContent, "the include '\(text)' is a non-HTTP URL")
        case .failure(let why):
            return problem(.dalS2, .malformedContent, "the include '\(text)' is not a valid URL: \(why)")
        case .success(let parsed):
            target = parsed
        }
        if verifier == .android, depth >= 1 {
            return problem(
                .dalI3, nil,
                "the include '\(target)' is ignored: an Android device follows one include level only")
        }
        if secure, !target.isSecure {
            return problem(
                .dalI1, .secureAssetIncludesInsecure,
                depth == 0
                    ? "Insecure URL in fetch stack of secure asset: the include '\(target)' is http"
                    : "Insecure include file included by secure include file: '\(target)' is http")
        }
        if verifier == .android, !target.isSecure {
            return problem(.dalI1, nil, "the include '\(target)' is http; an Android device fetches https only")
        }
        let key = target.description
        if let start = state.stack.firstIndex(of: key) {
            let cycle = (state.stack[start...] + [key]).joined(separator: " -> ")
            return problem(
                .dalI4, .fetchBudgetExhausted,
                "Fetch budget exhausted: an include cycle (\(cycle)); the statements read so far still count")
        }
        // Read once: a list two includes name counts once.
        guard state.visited.insert(key).inserted else { return }
        guard state.fetches < includeBudget else {
            return problem(
                .dalI4, .fetchBudgetExhausted,
                "Fetch budget exhausted: more than \(includeBudget) includes; '\(key)' is not read")
        }
        state.fetches += 1
        switch await includes.statementList(at: target) {
        case .failed(let code, let message):
            problem(.dalI2, code, "the include '\(key)' could not be read: \(message)")
        case .body(let bytes):
            state.stack.append(key)
            await read(
                bytes, url: key, secure: secure || target.isSecure, depth: depth + 1, includes: includes,
                into: &state)
            state.stack.removeLast()
        }
    }
}
