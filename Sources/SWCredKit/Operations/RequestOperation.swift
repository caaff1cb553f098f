import SWCredCore
import SWCredStore

/// `SecRequestSharedWebCredential`, step by step (SWC-7).
struct RequestOperation {
    let service: SharedWebCredentials
    let fqdn: String?
    let account: String?
    let profile: SWCProfile

    private var app: SWCApp { service.app }
    private var backend: any SharedWebCredentialsBackend { service.backend }
    private var configuration: SWCConfiguration { service.configuration }

    func run() async -> SWCRequestReport {
        // SWC-7.2 Validation, both profiles.
        if let fqdn, fqdn.isEmpty { return fail(.invalidParameter, "fqdn was empty or not a CFString") }
        if let account, account.isEmpty { return fail(.invalidParameter, "account was empty or not a CFString") }
        if configuration.platform == .other {
            return fail(.invalidParameter, "SharedWebCredentials not supported on this platform")
        }
        switch profile {
        case .legacy: return await runLegacy()
        case .current: return await runCurrent()
        }
    }

    // MARK: Legacy (SWC-7.3)

    private func runLegacy() async -> SWCRequestReport {
        do {
            // 1. Password AutoFill.
            let settings = configuration.effective(try await backend.deviceSettings())
            if !configuration.simulator, !settings.autoFillEnabled {
                return fail(.autoFillDisabled, SWCProfile.legacy.autoFillDisabledMessage)
            }
            // 2. Domains: fqdn, or every plain, active-by-construction webcredentials entry (no
            //    wildcard, no mode) in entitlement order (Decision).
            var domains: [SWCDomain] = []
            if let fqdn {
                guard let domain = SWCDomain(parsing: fqdn) else { return fail(.invalidParameter, "No domain provided") }
                domains = [domain]
            } else {
                domains = app.webCredentialsEntries.filter { !$0.wildcard && $0.modes.isEmpty }
                    .map { SWCDomain(host: $0.host, port: $0.port) }
            }
            guard !domains.isEmpty else { return fail(.invalidParameter, "No domain provided") }

            // 3. Per domain: entitlement, query, site approval.
            var kept: [InternetPasswordItem] = []  // found order
            var firstError: SWCredError?
            for domain in domains {
                let matching = app.webCredentialsEntries.filter { $0.covers(host: domain.host, port: domain.port) }
                if !configuration.simulator {
                    guard let appID = app.appID, !appID.isEmpty else {
                        return fail(.missingEntitlement, "Missing application-identifier entitlement")
                    }
                    guard !matching.isEmpty else {
                        return fail(
                            .missingEntitlement,
                            "\(domain.host) not found in com.apple.developer.associated-domains entitlement")
                    }
                }
                let query = ItemQuery.sharedWebCredentials(
                    server: domain.host, account: account, port: domain.port, protocolCode: "htps")
                let found = try await backend.items(matching: query)
                guard !found.isEmpty else {
                    if firstError == nil { firstError = SWCredError(.itemNotFound, "no matching items found") }
                    continue
                }
                if !configuration.simulator, let appID = app.appID {
                    var approved = false
                    for entry in matching where try await backend.approval(for: entry.recordKey(appID: appID))?.site == .approved {
                        approved = true
                        break
                    }
                    guard approved else {
                        if firstError == nil {
                            firstError = SWCredError(.siteNotApproved, "\"\(domain.host)\" failed to approve \"\(appID)\"")
                        }
                        continue
                    }
                }
                kept.append(contentsOf: found)
            }
            // 5. Drop negative entries; `default` comments to the front, each inserted at the head.
            //    An item found through two domains (`example.com` and `example.com:8443` both match a
            //    ported item) is offered once, at its first place.
            var ordered: [InternetPasswordItem] = []
            var others: [InternetPasswordItem] = []
            var seen = Set<ItemKey>()
            for item in kept where !item.isNegative && seen.insert(item.key).inserted {
                if item.comment == "default" { ordered.insert(item, at: 0) } else { others.append(item) }
            }
            ordered.append(contentsOf: others)
            // 6. Nothing kept.
            guard !ordered.isEmpty else {
                if domains.count == 1, let firstError {
                    return SWCRequestReport(credentials: nil, error: firstError, profile: .legacy)
                }
                return fail(.itemNotFound, "no matching items found")
            }
            // 7. SELECT.
            let prompt = SWCPrompt(
                kind: .select, appName: app.displayName, domain: fqdn ?? domains[0].description,
                candidates: ordered.map { SWCPrompt.Candidate(server: $0.server, account: $0.account, port: $0.specifiedPort) },
                profile: .legacy)
            let answer = await service.ask(prompt)
            guard case .choose(let index) = answer else {
                // 9. Cancel: an empty, non-nil array and no error (Decision).
                return SWCRequestReport(credentials: [], error: nil, profile: .legacy, prompt: prompt, answer: answer)
            }
            // 8. The chosen item's real server, account, password and port; user approval `approved`.
            let chosen = ordered[index]
            if let appID = app.appID, !appID.isEmpty {
                let entry = app.webCredentialsEntries.first { $0.covers(host: chosen.server, port: chosen.specifiedPort) }
                let target =
                    entry?.recordKey(appID: appID)
                    ?? .webCredentials(appID: appID, host: chosen.server, port: chosen.specifiedPort)
                try? await backend.setUserApproval(.approved, for: target)
            }
            let credential = SharedWebCredential(
                server: chosen.server, account: chosen.account, password: chosen.sharedWebCredentialPassword ?? "", port: chosen.specifiedPort)
            return SWCRequestReport(credentials: [credential], error: nil, profile: .legacy, prompt: prompt, answer: answer)
        } catch {
            return SWCRequestReport(credentials: nil, error: completionError(fromStore: error), profile: .legacy)
        }
    }

    // MARK: Current (SWC-7.4)

    private func runCurrent() async -> SWCRequestReport {
        // 1. The echoed domain: fqdn, or the first element with the exact prefix `webcredentials:`.
        let prefix = "webcredentials:"
        let echoed: String
        if let fqdn {
            echoed = fqdn
        } else if let first = app.associatedDomains.first(where: { $0.hasPrefix(prefix) }) {
            echoed = String(first.dropFirst(prefix.count))
        } else {
            return fail(.invalidParameter, "fqdn was NULL, and no associated domains found")
        }
        do {
            // 3. Candidates: non-negative items covered by an associated (active, site-approved)
            //    webcredentials entry, with the port rule of SWC-6.5, in store order (Decision).
            let settings = configuration.effective(try await backend.deviceSettings())
            var associated: [WebCredentialsEntry] = []
            if let appID = app.appID, !appID.isEmpty {
                for entry in app.webCredentialsEntries where entry.isActive(settings: settings, app: app) {
                    if try await backend.approval(for: entry.recordKey(appID: appID))?.site == .approved {
                        associated.append(entry)
                    }
                }
            }
            let candidates = try await backend.items(matching: .allSharedWebCredentials).filter { item in
                !item.isNegative && associated.contains { $0.covers(host: item.server, port: item.specifiedPort) }
            }
            // 4. Nothing to offer: canceled, without a prompt.
            guard !candidates.isEmpty else { return canceled(prompt: nil, answer: nil) }
            // 5. SELECT.
            let prompt = SWCPrompt(
                kind: .select, appName: app.displayName, domain: echoed,
                candidates: candidates.map { SWCPrompt.Candidate(server: $0.server, account: $0.account, port: $0.specifiedPort) },
                profile: .current)
            let answer = await service.ask(prompt)
            guard case .choose(let index) = answer else {
                // 6. Cancel: empty array and ASAuthorizationError 1001.
                return canceled(prompt: prompt, answer: answer)
            }
            let chosen = candidates[index]
            let credential = SharedWebCredential(server: echoed, account: chosen.account, password: chosen.sharedWebCredentialPassword ?? "")
            return SWCRequestReport(credentials: [credential], error: nil, profile: .current, prompt: prompt, answer: answer)
        } catch {
            return SWCRequestReport(credentials: nil, error: completionError(fromStore: error), profile: .current)
        }
    }

    private func canceled(prompt: SWCPrompt?, answer: SWCPromptAnswer?) -> SWCRequestReport {
        SWCRequestReport(
            credentials: [],
            error: SWCredError(
                .canceled,
                "The operation couldn\u{2019}t be completed. (com.apple.AuthenticationServices.AuthorizationError error 1001.)"),
            profile: .current, prompt: prompt, answer: answer)
    }

    private func fail(_ code: SWCredError.Code, _ message: String) -> SWCRequestReport {
        SWCRequestReport(credentials: nil, error: SWCredError(code, message), profile: profile)
    }
}
