import Foundation
import SWCredAssociation
import SWCredCore
import SWCredDaemon
import SWCredStore
import Testing

@Suite("The association daemon model")
struct AssociationDaemonTests {
    let clock = TestStoreClock(Date(timeIntervalSince1970: 1_800_000_000))

    func daemon(_ source: any AssociationFileSource, jitter: Double = 0.5, developerMode: Bool = false)
        -> AssociationDaemon
    {
        AssociationDaemon(
            source: source,
            clock: clock,
            jitter: FixedRecheckJitter(jitter),
            device: DeviceSettings(developerMode: developerMode)
        )
    }

    @Test("AD-5.2: install creates one record per active entry, both approvals unspecified, never checked, due now")
    func installCreates() throws {
        let sites = try Sites()
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        let records = try daemon.install(
            app: app([
                "webcredentials:example.com", "applinks:*.example.com", "webcredentials:dev.example.com?mode=developer",
                "bogus", "webcredentials:example.com",
            ]),
            into: &contents
        )
        #expect(records.count == 2)
        #expect(records.map(\.service) == [.webcredentials, .applinks])
        #expect(records[1].isWildcard)
        #expect(records[1].host == "example.com")
        for record in records {
            #expect(record.userApproval == .unspecified)
            #expect(record.siteApproval == .unspecified)
            #expect(record.lastChecked == .distantPast)
            #expect(record.nextCheck == clock.now())
            #expect(record.retryCount == 0)
            #expect(record.lastError == nil)
        }
    }

    @Test("AD-5.2: developer entries get records only in developer mode for development-signed apps")
    func developerEntries() throws {
        let sites = try Sites()
        var contents = emptyContents(clock)
        let records = try daemon(sites.source, developerMode: true).install(
            app: app(["webcredentials:dev.example.com:8443?mode=developer"], developmentSigned: true),
            into: &contents
        )
        #expect(records.count == 1)
        #expect(records.first?.modes == [.developer])
        #expect(records.first?.port == 8443)
    }

    @Test("AD-5.2: reinstall deletes and recreates the app's records; an entitlement change drops removed entries")
    func reinstall() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:example.com", "webcredentials:old.example.com"]), into: &contents)
        try AssociationDaemon.apply(await daemon.refresh(contents.associationRecords), to: &contents)
        #expect(contents.associationRecords.first?.siteApproval == .approved)

        // Entitlement change: the kept entry keeps its state, the dropped one goes.
        try daemon.install(app: app(["webcredentials:example.com"]), into: &contents)
        #expect(contents.associationRecords.map(\.host) == ["example.com"])
        #expect(contents.associationRecords.first?.siteApproval == .approved)

        // Reinstall: recreated from scratch.
        try daemon.install(app: app(["webcredentials:example.com"]), into: &contents, reinstall: true)
        #expect(contents.associationRecords.first?.siteApproval == .unspecified)
        #expect(contents.associationRecords.first?.lastChecked == .distantPast)
    }

    @Test("AD-5.2: reset deletes every record, or one app's")
    func reset() throws {
        let sites = try Sites()
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:a.example"]), into: &contents)
        try daemon.install(
            app: app(["webcredentials:b.example", "applinks:b.example"], id: otherAppID), into: &contents)
        #expect(AssociationDaemon.reset(&contents, appID: otherAppID) == 2)
        #expect(contents.associationRecords.map(\.appID) == [appID])
        #expect(AssociationDaemon.reset(&contents) == 1)
        #expect(contents.associationRecords.isEmpty)
    }

    @Test("AD-5.3: a file that lists the app approves the site; one that does not denies it")
    func siteApproval() async throws {
        let sites = try Sites()
        try sites.serve("listed.example", webcredentials([appID]))
        try sites.serve("unlisted.example", webcredentials([otherAppID]))
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        try daemon.install(
            app: app(["webcredentials:listed.example", "webcredentials:unlisted.example", "applinks:listed.example"]),
            into: &contents)
        let outcomes = await daemon.refresh(contents.associationRecords)
        #expect(outcomes.map(\.checked) == [true, true, true])
        #expect(outcomes.map(\.record.siteApproval) == [.approved, .denied, .approved])
        #expect(
            outcomes.allSatisfy {
                $0.record.lastChecked == clock.now() && $0.record.lastError == nil && $0.record.retryCount == 0
            })
        #expect(outcomes[0].record.lastFile?.size == UInt64(webcredentials([appID]).utf8.count))
        #expect(outcomes[1].diagnostics.contains { $0.message.contains("site denied") })
    }

    @Test("AD-5.3: a failed fetch keeps site approval, records the error and counts a retry")
    func failureKeepsApproval() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:example.com"]), into: &contents)
        try AssociationDaemon.apply(await daemon.refresh(contents.associationRecords), to: &contents)
        #expect(contents.associationRecords[0].siteApproval == .approved)

        try sites.remove("example.com")
        let failed = await daemon.refresh(contents.associationRecords, force: true)
        let record = try #require(failed.first?.record)
        #expect(record.siteApproval == .approved)
        #expect(record.retryCount == 1)
        #expect(record.lastError?.domain == "HTTP")
        #expect(record.lastError?.code == 404)
        #expect(record.lastChecked == clock.now())
        // Decided approval: the next check uses the long delay (AD-5.5).
        #expect(record.nextCheck == clock.now().addingTimeInterval(428_400 + 1_800))

        // A malformed file is a failure too, with the parse error.
        try sites.serve("example.com", #"{"webcredentials": "#)
        let malformed = await daemon.refresh([record], force: true)
        #expect(malformed.first?.record.retryCount == 2)
        #expect(malformed.first?.record.lastError?.message.contains("3840") == true)
    }

    @Test("AD-5.5: after success the next check is 428400 s + jitter × 3600 s, clamped to 5 days")
    func successDelay() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        for (jitter, expected) in [(0.0, 428_400.0), (0.5, 430_200.0), (0.999, 431_996.4)] {
            var contents = emptyContents(clock)
            let daemon = daemon(sites.source, jitter: jitter)
            try daemon.install(app: app(["webcredentials:example.com"]), into: &contents)
            let outcome = try #require(await daemon.refresh(contents.associationRecords).first)
            #expect(abs(outcome.record.nextCheck.timeIntervalSince(clock.now()) - expected) < 0.002)
        }
    }

    @Test("AD-5.5: undecided failures back off ×1 below 8 retries, then ×2^(n−7), capped at 30 days (Decision)")
    func failureBackoff() async throws {
        let sites = try Sites()
        let daemon = daemon(sites.source, jitter: 0.5)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:missing.example"]), into: &contents)
        var record = contents.associationRecords[0]
        var delays: [Double] = []
        for _ in 1...16 {
            let outcome = try #require(await daemon.refresh([record], force: true).first)
            record = outcome.record
            #expect(record.siteApproval == .unspecified)
            delays.append(record.nextCheck.timeIntervalSince(clock.now()))
        }
        let base = 10_800.0 + 1_800.0
        #expect(delays[0..<7].allSatisfy { abs($0 - base) < 0.002 })  // retries 1…7
        #expect(abs(delays[7] - base * 2) < 0.002)  // retry 8
        #expect(abs(delays[8] - base * 4) < 0.002)  // retry 9
        #expect(abs(delays[11] - base * 32) < 0.002)  // retry 12
        #expect(delays[15] == 30 * 86_400)  // retry 16: capped
        #expect(record.retryCount == 16)
    }

    @Test("AD-5.5: the policy's arithmetic stays finite for any retry count")
    func policyLimits() {
        let policy = RecheckPolicy()
        #expect(policy.backoff(retryCount: 7) == 1)
        #expect(policy.backoff(retryCount: 8) == 2)
        #expect(policy.delayAfterFailure(retryCount: .max, siteApprovalDecided: false, jitter: 0.5) == 30 * 86_400)
        #expect(policy.delayAfterSuccess(jitter: .nan) == 428_400)
        #expect(policy.delayAfterSuccess(jitter: 7) <= 432_000)
        #expect(policy.delayAfterFailure(retryCount: 1, siteApprovalDecided: false, jitter: -1) == 10_800)
        let custom = RecheckPolicy(successBase: 60, successJitter: 0, successMaximum: 60)
        #expect(custom.delayAfterSuccess(jitter: 0.9) == 60)
    }

    @Test("AD-5.6: refresh skips records not yet due unless forced; the test clock decides, nothing sleeps")
    func dueOnly() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        let source = CountingSource(sites.source)
        let daemon = daemon(source)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:example.com"]), into: &contents)
        try AssociationDaemon.apply(await daemon.refresh(contents.associationRecords), to: &contents)
        #expect(source.seen.count == 1)

        clock.advance(by: 86_400)
        let early = await daemon.refresh(contents.associationRecords)
        #expect(early.map(\.checked) == [false])
        #expect(early.first?.record == contents.associationRecords.first)
        #expect(source.seen.count == 1)

        let forced = await daemon.refresh(contents.associationRecords, force: true)
        #expect(forced.map(\.checked) == [true])
        #expect(source.seen.count == 2)

        clock.advance(by: 432_000)
        #expect(await daemon.refresh(contents.associationRecords).map(\.checked) == [true])
        #expect(source.seen.count == 3)
    }

    @Test("AD-4.8: records sharing an origin and route share one retrieval; mode entries use their own route")
    func oneFetchPerOrigin() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID, otherAppID]))
        let source = CountingSource(sites.source)
        let daemon = daemon(source, developerMode: true)
        var contents = emptyContents(clock)
        try daemon.install(
            app: app(["webcredentials:example.com", "applinks:example.com", "applinks:*.example.com"]), into: &contents)
        try daemon.install(
            app: app(
                ["webcredentials:example.com", "webcredentials:example.com?mode=developer"], id: otherAppID,
                developmentSigned: true), into: &contents)
        let outcomes = await daemon.refresh(contents.associationRecords)
        // The plain entry of the other app is shadowed by its active mode entry (AD-2.5): 3 + 1 records.
        #expect(outcomes.count == 4)
        #expect(outcomes.allSatisfy { $0.record.siteApproval == .approved })
        #expect(
            source.seen == [
                AssociationFileRequest(host: "example.com", route: .standard),
                AssociationFileRequest(host: "example.com", route: .modeDirect),
            ])
    }

    @Test("AD-5.4: apply keeps the user approval stored meanwhile and does not recreate deleted records")
    func applyKeepsUserApproval() async throws {
        let sites = try Sites()
        try sites.serve("a.example", webcredentials([appID]))
        try sites.serve("b.example", webcredentials([appID]))
        let daemon = daemon(sites.source)
        var contents = emptyContents(clock)
        try daemon.install(app: app(["webcredentials:a.example", "webcredentials:b.example"]), into: &contents)
        let outcomes = await daemon.refresh(contents.associationRecords)
        // Meanwhile the user answers "Not Now" for a.example and b.example's record is deleted.
        var a = contents.associationRecords[0]
        a.userApproval = .denied
        try contents.upsertAssociationRecord(a)
        try contents.removeAssociationRecord(forKey: contents.associationRecords[1].key)
        #expect(try AssociationDaemon.apply(outcomes, to: &contents) == 1)
        #expect(contents.associationRecords.count == 1)
        #expect(contents.associationRecords[0].userApproval == .denied)
        #expect(contents.associationRecords[0].siteApproval == .approved)
    }

    @Test("AD-5.1: records display with swcutil show's labels and as JSON")
    func recordView() throws {
        var record = AssociationRecord(
            service: .webcredentials, appID: appID, host: "example.com", port: 8443, isWildcard: true,
            modes: [.managed, .developer], siteApproval: .approved, lastChecked: clock.now(),
            nextCheck: clock.now().addingTimeInterval(60), retryCount: 2,
            lastError: AssociationRecord.LastError(domain: "HTTP", code: 404, message: "missing")
        )
        let view = AssociationRecordView(record)
        #expect(view.domain == "*.example.com:8443?mode=developer+managed")
        for label in ["User Approval:", "Site/Fmwk Approval:", "Last Checked:", "Next Check:", "Error:", "Retries:"] {
            #expect(view.swcutilText.contains(label))
        }
        #expect(view.swcutilText.contains("HTTP 404: missing"))
        record.lastChecked = .distantPast
        record.lastError = nil
        let never = AssociationRecordView(record)
        #expect(never.lastChecked == nil)
        #expect(never.swcutilText.contains("never"))
        let json = try JSONEncoder().encode(never)
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        #expect(object?["siteApproval"] as? String == "approved")
        #expect(object?["error"] is NSNull)
        #expect(object?["retries"] as? Int == 2)
    }

    /// The text's dates were written by Foundation's `ISO8601DateFormatter`; they now come from
    /// `FoundationEssentials`' `ISO8601FormatStyle` (issue 22): the same text, whole seconds after
    /// rounding to milliseconds as the formatter did.
    @Test("AD-5.1: swcutil text dates are ISO 8601 in UTC, whole seconds, as ISO8601DateFormatter wrote them")
    func recordViewDates() throws {
        for seconds in [
            1_700_000_000.75, 1_234_567_890.999, 4_102_444_799.5, 1_000_000_000.001, 1_700_000_000.9995, -0.0004,
            -0.0006, -12_219_292_800,
        ] {
            let date = Date(timeIntervalSince1970: seconds)
            let record = AssociationRecord(
                service: .webcredentials, appID: appID, host: "example.com", port: nil, isWildcard: false,
                modes: [], siteApproval: .approved, lastChecked: date, nextCheck: date.addingTimeInterval(3600),
                retryCount: 0, lastError: nil)
            let text = AssociationRecordView(record).swcutilText
            let formatter = ISO8601DateFormatter()
            #expect(text.contains("\nLast Checked:       \(formatter.string(from: date))\n"))
            #expect(text.contains("\nNext Check:         \(formatter.string(from: date.addingTimeInterval(3600)))\n"))
        }
        let pinned = AssociationRecord(
            service: .webcredentials, appID: appID, host: "example.com", port: nil, isWildcard: false,
            modes: [], siteApproval: .approved, lastChecked: Date(timeIntervalSince1970: 1_700_000_000.75),
            nextCheck: .distantPast, retryCount: 0, lastError: nil)
        #expect(AssociationRecordView(pinned).swcutilText.contains("\nLast Checked:       2023-11-14T22:13:20Z\n"))
        #expect(AssociationRecordView(pinned).swcutilText.contains("\nNext Check:         0001-01-01T00:00:00Z\n"))
    }

    @Test("Records survive a real encrypted store: install, refresh and apply in transactions")
    func realStore() async throws {
        let sites = try Sites()
        try sites.serve("example.com", webcredentials([appID]))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "swcred-daemon-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        defer { try? FileManager.default.removeItem(at: directory) }
        let keyPath = directory.appendingPathComponent("key").path
        try KeyFile.create(at: keyPath)
        let options = StoreOptions(stateDirectory: directory.appendingPathComponent("state").path, clock: clock)
        let store = try KeychainStore.create(
            at: directory.appendingPathComponent("keychain.swcred").path,
            keySource: .keyFile(path: keyPath),
            options: options
        )
        let daemon = daemon(sites.source)
        let identity = try app(["webcredentials:example.com"])
        try store.transaction { contents, _ in try daemon.install(app: identity, into: &contents) }
        let outcomes = await daemon.refresh(try store.snapshot().contents.associationRecords)
        try store.transaction { contents, _ in try AssociationDaemon.apply(outcomes, to: &contents) }
        let reopened = try KeychainStore.open(
            at: directory.appendingPathComponent("keychain.swcred").path,
            keySource: .keyFile(path: keyPath),
            options: options
        )
        let stored = try reopened.snapshot().contents.associationRecords
        #expect(stored.count == 1)
        #expect(stored.first?.siteApproval == .approved)
        #expect(stored.first?.nextCheck == clock.now().addingTimeInterval(430_200))
    }
}
