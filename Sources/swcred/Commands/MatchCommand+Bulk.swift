import ArgumentParser
import SWCredAssociation
import SWCredCore
import SWCredRetrieval

/// The bulk form of `match` (`spec/cli.md`, "swcred match (--urls FILE|- | --sitemap FILE)"): the
/// library's ``BulkMatcher`` decides every URL of a list or sitemap as the single form decides it;
/// this file picks its line source and files from the options, prints one JSON line (or text line)
/// per URL and the closing summary, shows progress and returns the exit status (0 when the run
/// finished, 1 under a failed `--expect`, 65 after an invalid line).
///
/// **Decision (a file that cannot be obtained).** A URL whose file could not be retrieved gets
/// `no_match` and an `error` object (``BulkMatcher``'s Decision); the exit code stays the one
/// cli.md gives the bulk form. Exit 69 is not used here, because the run did finish and `verify`,
/// the other command that fetches many files, reports a failed fetch in its output too.
extension MatchCommand {
    func executeBulk(_ console: Console) async throws -> ExitStatus {
        guard app.hasEntitlements, aasa == nil else { return try await runBulk(console, entitlementPath: nil) }
        // The entitlement path: each host's file from the source, decided as the device does.
        let identity = try app.identity()
        let device = app.device.settings
        return try await AssociationSources.with(try sourceSelection(), device: device) { fileSource in
            try await runBulk(
                console, entitlementPath: .entitlements(identity, TrustEvaluator(source: fileSource, device: device)))
        }
    }

    /// The bulk run over the URL list: `entitlementPath` (``BulkMatcher/Files/entitlements(_:_:)``),
    /// else `--aasa` or `--aasa-dir`.
    private func runBulk(_ console: Console, entitlementPath: BulkMatcher.Files?) async throws -> ExitStatus {
        let reader: any LinkListReading
        if let urls {
            reader = try URLListReader(path: urls, standardInput: CommandContext.current.standardInput)
        } else if let sitemap {
            reader = try SitemapReader(path: sitemap)
        } else {
            throw SWCredError(.usage, "give a URL, --urls FILE or --sitemap FILE")
        }
        let files: BulkMatcher.Files
        if let entitlementPath {
            files = entitlementPath
        } else {
            let appID = try appIDOfFilePath()
            if let file = try aasaFile() {
                files = .file(file, appID: appID)
            } else if let aasaDir {
                files = .directory(try DirectoryAssociationSource.opening(root: aasaDir), appID: appID)
            } else {
                throw SWCredError(.usage, "give exactly one of --aasa FILE, --aasa-dir DIR, --direct and --cdn")
            }
        }
        let matcher = BulkMatcher(lines: reader, files: files, expecting: expect) { console.warn($0) }

        var output = BulkOutput(json: console.format == .json)
        let progressLine = ProgressLine(progress)
        let clock = ContinuousClock()
        let started = clock.now
        var lastShown = started
        /// Flushes what was decided and, every half second at most, shows the rate.
        func showProgress() {
            output.flush()
            if progressLine.enabled, clock.now - lastShown > .milliseconds(500) {
                lastShown = clock.now
                let seconds = (clock.now - started) / .seconds(1)
                let urls = matcher.summary.urls
                progressLine.show("match: \(urls) URLs, \(Int(Double(urls) / max(seconds, 0.001))) URLs/s")
            }
        }

        while true {
            // Decided without suspending where the host's file is at hand (most lines).
            let entry: BulkMatcher.Entry
            do {
                if let ready = try matcher.nextReady() {
                    entry = ready
                } else if let waited = try await matcher.next() {
                    entry = waited
                } else {
                    break
                }
            } catch {
                output.flush()  // what was decided is written out before an unreadable input ends the run
                throw error
            }
            switch entry {
            case .invalid(let line, let error):
                output.invalid(line: line, error: error, console: console)
            case .result(let decided):
                output.result(decided, appID: matcher.appID)
                if matcher.summary.urls & 0xFFF == 0 { showProgress() }
            }
        }
        progressLine.finish()
        if entitlementPath != nil, progressLine.enabled {
            console.err("match: \(matcher.retrievals) file(s) retrieved")
        }
        for warning in matcher.readerWarnings { console.warn(warning) }
        let summary = matcher.finish()
        output.summary(summary, console: console)
        output.flush()
        let unexpected = expect == nil ? 0 : matcher.unexpected
        if let expect, summary.invalid == 0, unexpected > 0 {
            console.warn("\(unexpected) URL(s) did not have the expected outcome \(expect.rawValue)")
        }
        return ExitStatus(bulkInvalidLines: summary.invalid, unexpected: unexpected)
    }
}
