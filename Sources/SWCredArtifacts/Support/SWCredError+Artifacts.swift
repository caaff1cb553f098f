public import SWCredCore

extension SWCredError.Code {
    /// A signed artifact could not be read: a Mach-O file, one of its slices or its code
    /// signature is truncated, points outside its container, overflows, or is over a limit of
    /// ``ArtifactLimits``. The message names the structure and the offset. Exit 65.
    public static let malformedArtifact = Self(.malformedArtifact)
}
