public import SWCredCore

/// An app bundle as a device installs it: `Info.plist`, the executable it names, and the
/// embedded provisioning profile, when there is one.
///
/// Both layouts are read: iOS's flat one (`TacoShop.app/Info.plist`, `TacoShop.app/TacoShop`)
/// and macOS's (`TacoShop.app/Contents/Info.plist`, `Contents/MacOS/TacoShop`). `Info.plist`,
/// XML or binary, goes through SWCredCore's bounded ``PropertyListReader``.
///
/// ```swift
/// let app = try AppBundle.load(path: "Payload/TacoShop.app")
/// print(app.bundleIdentifier ?? "?", app.executable.slices.first?.signature?.applicationIdentifier ?? "?")
/// ```
public struct AppBundle: Sendable, Hashable {
    /// Where the bundle keeps its files.
    public enum Layout: String, Sendable, Hashable {
        /// `Info.plist` and the executable at the top (iOS, tvOS, watchOS).
        case flat
        /// `Contents/Info.plist` and `Contents/MacOS/<executable>` (macOS).
        case contents
    }

    /// The layout found.
    public var layout: Layout
    /// `CFBundleIdentifier` from `Info.plist`, when it is a string.
    public var bundleIdentifier: String?
    /// `CFBundleExecutable` from `Info.plist`: one path component.
    public var executableName: String
    /// The executable, read as a Mach-O file.
    public var executable: MachOFile
    /// The embedded profile's path inside the bundle (`embedded.mobileprovision`, or
    /// `Contents/embedded.provisionprofile`), when there is one.
    public var embeddedProfilePath: String?
    /// The embedded profile, read (``ProvisioningProfile``), when there is one.
    public var embeddedProfile: ProvisioningProfile? = nil
    /// Where this bundle is inside its outermost app (`PlugIns/Share.appex`); empty for the app itself.
    public var nestedPath: String = ""
    /// The app extensions (`PlugIns/*.appex`) and App Clips (`AppClips/*.app`) inside, each read
    /// as an app of its own, in name order.
    public var nested: [AppBundle] = []

    /// Reads the app bundle at `path`, a folder.
    ///
    /// - Throws: `SWCredError.Code.malformedArtifact` (exit 65) when it has no `Info.plist`, its
    ///   `Info.plist` does not read or names no executable, or the executable does not read;
    ///   `.fileNotFound` (exit 66) when a file cannot be read.
    public static func load(path: String, limits: ArtifactLimits = .init()) throws(SWCredError) -> AppBundle {
        try read(
            limits: limits,
            file: { (relative, maximum) throws(SWCredError) -> [UInt8]? in
                do throws(SWCredError) {
                    return try FileInput.read(
                        path: path + "/" + relative, maximumBytes: maximum, tooLarge: .malformedArtifact)
                } catch {
                    if error.code == .fileNotFound { return nil }
                    throw error
                }
            },
            list: { relative in BundleFolder.names(in: path + "/" + relative) })
    }

    /// Reads an app bundle through `file`, which returns the bytes at a path relative to the
    /// bundle (at most the given size, else it throws), or nil when there is no such file, and
    /// `list`, which names what a folder relative to the bundle holds (nested bundles). An `.ipa`
    /// reader passes its archive's entries; ``load(path:limits:)`` the file system.
    package static func read(
        limits: ArtifactLimits, file: (String, Int) throws(SWCredError) -> [UInt8]?, list: (String) -> [String]
    ) throws(SWCredError) -> AppBundle {
        var budget = limits.maximumNestedBundles
        return try read(limits: limits, at: "", depth: 0, budget: &budget, file: file, list: list)
    }

    private static func read(
        limits: ArtifactLimits, at prefix: String, depth: Int, budget: inout Int,
        file outer: (String, Int) throws(SWCredError) -> [UInt8]?, list outerList: (String) -> [String]
    ) throws(SWCredError) -> AppBundle {
        let file = { (relative: String, maximum: Int) throws(SWCredError) -> [UInt8]? in
            try outer(prefix + relative, maximum)
        }
        var bundle = try readOne(limits: limits, file: file)
        bundle.nestedPath = prefix.hasSuffix("/") ? String(prefix.dropLast()) : prefix
        guard depth < limits.maximumNestingDepth else { return bundle }
        // The nested bundles: PlugIns/*.appex and AppClips/*.app (under Contents/ on macOS).
        let base = bundle.layout == .flat ? "" : "Contents/"
        for (folder, suffix) in [("PlugIns", ".appex"), ("AppClips", ".app")] {
            let names = outerList(prefix + base + folder).sorted()
            for name in names where name.hasSuffix(suffix) && isOneComponent(name) {
                budget -= 1
                guard budget >= 0 else {
                    throw SWCredError(
                        .malformedArtifact, "the app holds more than \(limits.maximumNestedBundles) nested bundles")
                }
                bundle.nested.append(
                    try read(
                        limits: limits, at: prefix + base + folder + "/" + name + "/", depth: depth + 1,
                        budget: &budget, file: outer, list: outerList))
            }
        }
        return bundle
    }

    /// One bundle's own files: `Info.plist`, the executable, the embedded profile.
    private static func readOne(
        limits: ArtifactLimits, file: (String, Int) throws(SWCredError) -> [UInt8]?
    ) throws(SWCredError) -> AppBundle {
        // Step 1: the layout, from where Info.plist is.
        let layout: Layout
        let infoBytes: [UInt8]
        if let bytes = try file("Info.plist", limits.maximumInfoPlistBytes) {
            (layout, infoBytes) = (.flat, bytes)
        } else if let bytes = try file("Contents/Info.plist", limits.maximumInfoPlistBytes) {
            (layout, infoBytes) = (.contents, bytes)
        } else {
            throw SWCredError(.malformedArtifact, "not an app bundle: no Info.plist or Contents/Info.plist")
        }

        // Step 2: Info.plist's CFBundleExecutable (one path component) and CFBundleIdentifier.
        let reader = PropertyListReader(
            limits: PropertyListReader.Limits(maxBytes: limits.maximumInfoPlistBytes, maxDepth: limits.maximumDepth))
        let info: PropertyListDictionary
        do {
            guard case .dictionary(let dictionary) = try reader.read(infoBytes) else {
                throw SWCredError(.malformedArtifact, "Info.plist's top level is not a dictionary")
            }
            info = dictionary
        } catch let error as SWCredError {
            throw error
        } catch {
            throw SWCredError(.malformedArtifact, "Info.plist is not a property list: \(error)")
        }
        guard let name = info["CFBundleExecutable"]?.stringValue else {
            throw SWCredError(.malformedArtifact, "Info.plist has no CFBundleExecutable string")
        }
        guard isOneComponent(name) else {
            throw SWCredError(
                .malformedArtifact, "CFBundleExecutable \(name.debugDescription) is not a single file name")
        }

        // Step 3: the executable it names, and the embedded profile's presence.
        let executablePath = layout == .flat ? name : "Contents/MacOS/" + name
        guard let executableBytes = try file(executablePath, limits.maximumFileBytes) else {
            throw SWCredError(.malformedArtifact, "the executable \(executablePath) named by Info.plist is missing")
        }
        let executable = try MachOFile.read(executableBytes, limits: limits)
        let profilePath = layout == .flat ? "embedded.mobileprovision" : "Contents/embedded.provisionprofile"
        let profile = try file(profilePath, limits.maximumInfoPlistBytes).map {
            bytes throws(SWCredError) in try ProvisioningProfile.read(bytes, limits: limits)
        }
        return AppBundle(
            layout: layout, bundleIdentifier: info["CFBundleIdentifier"]?.stringValue, executableName: name,
            executable: executable, embeddedProfilePath: profile == nil ? nil : profilePath, embeddedProfile: profile)
    }

    /// Whether `name` is one path component: not empty, no `/`, NUL or backslash, not `.` or `..`.
    static func isOneComponent(_ name: String) -> Bool {
        !name.isEmpty && name != "." && name != ".."
            && !name.unicodeScalars.contains { $0 == "/" || $0 == "\\" || $0 == "\0" }
    }
}
