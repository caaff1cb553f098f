public import SWCredTesting

/// The recorder of passkey sheets: `SWCredTesting`'s ``SWCPromptRecorder`` itself, so a test
/// records and asserts passkey sheets and password prompts the same way (issue 29).
///
/// Entries carry an optional answer (`nil` while a prompt is pending), and the recorder offers
/// `prompts`, `kinds`, `pickers` and `reset()`. Answers come from a script, in order, then
/// `cancel`, or from a wrapped responder (`init(wrapping:)`).
///
/// Example:
/// ```swift
/// let user = PasskeyPromptRecorder(answers: [.allow, .choose(0)])
/// // … register, then sign in, with `responder: user` …
/// #expect(user.kinds == [.createPasskey, .signInWithPasskey])
/// ```
public typealias PasskeyPromptRecorder = SWCPromptRecorder
