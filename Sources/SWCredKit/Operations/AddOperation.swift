import SWCredCore
import SWCredStore

/// `SecAddSharedWebCredential`, step by step (SWC-6).
struct AddOperation {
    let service: SharedWebCredentials
    let fqdn: String?
    let account: String?
    let password: String?

    private var app: SWCApp { service.app }
    private var backend: any SharedWebCredentialsBackend { service.backend }
    private var configuration: SWCConfiguration { service.configuration }

    func run() async -> SWCAddReport {
        // SWC-6.1 Argument validation, before anything else.
        guard let fqdn, !fqdn.isEmpty, let account, !account.isEmpty else {
            return fail(.invalidParameter, "fqdn or account was not of type CFString, or not provided")
        }
        // SWC-6.2 Platform.
        switch configuration.platform {
        case .ios: break
        case .macos:
            return fail(.unimplemented, "SecAddSharedWebCredentialSync not supported on this platform")
        case .other:
            return fail(.invalidParameter, "SharedWebCredentials not supported on this platform")
        }
        // SWC-6.3 step 1: Password AutoFill (treated as on in simulator mode).
        let settings: SWCDeviceSettings
        do {
            settings = configuration.effective(try await backend.deviceSettings())
        } catch {
            return SWCAddReport(outcome: .failed, completionError: completionError(fromStore: error))
        }
        if !configuration.simulator, !settings.autoFillEnabled {
            return fail(.autoFillDisabled, configuration.profile.autoFillDisabledMessage)
        }
        // Steps 2-3: parse fqdn (SWC-6.4); account and domain present.
        guard let domain = SWCDomain(parsing: fqdn) else {
            return fail(.invalidParameter, "No domain provided")
        }
        var report = SWCAddReport(outcome: .failed, server: domain.host, account: account, port: domain.port)
        // Step 4: entitlement (SWC-6.5). Matching entries are also how the record is found (SWC-6.6).
        let matching = app.webCredentialsEntries.filter { $0.covers(host: domain.host, port: domain.port) }
        if !configuration.simulator {
            guard let appID = app.appID, !appID.isEmpty else {
                return fail(.missingEntitlement, "Missing application-identifier entitlement", into: report)
            }
            guard !matching.isEmpty else {
                return fail(
                    .missingEntitlement, "\(domain.host) not found in com.apple.developer.associated-domains entitlement",
                    into: report)
            }
            // Step 5: site approval of a matched entry's record (SWC-6.6). User approval does not block.
            do {
                var approved = false
                for entry in matching {
                    if try await backend.approval(for: entry.recordKey(appID: appID))?.site == .approved {
                        approved = true
                        break
                    }
                }
                guard approved else {
                    return fail(.siteNotApproved, "\"\(domain.host)\" failed to approve \"\(appID)\"", into: report)
                }
            } catch {
                report.completionError = completionError(fromStore: error)
                return report
            }
        }
        do {
            // Step 6: no "Passwords not saved" entry for the host (SWC-6.7), whatever the account.
            let negative = try await backend.items(
                matching: .sharedWebCredentials(server: domain.host, account: InternetPasswordItem.negativeEntryAccount))
            if !negative.isEmpty {
                return fail(.duplicateItem, "Item already exists for this server", into: report)
            }
            // Step 7: look up the existing credential (SWC-6.8): port only when given; protocol,
            // path and security domain are not part of the query.
            let query = ItemQuery.sharedWebCredentials(server: domain.host, account: account, port: domain.port)
            let existing = try await backend.items(matching: query).filter { !$0.isNegative }
            return await branch(existing: existing, query: query, domain: domain, account: account, report: report)
        } catch {
            report.completionError = completionError(fromStore: error)
            return report
        }
    }

    /// SWC-6.9: the branches of the table, with success on decline (SWC-6.10).
    private func branch(
        existing: [InternetPasswordItem], query: ItemQuery, domain: SWCDomain, account: String, report: SWCAddReport
    ) async -> SWCAddReport {
        var report = report
        report.completionError = nil
        let newSecret = password.map { Array($0.utf8) }
        if let first = existing.first {
            guard let newSecret else {
                // Found, nil password: always prompt DELETE (rdar://16676288); errors are discarded.
                let answer = await confirm(.delete, domain: domain, into: &report)
                guard answer == .allow else { return await declined(answer, domain: domain, report: report) }
                return await discardingError(.deleted, report) { () async throws(SWCredError) in
                    try await backend.delete(matching: query)
                }
            }
            if first.secret == newSecret {
                // Found, same bytes: no prompt; data and comment rewritten, errors discarded.
                return await discardingError(.unchanged, report) { () async throws(SWCredError) in
                    try await backend.updatePassword(matching: query, secret: newSecret, comment: "default")
                }
            }
            // Found, different password: UPDATE; errors discarded.
            let answer = await confirm(.update, domain: domain, into: &report)
            guard answer == .allow else { return await declined(answer, domain: domain, report: report) }
            return await discardingError(.updated, report) { () async throws(SWCredError) in
                try await backend.updatePassword(matching: query, secret: newSecret, comment: "default")
            }
        }
        guard let password else {
            // None, nil password: a no-op.
            report.outcome = .none
            return report
        }
        // None, password: ADD (none when confirmation is silent); a write error reaches the completion.
        if configuration.addConfirmation == .prompt {
            let answer = await confirm(.add, domain: domain, into: &report)
            guard answer == .allow else { return await declined(answer, domain: domain, report: report) }
        }
        do {
            try await backend.add(
                .sharedWebCredential(host: domain.host, account: account, port: domain.port, password: password))
            report.outcome = .added
        } catch {
            report.outcome = .failed
            report.completionError = completionError(fromStore: error)
        }
        return report
    }

    /// Runs a write of a found-item branch, whose error the completion never sees (SWC-6.9): it
    /// goes to ``SWCAddReport/discardedError``, and the report says `outcome` either way.
    private func discardingError(
        _ outcome: SWCAddOutcome, _ report: SWCAddReport, _ write: () async throws(SWCredError) -> Void
    ) async -> SWCAddReport {
        var report = report
        do {
            try await write()
        } catch {
            report.discardedError = error
        }
        report.outcome = outcome
        return report
    }

    private func confirm(_ kind: SWCPrompt.Kind, domain: SWCDomain, into report: inout SWCAddReport) async -> SWCPromptAnswer {
        let prompt = SWCPrompt(kind: kind, appName: app.displayName, domain: domain.host, profile: configuration.profile)
        let answer = await service.ask(prompt)
        report.prompt = prompt
        report.answer = answer
        return answer
    }

    /// `notNow` sets user approval `denied` for (webcredentials, app ID, host) (SWC-4.3, AD-5.4);
    /// `cancel` changes nothing. The completion error stays `nil` (SWC-6.10).
    private func declined(_ answer: SWCPromptAnswer, domain: SWCDomain, report: SWCAddReport) async -> SWCAddReport {
        var report = report
        report.outcome = .declined
        report.completionError = nil
        if answer == .notNow, let appID = app.appID, !appID.isEmpty {
            let entries = app.webCredentialsEntries.filter { $0.covers(host: domain.host, port: domain.port) }
            let target =
                entries.first?.recordKey(appID: appID)
                ?? .webCredentials(appID: appID, host: domain.host, port: domain.port)
            do {
                try await backend.setUserApproval(.denied, for: target)
            } catch {
                report.discardedError = error
            }
        }
        return report
    }

    private func fail(_ code: SWCredError.Code, _ message: String, into report: SWCAddReport? = nil) -> SWCAddReport {
        var report = report ?? SWCAddReport(outcome: .failed, account: account)
        report.outcome = .failed
        report.completionError = SWCredError(code, message)
        return report
    }
}
