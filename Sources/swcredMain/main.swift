// The `swcred` executable: every command, without network code. A command that fetches over
// HTTPS (`fetch`, or a live `--direct`/`--cdn` source) is handed to `swcred-fetch` beside it.
import SWCredCLI

await SWCredProgram.main()
