import SWCredCore

/// An entitlement entry with its device-specific state: whether it applies here (mode gating,
/// AD-2.6) and whether it was collapsed into another entry (AD-2.5).
public struct ResolvedEntry: Sendable, Hashable {
    /// Position in the entitlement array.
    public var index: Int
    /// The parsed entry.
    public var entry: EntitlementEntry
    /// Valid, not collapsed, and its modes are satisfied on this device.
    public var active: Bool
    /// The entry's own diagnostics plus gating and collapsing notes.
    public var diagnostics: [Diagnostic]
    /// The index of the entry that stands for this one: the first of its duplicates (AD-2.5), or
    /// the active mode entry that shadows it (AD-2.5 Decision); `nil` when none does.
    public var representedBy: Int? = nil

    /// The parsed domain (present for every valid entry).
    public var domain: AssociatedDomain? { entry.domain }
    /// The route its file is retrieved over: mode entries go direct (AD-4.1).
    public var route: AssociationRoute {
        (entry.domain?.modes.isEmpty ?? true) ? .standard : .modeDirect
    }
}

/// Applies AD-2.5 (duplicates collapse; an active mode entry shadows the plain entry for the same
/// domain, Decision) and AD-2.6 (mode gating) to an app's entries.
public enum EntitlementResolver {
    /// Why an entry with `modes` does not apply, or `nil` when it does (AD-2.6).
    public static func gatingProblem(
        modes: AssociationModes, developmentSigned: Bool,
        device: DeviceSettings
    ) -> String? {
        if modes.contains(.developer) {
            if !device.developerMode { return "developer mode is disabled" }
            if !developmentSigned { return "bundle is not developer-signed" }
        }
        if modes.contains(.managed), !device.managedDevice {
            return "the device is not managed or does not allow direct downloads for this app"
        }
        return nil
    }

    /// Resolves every entry, in file order.
    ///
    /// - Returns: one ``ResolvedEntry`` per entry of `entitlements.entries`.
    public static func resolve(_ entitlements: Entitlements, device: DeviceSettings) -> [ResolvedEntry] {
        var resolved: [ResolvedEntry] = entitlements.entries.enumerated().map { index, entry in
            var active = entry.valid
            var diagnostics = entry.diagnostics
            if entry.valid, let domain = entry.domain,
                let problem = gatingProblem(
                    modes: domain.modes, developmentSigned: entitlements.developmentSigned,
                    device: device)
            {
                active = false
                diagnostics.append(.warning("entry skipped: \(problem)"))
            }
            return ResolvedEntry(index: index, entry: entry, active: active, diagnostics: diagnostics)
        }
        // AD-2.5: entries equal after normalisation collapse into the first.
        var firstByDomain: [AssociatedDomain: Int] = [:]
        for i in resolved.indices where resolved[i].active {
            guard let domain = resolved[i].domain else { continue }
            if let first = firstByDomain[domain] {
                resolved[i].active = false
                resolved[i].representedBy = first
                resolved[i].diagnostics.append(
                    .note("duplicate of entry \(first) ('\(resolved[first].entry.raw)'); collapsed", id: "SWC106"))
            } else {
                firstByDomain[domain] = i
            }
        }
        // AD-2.5 Decision: an active mode entry shadows the plain entry for the same
        // (service, host, port, wildcard).
        for i in resolved.indices where resolved[i].active {
            guard let domain = resolved[i].domain, domain.modes.isEmpty else { continue }
            let shadow = resolved.firstIndex { other in
                guard other.active, let o = other.domain, !o.modes.isEmpty else { return false }
                return o.service == domain.service && o.host == domain.host && o.port == domain.port
                    && o.wildcard == domain.wildcard
            }
            if let shadow {
                resolved[i].active = false
                resolved[i].representedBy = shadow
                resolved[i].diagnostics.append(
                    .note("shadowed by the active mode entry '\(resolved[shadow].entry.raw)', which is used instead"))
            }
        }
        return resolved
    }
}
