// The `swcred` executable: every command, without network code. A command that fetches over
// HTTPS (`fetch`, or a live `--direct`/`--cdn` source) is handed to `swcred-fetch` beside it.
// The commands run on the main thread (SWCredProgram.mainOnCurrentThread): no dispatch worker
// threads are started for a command that does not need them.
import SWCredCLI

if #available(macOS 15.0, *) {
    SWCredProgram.mainOnCurrentThread()
} else {
    await SWCredProgram.main()
}
